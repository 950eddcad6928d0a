// CONV_2D: hand-checked prepare logic and math, golden vectors from the
// real TFLM (int8 / int16 bit for bit, float within 1e-5 relative) and the
// kernel's options parser.
#include "tflm_arena/runtime/kernels/conv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "golden/conv_golden.h"
#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/conv_common.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::Activation;
using model::Padding;
using model::TensorInfo;
using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

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
  EXPECT_EQ(out[0], 0.0f);         // 1 + 2 + 3 - 40 < 0 -> RELU
  EXPECT_EQ(out[1], 2.0f + 4.0f);  // 2 + 4
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

// --- golden vectors from TFLM (golden/conv_cases.py) ----------------------------

using ConvGolden = GoldenTest;

TEST_P(ConvGolden, MatchesTflm) {
  const golden::Case& c = GetParam();
  const TensorInfo input = ToInfo(c.input), weights = ToInfo(c.input2), output = ToInfo(c.output);
  TensorInfo bias_info;
  const TensorInfo* bias = OptionalInfo(c.bias, &bias_info);
  ConvOptions o;
  SetConvOptions(c.options, &o);
  ConvParams params;
  const Status st = PrepareConv(o, input, weights, bias, output, &params);
  ASSERT_TRUE(st.ok()) << st.message();
  const Shape4 in_s = MakeShape4(c.input.shape), f_s = MakeShape4(c.input2.shape),
               out_s = MakeShape4(c.output.shape);
  const size_t n = Count(c.output);
  if (Is(c.output, TensorType::kFloat32)) {
    std::vector<float> out(n);
    ConvFloat(params, in_s, DataOf<float>(c.input), f_s, DataOf<float>(c.input2),
              DataOf<float>(c.bias), out_s, out.data());
    return ExpectMatchesTflm(c, out);
  }
  std::vector<int32_t> m(static_cast<size_t>(ConvOutputChannels(weights))), s(m.size());
  ConvMultipliers(input, weights, output, m.data(), s.data());
  if (Is(c.output, TensorType::kInt16)) {
    const bool bias64 = Is(c.bias, TensorType::kInt64);
    std::vector<int16_t> out(n);
    ConvPerChannelInt16(params, m.data(), s.data(), in_s, DataOf<int16_t>(c.input), f_s,
                        DataOf<int8_t>(c.input2), bias64 ? nullptr : DataOf<int32_t>(c.bias),
                        bias64 ? DataOf<int64_t>(c.bias) : nullptr, out_s, out.data());
    return ExpectMatchesTflm(c, out);
  }
  std::vector<int8_t> out(n);
  ConvPerChannelInt8(params, m.data(), s.data(), in_s, DataOf<int8_t>(c.input), f_s,
                     DataOf<int8_t>(c.input2), DataOf<int32_t>(c.bias), out_s, out.data());
  ExpectMatchesTflm(c, out);
}

INSTANTIATE_TEST_SUITE_P(Tflm, ConvGolden, ::testing::ValuesIn(golden::conv::kCases), GoldenName);

// --- options parsing (Conv2DOptions) -------------------------------------------

TEST(ConvOptions, ParsesEveryFieldAndDefaults) {
  OptionsTableBuilder full;
  full.Add<int8_t>(0, 1).Add<int32_t>(1, 2).Add<int32_t>(2, 3).Add<int8_t>(3, 3);
  full.Add<int32_t>(4, 4).Add<int32_t>(5, 5).Add<int8_t>(6, 2);
  model::OptionsTable table = full.Build(1);
  ConvOptions o;
  ASSERT_TRUE(Parse(Register_CONV_2D(), table, &o).ok());
  EXPECT_EQ(o.padding, Padding::kValid);
  EXPECT_EQ(o.stride_w, 2);
  EXPECT_EQ(o.stride_h, 3);
  EXPECT_EQ(o.activation, Activation::kRelu6);
  EXPECT_EQ(o.dilation_w, 4);
  EXPECT_EQ(o.dilation_h, 5);
  EXPECT_EQ(o.quantized_bias_type, 2);  // INT32
  // Absent fields: the format's defaults (dilation 1, the rest 0).
  OptionsTableBuilder empty;
  model::OptionsTable none = empty.Build(1);
  ConvOptions d;
  ASSERT_TRUE(Parse(Register_CONV_2D(), none, &d).ok());
  EXPECT_EQ(d.padding, Padding::kSame);
  EXPECT_EQ(d.stride_w, 0);
  EXPECT_EQ(d.dilation_w, 1);
  EXPECT_EQ(d.dilation_h, 1);
  EXPECT_EQ(d.quantized_bias_type, 0);
  EXPECT_EQ(Register_CONV_2D().options.table_type, 1);  // Conv2DOptions
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
