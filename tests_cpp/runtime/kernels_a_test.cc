// Kernels A (FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D, ADD) without an
// interpreter: hand-checked cases for the shared helpers and each kernel's
// prepare logic and math, then golden vectors produced by the real TFLM
// (golden/gen_kernels_a.py), which int8 must reproduce bit for bit and float
// within 1e-5 relative.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

#include "golden/kernels_a_golden.h"
#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/add.h"
#include "tflm_arena/runtime/kernels/conv.h"
#include "tflm_arena/runtime/kernels/conv_common.h"
#include "tflm_arena/runtime/kernels/depthwise_conv.h"
#include "tflm_arena/runtime/kernels/fully_connected.h"
#include "tflm_arena/runtime/kernels/padding.h"
#include "tflm_arena/runtime/kernels/quant_util.h"

namespace kernels_a_golden {
// Readable gtest parameter printing (instead of a byte dump).
inline void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.name; }
}  // namespace kernels_a_golden

namespace tflm_arena {
namespace runtime {
namespace {

using model::Activation;
using model::Padding;
using model::TensorInfo;
using model::TensorType;

// A TensorInfo over vectors the test keeps alive.
struct TestTensor {
  std::vector<int32_t> shape;
  std::vector<float> scale;
  std::vector<int64_t> zero_point;
  TensorInfo info;

  TestTensor(TensorType type, std::vector<int32_t> s, std::vector<float> sc = {},
             std::vector<int64_t> zp = {}, int32_t qdim = 0)
      : shape(std::move(s)), scale(std::move(sc)), zero_point(std::move(zp)) {
    if (zero_point.empty()) zero_point.assign(scale.size(), 0);
    info.name = "t";
    info.type = type;
    info.shape = Span<const int32_t>(shape.data(), shape.size());
    info.scale = Span<const float>(scale.data(), scale.size());
    info.zero_point = Span<const int64_t>(zero_point.data(), zero_point.size());
    info.quantized_dimension = qdim;
    info.num_elements = 1;
    for (int32_t d : shape) info.num_elements *= static_cast<uint64_t>(d);
  }
};

// --- padding ------------------------------------------------------------

TEST(Padding, SameStride2OddInput) {
  // in 7, filter 3, stride 2: out 4, total padding (4-1)*2 + 3 - 7 = 2.
  int32_t oh = 0, ow = 0;
  const PaddingValues p =
      ComputePaddingHeightWidth(2, 2, 1, 1, 7, 7, 3, 3, Padding::kSame, &oh, &ow);
  EXPECT_EQ(oh, 4);
  EXPECT_EQ(ow, 4);
  EXPECT_EQ(p.height, 1);
  EXPECT_EQ(p.width, 1);
  EXPECT_EQ(p.height_offset, 0);
  EXPECT_EQ(p.width_offset, 0);
}

TEST(Padding, SameStride2EvenInputPutsOddPixelAfter) {
  // in 8, filter 3, stride 2: out 4, total 1 -> 0 before, 1 after.
  int32_t oh = 0, ow = 0;
  const PaddingValues p =
      ComputePaddingHeightWidth(2, 2, 1, 1, 8, 8, 3, 3, Padding::kSame, &oh, &ow);
  EXPECT_EQ(oh, 4);
  EXPECT_EQ(p.height, 0);
  EXPECT_EQ(p.height_offset, 1);
}

TEST(Padding, DilationWidensTheFilter) {
  // filter 3 with dilation 2 spans 5: SAME in 8 stride 1 -> total 4 -> 2.
  int32_t oh = 0, ow = 0;
  PaddingValues p = ComputePaddingHeightWidth(1, 1, 2, 2, 8, 8, 3, 3, Padding::kSame, &oh, &ow);
  EXPECT_EQ(oh, 8);
  EXPECT_EQ(p.height, 2);
  EXPECT_EQ(p.height_offset, 0);
  // VALID: out = (8 + 1 - 5) / 1 = 4, no padding.
  p = ComputePaddingHeightWidth(1, 1, 2, 2, 8, 8, 3, 3, Padding::kValid, &oh, &ow);
  EXPECT_EQ(oh, 4);
  EXPECT_EQ(p.height, 0);
  EXPECT_EQ(p.height_offset, 0);
}

TEST(Padding, MixedAxesAndStrideZero) {
  int32_t oh = 0, ow = 0;
  const PaddingValues p =
      ComputePaddingHeightWidth(1, 3, 1, 1, 5, 10, 3, 4, Padding::kSame, &oh, &ow);
  EXPECT_EQ(oh, 5);   // total 2 -> 1
  EXPECT_EQ(ow, 4);   // (10 + 2) / 3; total (3 * 3 + 4 - 10) = 3 -> 1, offset 1
  EXPECT_EQ(p.height, 1);
  EXPECT_EQ(p.width, 1);
  EXPECT_EQ(p.width_offset, 1);
  EXPECT_EQ(ComputeOutSize(Padding::kSame, 10, 3, 0, 1), 0);
}

// --- activation ----------------------------------------------------------

TEST(Activation, FloatRanges) {
  float lo = 0, hi = 0;
  FloatActivationRange(Activation::kRelu6, &lo, &hi);
  EXPECT_EQ(lo, 0.0f);
  EXPECT_EQ(hi, 6.0f);
  FloatActivationRange(Activation::kReluN1To1, &lo, &hi);
  EXPECT_EQ(lo, -1.0f);
  EXPECT_EQ(hi, 1.0f);
  FloatActivationRange(Activation::kRelu, &lo, &hi);
  EXPECT_EQ(lo, 0.0f);
  EXPECT_EQ(hi, std::numeric_limits<float>::max());
  // TANH / SIGN_BIT fused into these ops do not clamp (as in TFLM).
  FloatActivationRange(Activation::kTanh, &lo, &hi);
  EXPECT_EQ(lo, std::numeric_limits<float>::lowest());
  EXPECT_EQ(ApplyActivation(-7.5f, lo, hi), -7.5f);
  EXPECT_EQ(ApplyActivation(7.5f, 0.0f, 6.0f), 6.0f);
}

TEST(Activation, QuantizedRanges) {
  int32_t lo = 0, hi = 0;
  // RELU6, scale 0.05, zp -10: q(0) = -10, q(6) = -10 + 120 = 110.
  ASSERT_TRUE(QuantizedActivationRange(Activation::kRelu6, TensorType::kInt8, 0.05f, -10, &lo,
                                       &hi)
                  .ok());
  EXPECT_EQ(lo, -10);
  EXPECT_EQ(hi, 110);
  // RELU_N1_TO_1, scale 0.1, zp 3: [3 - 10, 3 + 10].
  ASSERT_TRUE(QuantizedActivationRange(Activation::kReluN1To1, TensorType::kInt8, 0.1f, 3, &lo,
                                       &hi)
                  .ok());
  EXPECT_EQ(lo, -7);
  EXPECT_EQ(hi, 13);
  // RELU with the zero point below the type range clamps to the type.
  ASSERT_TRUE(
      QuantizedActivationRange(Activation::kRelu, TensorType::kInt8, 0.1f, -200, &lo, &hi).ok());
  EXPECT_EQ(lo, -128);
  EXPECT_EQ(hi, 127);
  // RELU6 with a tiny scale: q(6) saturates to 127.
  ASSERT_TRUE(
      QuantizedActivationRange(Activation::kRelu6, TensorType::kInt8, 0.001f, 0, &lo, &hi).ok());
  EXPECT_EQ(hi, 127);
  // Rounding is half away from zero: 6 / 4 = 1.5 -> 2, +-1 / 2 -> +-1.
  ASSERT_TRUE(
      QuantizedActivationRange(Activation::kRelu6, TensorType::kInt8, 4.0f, 0, &lo, &hi).ok());
  EXPECT_EQ(lo, 0);
  EXPECT_EQ(hi, 2);
  ASSERT_TRUE(QuantizedActivationRange(Activation::kReluN1To1, TensorType::kInt8, 2.0f, 0, &lo,
                                       &hi)
                  .ok());
  EXPECT_EQ(lo, -1);
  EXPECT_EQ(hi, 1);
  ASSERT_TRUE(QuantizedActivationRange(Activation::kNone, TensorType::kInt16, 1.0f, 0, &lo, &hi)
                  .ok());
  EXPECT_EQ(lo, -32768);
  EXPECT_EQ(hi, 32767);
  EXPECT_FALSE(
      QuantizedActivationRange(Activation::kRelu6, TensorType::kInt8, 0.0f, 0, &lo, &hi).ok());
  EXPECT_FALSE(
      QuantizedActivationRange(Activation::kNone, TensorType::kFloat32, 1.0f, 0, &lo, &hi).ok());
}

// --- per-channel multipliers ----------------------------------------------

TEST(ConvCommon, PerChannelMultipliersBroadcastAPerTensorScale) {
  const float scales[] = {0.5f};
  int32_t m[3], s[3];
  // 2 * 0.5 / 0.25 = 4 = 0.5 * 2^3.
  PerChannelMultipliers(2.0f, Span<const float>(scales, 1), 0.25f, 3, m, s);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(m[i], 1 << 30);
    EXPECT_EQ(s[i], 3);
  }
  const float per_channel[] = {0.5f, 0.25f};
  PerChannelMultipliers(1.0f, Span<const float>(per_channel, 2), 1.0f, 2, m, s);
  EXPECT_EQ(m[0], 1 << 30);
  EXPECT_EQ(s[0], 0);
  EXPECT_EQ(m[1], 1 << 30);
  EXPECT_EQ(s[1], -1);
}

// --- CONV_2D hand case ----------------------------------------------------

// All scales 1, so M = 1 and the output is the exact integer sum.
TEST(Conv, Int8HandCaseValid) {
  TestTensor input(TensorType::kInt8, {1, 3, 3, 1}, {1.0f}, {1});
  TestTensor filter(TensorType::kInt8, {1, 2, 2, 1}, {1.0f});
  TestTensor bias(TensorType::kInt32, {1}, {1.0f});
  TestTensor output(TensorType::kInt8, {1, 2, 2, 1}, {1.0f}, {-2});
  ConvOptions options;
  options.padding = Padding::kValid;
  options.stride_w = options.stride_h = 1;
  ConvParams params;
  ASSERT_TRUE(PrepareConv(options, input.info, filter.info, &bias.info, output.info, &params).ok());
  int32_t m = 0, s = 0;
  ConvMultipliers(input.info, filter.info, output.info, &m, &s);
  const int8_t in[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};  // minus zp 1: 0..8
  const int8_t f[] = {1, -1, 2, 0};
  const int32_t b[] = {10};
  int8_t out[4] = {};
  ConvPerChannelInt8(params, &m, &s, {1, 3, 3, 1}, in, {1, 2, 2, 1}, f, b, {1, 2, 2, 1}, out);
  // (0 - 1 + 6) + 10 - 2 = 13; (1 - 2 + 8) + 8 = 15; (3 - 4 + 12) + 8 = 19;
  // (4 - 5 + 14) + 8 = 21.
  EXPECT_EQ(out[0], 13);
  EXPECT_EQ(out[1], 15);
  EXPECT_EQ(out[2], 19);
  EXPECT_EQ(out[3], 21);
}

TEST(Conv, FloatHandCaseSamePadsWithZeros) {
  TestTensor input(TensorType::kFloat32, {1, 2, 2, 1});
  TestTensor filter(TensorType::kFloat32, {1, 3, 3, 1});
  TestTensor output(TensorType::kFloat32, {1, 2, 2, 1});
  ConvOptions options;
  options.padding = Padding::kSame;
  options.stride_w = options.stride_h = 1;
  options.activation = Activation::kRelu;
  ConvParams params;
  ASSERT_TRUE(PrepareConv(options, input.info, filter.info, nullptr, output.info, &params).ok());
  EXPECT_EQ(params.padding_height, 1);
  const float in[] = {1, 2, 3, 4};
  const float f[] = {0, 0, 0, 0, 1, 1, 0, 1, -10};  // centre, right, below, below-right
  float out[4];
  ConvFloat(params, {1, 2, 2, 1}, in, {1, 3, 3, 1}, f, nullptr, {1, 2, 2, 1}, out);
  EXPECT_EQ(out[0], 0.0f);               // 1 + 2 + 3 - 40 < 0 -> RELU
  EXPECT_EQ(out[1], 2.0f + 4.0f);        // 2 + 4
  EXPECT_EQ(out[2], 3.0f + 4.0f);
  EXPECT_EQ(out[3], 4.0f);
}

TEST(Conv, RejectsUnsupportedAndMalformed) {
  ConvOptions options;
  options.stride_w = options.stride_h = 1;
  ConvParams params;
  // Hybrid (float activations, int8 weights) is not run, as in TFLM.
  TestTensor in_f(TensorType::kFloat32, {1, 3, 3, 1});
  TestTensor f8(TensorType::kInt8, {1, 2, 2, 1}, {1.0f});
  TestTensor out_f(TensorType::kFloat32, {1, 3, 3, 1});
  Status st = PrepareConv(options, in_f.info, f8.info, nullptr, out_f.info, &params);
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_NE(std::string(st.message()).find("CONV_2D"), std::string::npos);
  EXPECT_NE(std::string(st.message()).find("FLOAT32"), std::string::npos);
  // int16 activations need INT32 / INT64 bias.
  TestTensor in16(TensorType::kInt16, {1, 3, 3, 1}, {1.0f});
  TestTensor out16(TensorType::kInt16, {1, 3, 3, 1}, {1.0f});
  TestTensor bias16(TensorType::kInt16, {1}, {1.0f});
  EXPECT_TRUE(PrepareConv(options, in16.info, f8.info, nullptr, out16.info, &params).ok());
  EXPECT_EQ(PrepareConv(options, in16.info, f8.info, &bias16.info, out16.info, &params).code(),
            StatusCode::kUnimplemented);

  TestTensor in8(TensorType::kInt8, {1, 3, 3, 1}, {1.0f});
  TestTensor f4(TensorType::kInt4, {1, 2, 2, 1}, {1.0f});
  TestTensor out8(TensorType::kInt8, {1, 3, 3, 1}, {1.0f});
  EXPECT_EQ(PrepareConv(options, in8.info, f4.info, nullptr, out8.info, &params).code(),
            StatusCode::kUnimplemented);

  TestTensor bad_bias(TensorType::kInt32, {2}, {1.0f});
  EXPECT_EQ(PrepareConv(options, in8.info, f8.info, &bad_bias.info, out8.info, &params).code(),
            StatusCode::kInvalidArgument);
  TestTensor float_bias(TensorType::kFloat32, {1});
  EXPECT_EQ(PrepareConv(options, in8.info, f8.info, &float_bias.info, out8.info, &params).code(),
            StatusCode::kUnimplemented);
  TestTensor wrong_out(TensorType::kInt8, {1, 3, 3, 2}, {1.0f});
  EXPECT_EQ(PrepareConv(options, in8.info, f8.info, nullptr, wrong_out.info, &params).code(),
            StatusCode::kInvalidArgument);
  TestTensor unquantized(TensorType::kInt8, {1, 3, 3, 1});
  EXPECT_EQ(PrepareConv(options, unquantized.info, f8.info, nullptr, out8.info, &params).code(),
            StatusCode::kInvalidArgument);
  TestTensor two_scales(TensorType::kInt8, {1, 2, 2, 1}, {1.0f, 2.0f});
  EXPECT_EQ(PrepareConv(options, in8.info, two_scales.info, nullptr, out8.info, &params).code(),
            StatusCode::kInvalidArgument);
  options.stride_w = 0;
  EXPECT_EQ(PrepareConv(options, in8.info, f8.info, nullptr, out8.info, &params).code(),
            StatusCode::kInvalidArgument);
}

// --- DEPTHWISE_CONV_2D ------------------------------------------------------

TEST(DepthwiseConv, Int8HandCaseDepthMultiplier2) {
  // 1x1 image, 2 channels, dm 2: output channel c reads input channel c / 2.
  TestTensor input(TensorType::kInt8, {1, 1, 1, 2}, {1.0f});
  TestTensor filter(TensorType::kInt8, {1, 1, 1, 4}, {1.0f, 1.0f, 1.0f, 1.0f}, {}, 3);
  TestTensor bias(TensorType::kInt32, {4}, {1.0f});
  TestTensor output(TensorType::kInt8, {1, 1, 1, 4}, {1.0f});
  DepthwiseConvOptions options;
  options.stride_w = options.stride_h = 1;
  options.depth_multiplier = 2;
  ConvParams params;
  ASSERT_TRUE(
      PrepareDepthwiseConv(options, input.info, filter.info, &bias.info, output.info, &params)
          .ok());
  EXPECT_EQ(params.depth_multiplier, 2);
  int32_t m[4], s[4];
  DepthwiseConvMultipliers(input.info, filter.info, output.info, m, s);
  const int8_t in[] = {3, -5};
  const int8_t f[] = {2, -1, 4, 7};
  const int32_t b[] = {1, 0, 0, 100};
  int8_t out[4];
  DepthwiseConvPerChannelInt8(params, m, s, {1, 1, 1, 2}, in, {1, 1, 1, 4}, f, b, {1, 1, 1, 4},
                              out);
  EXPECT_EQ(out[0], 7);     // 3 * 2 + 1
  EXPECT_EQ(out[1], -3);    // 3 * -1
  EXPECT_EQ(out[2], -20);   // -5 * 4
  EXPECT_EQ(out[3], 65);    // -5 * 7 + 100
}

// TFLM runs the option's depth_multiplier verbatim (an inconsistent value
// leaves outputs undefined there); we always use Cout / Cin.
TEST(DepthwiseConv, InconsistentDepthMultiplierUsesChannels) {
  TestTensor input(TensorType::kFloat32, {1, 2, 2, 2});
  TestTensor filter(TensorType::kFloat32, {1, 1, 1, 6});
  TestTensor output(TensorType::kFloat32, {1, 2, 2, 6});
  DepthwiseConvOptions options;
  options.stride_w = options.stride_h = 1;
  for (int32_t written : {0, 1, 3, 7}) {
    options.depth_multiplier = written;
    ConvParams params;
    ASSERT_TRUE(
        PrepareDepthwiseConv(options, input.info, filter.info, nullptr, output.info, &params)
            .ok());
    EXPECT_EQ(params.depth_multiplier, 3);
  }
  TestTensor bad_output(TensorType::kFloat32, {1, 2, 2, 5});
  TestTensor bad_filter(TensorType::kFloat32, {1, 1, 1, 5});
  ConvParams params;
  EXPECT_EQ(PrepareDepthwiseConv(options, input.info, bad_filter.info, nullptr, bad_output.info,
                                 &params)
                .code(),
            StatusCode::kInvalidArgument);
}

// --- FULLY_CONNECTED ----------------------------------------------------------

TEST(FullyConnected, Int8HandCaseRoundingAndOffsets) {
  // M = 0.5 exactly: TFLite's doubling high multiply rounds ties upward
  // (3 * 0.5 -> 2, -3 * 0.5 -> -1).
  TestTensor input(TensorType::kInt8, {1, 3}, {1.0f}, {-1});
  TestTensor weights(TensorType::kInt8, {2, 3}, {0.5f});
  TestTensor output(TensorType::kInt8, {1, 2}, {1.0f}, {5});
  FullyConnectedOptions options;
  FullyConnectedParams params;
  ASSERT_TRUE(
      PrepareFullyConnected(options, input.info, weights.info, nullptr, output.info, &params)
          .ok());
  EXPECT_EQ(params.batches, 1);
  EXPECT_EQ(params.accum_depth, 3);
  EXPECT_EQ(params.input_offset, 1);
  EXPECT_EQ(params.output_multiplier, 1 << 30);
  EXPECT_EQ(params.output_shift, 0);
  const int8_t x[] = {0, 1, 0};           // + offset 1 -> 1, 2, 1
  const int8_t w[] = {1, 1, 0, -1, 0, -2};  // acc 3, -3
  int8_t out[2];
  FullyConnectedInt8(params, x, w, nullptr, out);
  EXPECT_EQ(out[0], 2 + 5);
  EXPECT_EQ(out[1], -1 + 5);
}

TEST(FullyConnected, WeightsZeroPointAndKeepNumDimsShape) {
  // Output [2, 2, 2] (keep_num_dims) of input [2, 2, 3]: 4 batches.
  TestTensor input(TensorType::kInt8, {2, 2, 3}, {1.0f});
  TestTensor weights(TensorType::kInt8, {2, 3}, {1.0f}, {1});
  TestTensor output(TensorType::kInt8, {2, 2, 2}, {1.0f});
  FullyConnectedOptions options;
  options.keep_num_dims = true;
  FullyConnectedParams params;
  ASSERT_TRUE(
      PrepareFullyConnected(options, input.info, weights.info, nullptr, output.info, &params)
          .ok());
  EXPECT_EQ(params.batches, 4);
  EXPECT_EQ(params.weights_offset, -1);
  int8_t x[12];
  for (int i = 0; i < 12; ++i) x[i] = static_cast<int8_t>(i);
  const int8_t w[] = {2, 1, 1, 1, 1, 1};  // minus zp 1: (1, 0, 0), (0, 0, 0)
  int8_t out[8];
  FullyConnectedInt8(params, x, w, nullptr, out);
  for (int b = 0; b < 4; ++b) {
    EXPECT_EQ(out[2 * b], 3 * b);  // first input of each batch
    EXPECT_EQ(out[2 * b + 1], 0);
  }
  // Input elements must be batches x accum_depth.
  TestTensor short_input(TensorType::kInt8, {2, 2, 2}, {1.0f});
  EXPECT_EQ(PrepareFullyConnected(options, short_input.info, weights.info, nullptr, output.info,
                                  &params)
                .code(),
            StatusCode::kInvalidArgument);
}

TEST(FullyConnected, PerTensorBiasScaleMustMatch) {
  TestTensor input(TensorType::kInt8, {1, 4}, {0.5f});
  TestTensor weights(TensorType::kInt8, {3, 4}, {0.25f});
  TestTensor good_bias(TensorType::kInt32, {3}, {0.125f});
  TestTensor bad_bias(TensorType::kInt32, {3}, {0.2f});
  TestTensor output(TensorType::kInt8, {1, 3}, {1.0f});
  FullyConnectedOptions options;
  FullyConnectedParams params;
  EXPECT_TRUE(PrepareFullyConnected(options, input.info, weights.info, &good_bias.info,
                                    output.info, &params)
                  .ok());
  // |0.125 - 0.2| / 1.0 = 0.075 > 0.02, as TFLM rejects.
  EXPECT_EQ(PrepareFullyConnected(options, input.info, weights.info, &bad_bias.info, output.info,
                                  &params)
                .code(),
            StatusCode::kInvalidArgument);
  options.weights_format = 1;
  EXPECT_EQ(PrepareFullyConnected(options, input.info, weights.info, nullptr, output.info,
                                  &params)
                .code(),
            StatusCode::kUnimplemented);
}

TEST(FullyConnected, MultiplierRoundsTheScaleProductToFloatFirst) {
  // TFLM computes double(float(a * b)) / double(c) for per-tensor FC.
  const float a = 0.0123456789f, b = 0.00987654321f, c = 0.0333333f;
  int32_t m = 0, s = 0;
  FullyConnectedMultiplier(a, b, c, &m, &s);
  int32_t want_m = 0;
  int want_s = 0;
  QuantizeMultiplier(static_cast<double>(a * b) / static_cast<double>(c), &want_m, &want_s);
  EXPECT_EQ(m, want_m);
  EXPECT_EQ(s, want_s);
}

// --- ADD ----------------------------------------------------------------------

TEST(Add, Int8EqualScalesIsExactSum) {
  // All scales 0.5, zero points 0: the fixed-point path reproduces a + b.
  AddParams p;
  ASSERT_TRUE(QuantizedAddParams(TensorType::kInt8, 0.5f, 0, 0.5f, 0, 0.5f, 0, &p).ok());
  EXPECT_EQ(p.input1_multiplier, 1 << 30);
  EXPECT_EQ(p.input1_shift, 0);
  EXPECT_EQ(p.output_shift, -18);
  const int8_t a[] = {1, -7, 100, -100};
  const int8_t b[] = {2, 3, 100, -100};
  int8_t out[4];
  AddInt8(p, 4, a, b, out);
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], -4);
  EXPECT_EQ(out[2], 127);   // clamped
  EXPECT_EQ(out[3], -128);
  EXPECT_EQ(QuantizedAddParams(TensorType::kInt8, 0.5f, 0, 0.5f, 0, 1e-9f, 0, &p).code(),
            StatusCode::kInvalidArgument);  // output multiplier >= 1
}

TEST(Add, FloatBroadcastOuterSum) {
  const int32_t s1[] = {2, 1};
  const int32_t s2[] = {3};
  const int32_t so[] = {2, 3};
  BroadcastDims dims;
  ASSERT_TRUE(MakeBroadcastDims(Span<const int32_t>(s1, 2), Span<const int32_t>(s2, 1),
                                Span<const int32_t>(so, 2), &dims)
                  .ok());
  AddParams p;
  FloatActivationRange(Activation::kNone, &p.float_activation_min, &p.float_activation_max);
  const float a[] = {10, 20};
  const float b[] = {1, 2, 3};
  float out[6];
  BroadcastAddFloat(p, dims, a, b, out);
  const float want[] = {11, 12, 13, 21, 22, 23};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], want[i]);
}

TEST(Add, BroadcastValidation) {
  BroadcastDims dims;
  const int32_t a[] = {2, 3};
  const int32_t b[] = {4};
  const int32_t out[] = {2, 3};
  EXPECT_EQ(MakeBroadcastDims(Span<const int32_t>(a, 2), Span<const int32_t>(b, 1),
                              Span<const int32_t>(out, 2), &dims)
                .code(),
            StatusCode::kInvalidArgument);
  const int32_t ones[] = {1, 1};
  const int32_t big[] = {1, 4};
  EXPECT_EQ(MakeBroadcastDims(Span<const int32_t>(ones, 2), Span<const int32_t>(ones, 2),
                              Span<const int32_t>(big, 2), &dims)
                .code(),
            StatusCode::kInvalidArgument);  // output larger than both inputs
  const int32_t r7[] = {1, 1, 1, 1, 1, 1, 2};
  EXPECT_EQ(MakeBroadcastDims(Span<const int32_t>(r7, 7), Span<const int32_t>(b, 1),
                              Span<const int32_t>(r7, 7), &dims)
                .code(),
            StatusCode::kUnimplemented);
}

TEST(Add, PrepareRejectsMixedTypes) {
  TestTensor a(TensorType::kInt8, {4}, {1.0f});
  TestTensor b(TensorType::kInt16, {4}, {1.0f});
  AddParams p;
  const Status st = PrepareAdd(AddOptions(), a.info, b.info, a.info, &p);
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_NE(std::string(st.message()).find("ADD"), std::string::npos);
  TestTensor i64(TensorType::kInt64, {4});
  EXPECT_EQ(PrepareAdd(AddOptions(), i64.info, i64.info, i64.info, &p).code(),
            StatusCode::kUnimplemented);
  TestTensor quantized32(TensorType::kInt32, {4}, {1.0f});
  EXPECT_EQ(PrepareAdd(AddOptions(), quantized32.info, quantized32.info, quantized32.info,
                       &p)
                .code(),
            StatusCode::kUnimplemented);
}

TEST(Add, Int32WrapsAndIgnoresActivation) {
  TestTensor t(TensorType::kInt32, {3});
  AddOptions options;
  options.activation = Activation::kRelu;  // TFLM applies none to int32
  AddParams p;
  ASSERT_TRUE(PrepareAdd(options, t.info, t.info, t.info, &p).ok());
  const int32_t a[] = {-5, 7, std::numeric_limits<int32_t>::max()};
  const int32_t b[] = {2, -9, 1};
  int32_t out[3];
  AddInt32(3, a, b, out);
  EXPECT_EQ(out[0], -3);
  EXPECT_EQ(out[1], -2);
  EXPECT_EQ(out[2], std::numeric_limits<int32_t>::min());
}

// --- golden vectors from TFLM ------------------------------------------------

using kernels_a_golden::GoldenCase;
using kernels_a_golden::GoldenTensor;

TensorInfo ToInfo(const GoldenTensor& t) {
  TensorInfo info;
  info.name = "golden";
  info.type = static_cast<TensorType>(t.type);
  info.shape = Span<const int32_t>(t.shape, static_cast<size_t>(t.rank));
  info.scale = Span<const float>(t.scale, static_cast<size_t>(t.num_scales));
  info.zero_point = Span<const int64_t>(t.zero_point, static_cast<size_t>(t.num_scales));
  info.quantized_dimension = t.quantized_dimension;
  info.num_elements = static_cast<uint64_t>(t.num_elements);
  return info;
}

template <typename T>
const T* DataOf(const GoldenTensor& t) {
  return t.type < 0 ? nullptr : static_cast<const T*>(t.data);
}

Shape4 Shape4Of(const GoldenTensor& t) { return MakeShape4(t.shape); }

// Runs a case through our prepare + math; returns the raw output bytes.
Status RunCase(const GoldenCase& c, std::vector<uint8_t>* out) {
  const TensorInfo input = ToInfo(c.input);
  const TensorInfo weights = ToInfo(c.weights);
  const TensorInfo bias_info = ToInfo(c.bias);
  const TensorInfo* bias = c.bias.type < 0 ? nullptr : &bias_info;
  const TensorInfo output = ToInfo(c.output);
  const bool int8 = output.type == TensorType::kInt8;
  const bool int16 = output.type == TensorType::kInt16;
  out->assign(static_cast<size_t>(c.output.num_elements) * model::ElementByteSize(output.type),
              0);
  const std::string op = c.op;
  const auto activation = static_cast<Activation>(c.activation);
  const auto padding = static_cast<Padding>(c.padding);
  if (op == "CONV_2D" || op == "DEPTHWISE_CONV_2D") {
    ConvParams params;
    const bool depthwise = op == "DEPTHWISE_CONV_2D";
    if (depthwise) {
      DepthwiseConvOptions o;
      o.padding = padding;
      o.stride_w = c.stride_w;
      o.stride_h = c.stride_h;
      o.dilation_w = c.dilation_w;
      o.dilation_h = c.dilation_h;
      o.depth_multiplier = c.depth_multiplier;
      o.activation = activation;
      TFLM_ARENA_RETURN_IF_ERROR(
          PrepareDepthwiseConv(o, input, weights, bias, output, &params));
    } else {
      ConvOptions o;
      o.padding = padding;
      o.stride_w = c.stride_w;
      o.stride_h = c.stride_h;
      o.dilation_w = c.dilation_w;
      o.dilation_h = c.dilation_h;
      o.activation = activation;
      TFLM_ARENA_RETURN_IF_ERROR(PrepareConv(o, input, weights, bias, output, &params));
    }
    const Shape4 in_s = Shape4Of(c.input), f_s = Shape4Of(c.weights), out_s = Shape4Of(c.output);
    if (int16 && !depthwise) {
      std::vector<int32_t> m(static_cast<size_t>(ConvOutputChannels(weights)));
      std::vector<int32_t> s(m.size());
      ConvMultipliers(input, weights, output, m.data(), s.data());
      const bool bias64 = bias != nullptr && bias->type == TensorType::kInt64;
      ConvPerChannelInt16(params, m.data(), s.data(), in_s, DataOf<int16_t>(c.input), f_s,
                          DataOf<int8_t>(c.weights), bias64 ? nullptr : DataOf<int32_t>(c.bias),
                          bias64 ? DataOf<int64_t>(c.bias) : nullptr, out_s,
                          reinterpret_cast<int16_t*>(out->data()));
    } else if (int8) {
      const int32_t channels =
          depthwise ? DepthwiseOutputChannels(weights) : ConvOutputChannels(weights);
      std::vector<int32_t> m(static_cast<size_t>(channels)), s(static_cast<size_t>(channels));
      if (depthwise) {
        DepthwiseConvMultipliers(input, weights, output, m.data(), s.data());
        DepthwiseConvPerChannelInt8(params, m.data(), s.data(), in_s, DataOf<int8_t>(c.input),
                                    f_s, DataOf<int8_t>(c.weights), DataOf<int32_t>(c.bias),
                                    out_s, reinterpret_cast<int8_t*>(out->data()));
      } else {
        ConvMultipliers(input, weights, output, m.data(), s.data());
        ConvPerChannelInt8(params, m.data(), s.data(), in_s, DataOf<int8_t>(c.input), f_s,
                           DataOf<int8_t>(c.weights), DataOf<int32_t>(c.bias), out_s,
                           reinterpret_cast<int8_t*>(out->data()));
      }
    } else if (depthwise) {
      DepthwiseConvFloat(params, in_s, DataOf<float>(c.input), f_s, DataOf<float>(c.weights),
                         DataOf<float>(c.bias), out_s, reinterpret_cast<float*>(out->data()));
    } else {
      ConvFloat(params, in_s, DataOf<float>(c.input), f_s, DataOf<float>(c.weights),
                DataOf<float>(c.bias), out_s, reinterpret_cast<float*>(out->data()));
    }
    return Status::Ok();
  }
  if (op == "FULLY_CONNECTED") {
    FullyConnectedOptions o;
    o.activation = activation;
    o.keep_num_dims = c.keep_num_dims;
    FullyConnectedParams params;
    TFLM_ARENA_RETURN_IF_ERROR(PrepareFullyConnected(o, input, weights, bias, output, &params));
    if (!int8) {
      FullyConnectedFloat(params, DataOf<float>(c.input), DataOf<float>(c.weights),
                          DataOf<float>(c.bias), reinterpret_cast<float*>(out->data()));
    } else if (params.per_channel) {
      std::vector<int32_t> m(static_cast<size_t>(params.output_depth));
      std::vector<int32_t> s(m.size());
      FullyConnectedPerChannelMultipliers(input, weights, output, params.output_depth, m.data(),
                                          s.data());
      FullyConnectedPerChannelInt8(params, m.data(), s.data(), DataOf<int8_t>(c.input),
                                   DataOf<int8_t>(c.weights), DataOf<int32_t>(c.bias),
                                   reinterpret_cast<int8_t*>(out->data()));
    } else {
      FullyConnectedInt8(params, DataOf<int8_t>(c.input), DataOf<int8_t>(c.weights),
                         DataOf<int32_t>(c.bias), reinterpret_cast<int8_t*>(out->data()));
    }
    return Status::Ok();
  }
  if (op == "ADD") {
    AddOptions o;
    o.activation = activation;
    AddParams params;
    TFLM_ARENA_RETURN_IF_ERROR(PrepareAdd(o, input, weights, output, &params));
    if (!params.requires_broadcast) {
      const size_t n = static_cast<size_t>(c.output.num_elements);
      switch (output.type) {
        case TensorType::kInt8:
          AddInt8(params, n, DataOf<int8_t>(c.input), DataOf<int8_t>(c.weights),
                  reinterpret_cast<int8_t*>(out->data()));
          break;
        case TensorType::kInt16:
          AddInt16(params, n, DataOf<int16_t>(c.input), DataOf<int16_t>(c.weights),
                   reinterpret_cast<int16_t*>(out->data()));
          break;
        case TensorType::kInt32:
          AddInt32(n, DataOf<int32_t>(c.input), DataOf<int32_t>(c.weights),
                   reinterpret_cast<int32_t*>(out->data()));
          break;
        default:
          AddFloat(params, n, DataOf<float>(c.input), DataOf<float>(c.weights),
                   reinterpret_cast<float*>(out->data()));
          break;
      }
      return Status::Ok();
    }
    BroadcastDims dims;
    TFLM_ARENA_RETURN_IF_ERROR(MakeBroadcastDims(input.shape, weights.shape, output.shape, &dims));
    switch (output.type) {
      case TensorType::kInt8:
        BroadcastAddInt8(params, dims, DataOf<int8_t>(c.input), DataOf<int8_t>(c.weights),
                         reinterpret_cast<int8_t*>(out->data()));
        break;
      case TensorType::kInt16:
        BroadcastAddInt16(params, dims, DataOf<int16_t>(c.input), DataOf<int16_t>(c.weights),
                          reinterpret_cast<int16_t*>(out->data()));
        break;
      case TensorType::kInt32:
        BroadcastAddInt32(dims, DataOf<int32_t>(c.input), DataOf<int32_t>(c.weights),
                          reinterpret_cast<int32_t*>(out->data()));
        break;
      default:
        BroadcastAddFloat(params, dims, DataOf<float>(c.input), DataOf<float>(c.weights),
                          reinterpret_cast<float*>(out->data()));
        break;
    }
    return Status::Ok();
  }
  return Status::Error(StatusCode::kInternal, "unknown op %s", c.op);
}

class GoldenTest : public ::testing::TestWithParam<GoldenCase> {};

// Integer outputs: exact, and not degenerate (many distinct values).
template <typename T>
void ExpectExact(const GoldenCase& c, const std::vector<uint8_t>& out) {
  const size_t n = static_cast<size_t>(c.output.num_elements);
  const T* want = DataOf<T>(c.output);
  std::vector<T> got(n);
  std::memcpy(got.data(), out.data(), n * sizeof(T));
  size_t mismatches = 0;
  for (size_t i = 0; i < n; ++i) {
    if (got[i] != want[i] && ++mismatches <= 5) {
      ADD_FAILURE() << c.name << "[" << i << "]: ours " << static_cast<int64_t>(got[i])
                    << ", TFLM " << static_cast<int64_t>(want[i]);
    }
  }
  EXPECT_EQ(mismatches, 0u);
  std::vector<T> sorted(want, want + n);
  std::sort(sorted.begin(), sorted.end());
  const size_t distinct =
      static_cast<size_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
  EXPECT_GE(distinct, n < 20 ? n / 2 : size_t{10}) << c.name;
}

TEST_P(GoldenTest, MatchesTflm) {
  const GoldenCase& c = GetParam();
  std::vector<uint8_t> out;
  const Status st = RunCase(c, &out);
  ASSERT_TRUE(st.ok()) << st.message();
  switch (static_cast<TensorType>(c.output.type)) {
    case TensorType::kInt8:
      ExpectExact<int8_t>(c, out);
      return;
    case TensorType::kInt16:
      ExpectExact<int16_t>(c, out);
      return;
    case TensorType::kInt32:
      ExpectExact<int32_t>(c, out);
      return;
    default:
      break;
  }
  const size_t n = static_cast<size_t>(c.output.num_elements);
  const float* want = DataOf<float>(c.output);
  std::vector<float> got(n);
  std::memcpy(got.data(), out.data(), n * sizeof(float));
  for (size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(got[i], want[i], 1e-5 * std::max(1.0f, std::fabs(want[i])))
        << c.name << "[" << i << "]";
  }
}

INSTANTIATE_TEST_SUITE_P(Tflm, GoldenTest, ::testing::ValuesIn(kernels_a_golden::kCases),
                         [](const ::testing::TestParamInfo<GoldenCase>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
