// Hostile models for every shipped kernel: each must either be rejected by
// AllocateTensors with a message naming the operator and the problem, or run
// without touching memory outside its tensors (guard bytes on both sides of
// the arena stay intact; the ASan+UBSan build checks the rest). Cases marked
// "old:" describe what the kernels did before these checks existed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "hostile_model.h"
#include "tflm_arena/model/builtin_ops.h"

namespace tflm_arena {
namespace testing {
namespace {

using Kind = HOptions::Kind;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

void ExpectRejected(const HModel& m, const std::string& needle) {
  const HostileOutcome o = RunHostile(m);
  EXPECT_FALSE(o.allocate.ok()) << "accepted (invoke: "
                                << (o.invoked ? o.invoke.message() : "not run") << ")";
  EXPECT_NE(std::string(o.allocate.message()).find(needle), std::string::npos)
      << "message: " << o.allocate.message() << "\nexpected to contain: " << needle;
  EXPECT_TRUE(o.guards_intact);
}

void ExpectRuns(const HModel& m, uint8_t input_byte = 0x7f) {
  const HostileOutcome o = RunHostile(m, 1 << 20, input_byte);
  ASSERT_TRUE(o.allocate.ok()) << o.allocate.message();
  EXPECT_TRUE(o.invoke.ok()) << o.invoke.message();
  EXPECT_TRUE(o.guards_intact);
}

template <typename T>
std::vector<T> Fill(size_t n, T v) {
  return std::vector<T>(n, v);
}

// ---------------------------------------------------------------- QUANTIZE

HModel Quantize(HTensor in, HTensor out) {
  HModel m;
  m.builtin_code = 114;
  m.tensors = {std::move(in), std::move(out)};
  m.op_inputs = {0};
  m.op_outputs = {1};
  return m;
}

TEST(HostileQuantize, ElementCountMismatchIsRejected) {  // old: wrote 16 into 4
  ExpectRejected(Quantize(Activation({16}, kF32), Activation({4}, kI8, {0.5f}, {0})),
                 "QUANTIZE: input has 16 elements but output has 4");
  ExpectRejected(Quantize(Activation({16}, kI8, {0.5f}, {0}), Activation({4}, kI8, {0.5f}, {0})),
                 "QUANTIZE: input has 16 elements but output has 4");
}

TEST(HostileQuantize, AbsurdRequantizeScaleIsRejected) {  // old: shift exponent 100 (UB)
  ExpectRejected(Quantize(Activation({4}, kI8, {1.0f}, {0}), Activation({4}, kI8, {1e-30f}, {0})),
                 "QUANTIZE: requantize multiplier");
}

TEST(HostileQuantize, BadOutputScalesAreRejected) {
  for (float s : {0.0f, -1.0f, kNaN, kInf}) {
    SCOPED_TRACE(s);
    ExpectRejected(Quantize(Activation({4}, kF32), Activation({4}, kI8, {s}, {0})),
                   "must be finite and > 0");
  }
}

TEST(HostileQuantize, OutOfRangeZeroPointsAreRejected) {  // old: accepted
  ExpectRejected(Quantize(Activation({4}, kF32), Activation({4}, kI8, {0.5f}, {300})),
                 "QUANTIZE: output tensor 't1' zero_point[0] = 300 is outside [-128, 127]");
  ExpectRejected(
      Quantize(Activation({4}, kI16, {0.5f}, {1 << 20}), Activation({4}, kI8, {0.5f}, {0})),
      "input tensor 't0' zero_point[0] = 1048576 is outside [-32768, 32767]");
}

TEST(HostileQuantize, Int32MinZeroPointRuns) {  // old: negated INT32_MIN (UB)
  ExpectRuns(Quantize(Activation({4}, kI32, {1.0f}, {std::numeric_limits<int32_t>::min()}),
                      Activation({4}, kI8, {1.0f}, {0})));
}

TEST(HostileQuantize, WrongCountsAndConstantOutputAreRejected) {
  HModel two = Quantize(Activation({4}, kF32), Activation({4}, kI8, {0.5f}, {0}));
  two.tensors.push_back(Activation({4}, kF32));
  two.op_inputs = {0, 2};
  ExpectRejected(two, "QUANTIZE: needs exactly 1 input and 1 output, got 2 and 1");
  ExpectRejected(
      Quantize(Activation({4}, kF32), Constant<int8_t>({4}, kI8, Fill<int8_t>(4, 0), {0.5f}, {0})),
      "QUANTIZE: output tensor 't1' is a constant");
}

// ---------------------------------------------------------------- DEQUANTIZE

HModel Dequantize(HTensor in, HTensor out) {
  HModel m = Quantize(std::move(in), std::move(out));
  m.builtin_code = 6;
  return m;
}

TEST(HostileDequantize, ElementCountMismatchIsRejected) {  // old: wrote 16 floats into 4
  ExpectRejected(Dequantize(Activation({16}, kI8, {0.5f}, {0}), Activation({4}, kF32)),
                 "DEQUANTIZE: input has 16 elements but output has 4");
}

TEST(HostileDequantize, BadQuantizationIsRejected) {
  ExpectRejected(Dequantize(Activation({4}, kI8), Activation({4}, kF32)),
                 "DEQUANTIZE: input tensor 't0' of type INT8 has no quantization parameters");
  ExpectRejected(Dequantize(Activation({4}, kU8, {0.5f}, {-1}), Activation({4}, kF32)),
                 "zero_point[0] = -1 is outside [0, 255]");
  ExpectRejected(Dequantize(Activation({4}, kI8, {kNaN}, {0}), Activation({4}, kF32)),
                 "DEQUANTIZE: input tensor 't0' scale[0] = nan must be finite and > 0");
  ExpectRejected(Dequantize(Activation({4}, kI8, {0.5f, 0.5f}, {0}), Activation({4}, kF32)),
                 "2 quantization scales but 1 zero points" /* model layer */);
}

TEST(HostileDequantize, WrongTypesAreRejected) {
  ExpectRejected(Dequantize(Activation({4}, kF32), Activation({4}, kF32)),
                 "DEQUANTIZE: input FLOAT32, output FLOAT32 not supported");
}

// ---------------------------------------------------------------- LEAKY_RELU
// (no options table: alpha 0, as TFLM's parser leaves it)

HModel LeakyRelu(HTensor in, HTensor out) {
  HModel m = Quantize(std::move(in), std::move(out));
  m.builtin_code = model::kBuiltinLeakyRelu;
  return m;
}

TEST(HostileLeakyRelu, ElementCountMismatchIsRejected) {
  ExpectRejected(LeakyRelu(Activation({16}, kI8, {0.5f}, {0}), Activation({4}, kI8, {0.5f}, {0})),
                 "LEAKY_RELU: input has 16 elements but output has 4");
}

TEST(HostileLeakyRelu, BadQuantizationAndTypesAreRejected) {
  ExpectRejected(LeakyRelu(Activation({4}, kI8), Activation({4}, kI8, {0.5f}, {0})),
                 "LEAKY_RELU: input tensor 't0' of type INT8 has no quantization parameters");
  ExpectRejected(LeakyRelu(Activation({4}, kI8, {0.5f}, {0}), Activation({4}, kI8, {kInf}, {0})),
                 "LEAKY_RELU: output tensor 't1' scale[0] = inf must be finite and > 0");
  ExpectRejected(LeakyRelu(Activation({4}, kI8, {1.0f}, {0}), Activation({4}, kI8, {1e-30f}, {0})),
                 "LEAKY_RELU: identity multiplier");
  ExpectRejected(LeakyRelu(Activation({4}, kI8, {0.5f}, {0}), Activation({4}, kI16, {0.5f}, {0})),
                 "LEAKY_RELU: input INT8, output INT16 not supported");
  ExpectRejected(LeakyRelu(Activation({4}, kI32), Activation({4}, kI32)),
                 "LEAKY_RELU: input INT32, output INT32 not supported");
}

TEST(HostileLeakyRelu, ExtremeZeroPointsRunInsideTheirTensors) {
  ExpectRuns(LeakyRelu(Activation({64}, kI16, {0.001f}, {-32768}),
                       Activation({64}, kI16, {0.0001f}, {32767})));
  ExpectRuns(LeakyRelu(Activation({0}, kF32), Activation({0}, kF32)));  // empty
}

// ---------------------------------------------------------------- SOFTMAX

HModel Softmax(HTensor in, HTensor out, float beta = 1.0f) {
  HModel m = Quantize(std::move(in), std::move(out));
  m.builtin_code = 25;
  m.options.kind = Kind::kSoftmax;
  m.options.beta = beta;
  return m;
}

TEST(HostileSoftmax, OutputShapeMustMatch) {  // old: wrote 2 rows into a 1-row output
  ExpectRejected(Softmax(Activation({2, 4}, kF32), Activation({1, 4}, kF32)),
                 "SOFTMAX: output shape [1, 4] differs from input shape [2, 4]");
}

TEST(HostileSoftmax, AbsurdInt16BetaIsRejected) {  // old: shift exponent > 31 (UB)
  ExpectRejected(Softmax(Activation({1, 8}, kI16, {1.0f}, {0}),
                         Activation({1, 8}, kI16, {1.0f / 32768}, {0}), 1e30f),
                 "SOFTMAX: input (beta x scale) multiplier");
  ExpectRejected(Softmax(Activation({1, 8}, kI16, {1.0f}, {0}),
                         Activation({1, 8}, kI16, {1.0f / 32768}, {0}), kNaN),
                 "must be finite and >= 0");
}

TEST(HostileSoftmax, BadInputScaleIsRejected) {
  ExpectRejected(
      Softmax(Activation({1, 8}, kI8, {kInf}, {0}), Activation({1, 8}, kI8, {1.0f / 256}, {-128})),
      "SOFTMAX: input tensor 't0' scale[0] = inf must be finite and > 0");
}

TEST(HostileSoftmax, Int16RowTooLongIsRejected) {  // old: int32 sum overflow (UB)
  ExpectRejected(Softmax(Activation({1, 70000}, kI16, {1.0f}, {0}),
                         Activation({1, 70000}, kI16, {1.0f / 32768}, {0})),
                 "SOFTMAX: int16 rows of 70000 values exceed 65536");
}

// Zero extents: prepare must get through them without undefined behaviour;
// the interpreter then rejects the empty output as dynamic (TFLM's rule).
TEST(HostileSoftmax, EmptyRowsArePreparedSafely) {
  ExpectRejected(
      Softmax(Activation({3, 0}, kI16, {1.0f}, {0}), Activation({3, 0}, kI16, {1.0f / 32768}, {0})),
      "output tensor 1 has a dynamic shape");
}

// ---------------------------------------------------------------- RESHAPE

HModel Reshape(HTensor in, HTensor out) {
  HModel m = Quantize(std::move(in), std::move(out));
  m.builtin_code = 22;
  m.options.kind = Kind::kReshape;
  return m;
}

TEST(HostileReshape, LegacyScalarOutputIsRejected) {  // old: copied 4 bytes into 0
  ExpectRejected(Reshape(Activation({1}, kF32), Activation({0}, kF32)),
                 "RESHAPE: output 't1' has the legacy scalar shape [0]");
}

TEST(HostileReshape, CountAndTypeMismatchesAreRejected) {
  ExpectRejected(Reshape(Activation({6}, kF32), Activation({2, 2}, kF32)),
                 "RESHAPE: input has 6 elements but output shape holds 4");
  ExpectRejected(Reshape(Activation({4}, kF32), Activation({2, 2}, kI32)),
                 "RESHAPE: input FLOAT32 and output INT32 differ");
}

// old: the element count overflowed int64 in prepare (UB) before reaching
// the 0; now prepare passes and the interpreter rejects the empty output.
TEST(HostileReshape, HugeExtentsBeforeAZeroArePreparedSafely) {
  ExpectRejected(Reshape(Activation({0}, kI8), Activation({65536, 65536, 65536, 65536, 0}, kI8)),
                 "output tensor 1 has a dynamic shape");
}

// ---------------------------------------------------------------- ADD

HModel Add(HTensor a, HTensor b, HTensor out) {
  HModel m;
  m.builtin_code = 0;
  m.options.kind = Kind::kAdd;
  m.tensors = {std::move(a), std::move(b), std::move(out)};
  m.op_inputs = {0, 1};
  m.op_outputs = {2};
  return m;
}

TEST(HostileAdd, OutputShapeMustBeTheBroadcastShape) {
  ExpectRejected(Add(Activation({4}, kF32), Activation({4}, kF32), Activation({2, 2}, kF32)),
                 "ADD: output 't2' shape [2, 2] differs from the inputs' [4]");
  ExpectRejected(Add(Activation({2, 1}, kF32), Activation({1, 3}, kF32), Activation({2, 2}, kF32)),
                 "ADD: shapes do not broadcast");
}

TEST(HostileAdd, OutOfRangeOutputZeroPointIsRejected) {  // old: accepted
  ExpectRejected(Add(Activation({4}, kI8, {0.5f}, {0}), Activation({4}, kI8, {0.5f}, {0}),
                     Activation({4}, kI8, {0.5f}, {1000})),
                 "ADD: output tensor 't2' zero_point[0] = 1000 is outside [-128, 127]");
}

TEST(HostileAdd, BadScalesAreRejected) {
  ExpectRejected(Add(Activation({4}, kI8, {kNaN}, {0}), Activation({4}, kI8, {0.5f}, {0}),
                     Activation({4}, kI8, {0.5f}, {0})),
                 "ADD: input1 tensor 't0' scale[0] = nan must be finite and > 0");
  ExpectRejected(Add(Activation({4}, kI8, {1e30f}, {0}), Activation({4}, kI8, {0.5f}, {0}),
                     Activation({4}, kI8, {1e-30f}, {0})),
                 "give a multiplier outside (0, 1)");
}

TEST(HostileAdd, OmittedInputAndTypeMismatchAreRejected) {
  HModel omitted = Add(Activation({4}, kF32), Activation({4}, kF32), Activation({4}, kF32));
  omitted.op_inputs = {0, -1};
  ExpectRejected(omitted, "ADD: input 1 is omitted");
  ExpectRejected(Add(Activation({4}, kI8, {0.5f}, {0}), Activation({4}, kF32),
                     Activation({4}, kI8, {0.5f}, {0})),
                 "ADD: inputs INT8, FLOAT32 and output INT8 not supported");
}

TEST(HostileAdd, Int32OverflowWraps) {
  ExpectRuns(Add(Activation({4}, kI32), Activation({4}, kI32), Activation({4}, kI32)));
}

// ---------------------------------------------------------------- POOLING

HModel Pool(int32_t code, HTensor in, HTensor out, int32_t filter, int32_t stride,
            bool valid = true) {
  HModel m = Quantize(std::move(in), std::move(out));
  m.builtin_code = code;
  m.options.kind = Kind::kPool;
  m.options.filter_w = m.options.filter_h = filter;
  m.options.stride_w = m.options.stride_h = stride;
  m.options.valid_padding = valid;
  return m;
}
constexpr int32_t kAvgPool = 1;
constexpr int32_t kMaxPool = 17;

TEST(HostilePool, LyingOutputShapeIsRejected) {  // old: accepted
  for (int32_t code : {kAvgPool, kMaxPool}) {
    ExpectRejected(Pool(code, Activation({1, 4, 4, 1}, kF32), Activation({1, 4, 4, 1}, kF32), 2, 2),
                   "_POOL_2D: output shape [1, 4, 4, 1] differs from the computed [1, 2, 2, 1]");
  }
  ExpectRejected(
      Pool(kMaxPool, Activation({1, 4, 4, 2}, kF32), Activation({2, 2, 2, 3}, kF32), 2, 2),
      "MAX_POOL_2D: output shape [2, 2, 2, 3] differs from the computed [1, 2, 2, 2]");
}

TEST(HostilePool, ZeroFilterOrStrideIsRejected) {  // old: accepted
  ExpectRejected(
      Pool(kMaxPool, Activation({1, 4, 4, 1}, kF32), Activation({1, 4, 4, 1}, kF32), 1, 0, false),
      "MAX_POOL_2D: filter (w 1, h 1) and stride (w 0, h 0) must be >= 1");
  ExpectRejected(
      Pool(kAvgPool, Activation({1, 4, 4, 1}, kF32), Activation({1, 4, 4, 1}, kF32), 0, 1, false),
      "AVERAGE_POOL_2D: filter (w 0, h 0)");
}

TEST(HostilePool, HugeInt16WindowSumWraps) {  // old: int32 sum overflow (UB)
  ExpectRuns(Pool(kAvgPool, Activation({1, 300, 300, 1}, kI16, {1.0f}, {0}),
                  Activation({1, 1, 1, 1}, kI16, {1.0f}, {0}), 300, 1));
}

TEST(HostilePool, QuantizationProblemsAreRejected) {
  ExpectRejected(Pool(kMaxPool, Activation({1, 2, 2, 1}, kI8, {0.5f}, {200}),
                      Activation({1, 1, 1, 1}, kI8, {0.5f}, {200}), 2, 2),
                 "MAX_POOL_2D: input tensor 't0' zero_point[0] = 200 is outside [-128, 127]");
  ExpectRejected(Pool(kMaxPool, Activation({1, 2, 2, 1}, kI8, {0.0f}, {0}),
                      Activation({1, 1, 1, 1}, kI8, {0.0f}, {0}), 2, 2),
                 "scale[0] = 0 must be finite and > 0");
}

TEST(HostilePool, WrongInputCountIsRejected) {  // old: a second input was ignored
  HModel m = Pool(kMaxPool, Activation({1, 2, 2, 1}, kF32), Activation({1, 1, 1, 1}, kF32), 2, 2);
  m.tensors.push_back(Activation({1}, kF32));
  m.op_inputs = {0, 2};
  ExpectRejected(m, "MAX_POOL_2D: needs exactly 1 input and 1 output, got 2 and 1");
}

// ---------------------------------------------------------------- CONV_2D

// int8 conv: input [1, 4, 4, cin], filter [cout, 3, 3, cin], VALID, stride 1
// -> output [1, 2, 2, cout]; scales 1, 1 -> out_scale.
HModel Conv(int32_t cin = 1, int32_t cout = 2, float out_scale = 1.0f) {
  HModel m;
  m.builtin_code = 3;
  m.options.kind = Kind::kConv;
  m.options.valid_padding = true;
  const size_t filter_n = static_cast<size_t>(cout * 9 * cin);
  m.tensors = {Activation({1, 4, 4, cin}, kI8, {1.0f}, {0}),
               Constant<int8_t>({cout, 3, 3, cin}, kI8, Fill<int8_t>(filter_n, 1), {1.0f}, {0}),
               Constant<int32_t>({cout}, kI32, Fill<int32_t>(static_cast<size_t>(cout), 0)),
               Activation({1, 2, 2, cout}, kI8, {out_scale}, {0})};
  m.op_inputs = {0, 1, 2};
  m.op_outputs = {3};
  return m;
}

TEST(HostileConv, BaselineRuns) { ExpectRuns(Conv()); }

TEST(HostileConv, LyingOutputShapeIsRejected) {  // old: accepted
  HModel m = Conv();
  m.tensors[3].shape = {1, 4, 4, 2};
  ExpectRejected(m, "CONV_2D: output height x width 4 x 4 differs from the computed 2 x 2");
}

TEST(HostileConv, EmptyInputDepthIsRejected) {  // old: modulo by zero (SIGFPE)
  HModel m = Conv();
  m.tensors[0].shape = {1, 4, 4, 0};
  ExpectRejected(m, "CONV_2D: filter input depth 1 does not divide input depth 0");
}

TEST(HostileConv, AbsurdOutputScaleIsRejected) {  // old: shift exponent 100 (UB)
  ExpectRejected(Conv(1, 2, 1e-30f), "CONV_2D: output (per-channel) multiplier");
}

TEST(HostileConv, OutOfRangeZeroPointIsRejected) {  // old: accepted
  HModel m = Conv();
  m.tensors[0].zero_point = {1000};
  ExpectRejected(m, "CONV_2D: input tensor 't0' zero_point[0] = 1000 is outside [-128, 127]");
}

TEST(HostileConv, WrongPerChannelArraysAreRejected) {
  HModel m = Conv(1, 3);
  m.tensors[1].scale = {1.0f, 1.0f};
  m.tensors[1].zero_point = {0, 0};
  ExpectRejected(
      m, "2 per-channel quantization parameters but dimension 0 has 3 channels" /* model layer */);
  HModel qd = Conv(1, 3);
  qd.tensors[1].scale = {1.0f, 1.0f, 1.0f};
  qd.tensors[1].zero_point = {0, 0, 0};
  qd.tensors[1].quantized_dimension = 7;
  ExpectRejected(qd, "filter tensor 't1' has quantized_dimension 7 outside its rank 4");
}

TEST(HostileConv, ExtremeBiasWraps) {  // old: x * 2^shift overflow in the requantizer (UB)
  HModel m = Conv(1, 2, 0.25f);        // multiplier 4: left shift 3
  m.tensors[2] =
      Constant<int32_t>({2}, kI32, Fill<int32_t>(2, std::numeric_limits<int32_t>::max()));
  ExpectRuns(m);
}

TEST(HostileConv, Int16ExtremeInt64BiasWraps) {  // old: int64 accumulator overflow (UB)
  HModel m = Conv();
  m.tensors[0].type = kI16;
  m.tensors[3].type = kI16;
  m.tensors[2] =
      Constant<int64_t>({2}, kI64, Fill<int64_t>(2, std::numeric_limits<int64_t>::max()));
  ExpectRuns(m);
}

TEST(HostileConv, Int16NonZeroZeroPointIsRejected) {  // old: silently ignored
  HModel m = Conv();
  m.tensors[0].type = kI16;
  m.tensors[3].type = kI16;
  m.tensors[0].zero_point = {5};
  ExpectRejected(m, "CONV_2D: input tensor 't0' of type INT16 needs zero point 0, has 5");
}

TEST(HostileConv, OmittedFilterZeroStrideAndConstantOutputAreRejected) {
  HModel omitted = Conv();
  omitted.op_inputs = {0, -1, 2};
  ExpectRejected(omitted, "CONV_2D: input 1 (weights) is omitted but required");
  HModel stride = Conv();
  stride.options.stride_w = 0;
  ExpectRejected(stride, "CONV_2D: stride (w 0, h 1) must be >= 1");
  HModel constant_out = Conv();
  constant_out.tensors[3].data = std::vector<uint8_t>(8, 0);
  ExpectRejected(constant_out, "CONV_2D: output tensor 't3' is a constant");
}

// ---------------------------------------------------------------- DEPTHWISE

// int8 depthwise: input [1, 4, 4, 2], filter [1, 3, 3, 2], VALID -> [1, 2, 2, 2].
HModel Depthwise(float out_scale = 1.0f) {
  HModel m = Conv(2, 2, out_scale);
  m.builtin_code = 4;
  m.options.kind = Kind::kDepthwise;
  m.tensors[1] = Constant<int8_t>({1, 3, 3, 2}, kI8, Fill<int8_t>(18, 1), {1.0f}, {0});
  return m;
}

TEST(HostileDepthwise, BaselineRuns) { ExpectRuns(Depthwise()); }

TEST(HostileDepthwise, LyingOutputShapeIsRejected) {  // old: accepted
  HModel m = Depthwise();
  m.tensors[3].shape = {1, 3, 3, 2};
  ExpectRejected(m, "DEPTHWISE_CONV_2D: output height x width 3 x 3 differs from the computed");
}

TEST(HostileDepthwise, FilterWithoutBatchIsRejected) {  // old: read 18 values from 0
  HModel m = Depthwise();
  m.tensors[1] = Activation({0, 3, 3, 2}, kI8, {1.0f}, {0});
  // An empty filter is refused first (conv_common.cc: RequireConvShapes).
  ExpectRejected(m, "DEPTHWISE_CONV_2D: filter has no elements (shape 0x3x3x2)");
  HModel two = Depthwise();
  two.tensors[1] = Activation({2, 3, 3, 2}, kI8, {1.0f}, {0});
  ExpectRejected(two, "DEPTHWISE_CONV_2D: filter 't1' batch dimension is 2, expected 1");
}

TEST(HostileDepthwise, AbsurdScalesAreRejected) {  // old: shift exponent 100 (UB)
  ExpectRejected(Depthwise(1e-30f), "DEPTHWISE_CONV_2D: output (per-channel) multiplier");
  HModel neg = Depthwise();
  neg.tensors[1].scale = {-1.0f};
  ExpectRejected(neg, "DEPTHWISE_CONV_2D: filter tensor 't1' scale[0] = -1 must be finite");
}

// ---------------------------------------------------------------- FULLY_CONNECTED

// int8 FC: input [1, 4], weights [3, 4], bias [3] -> [1, 3].
HModel FullyConnected(float out_scale = 1.0f) {
  HModel m;
  m.builtin_code = 9;
  m.options.kind = Kind::kFc;
  m.tensors = {Activation({1, 4}, kI8, {1.0f}, {0}),
               Constant<int8_t>({3, 4}, kI8, Fill<int8_t>(12, 1), {1.0f}, {0}),
               Constant<int32_t>({3}, kI32, Fill<int32_t>(3, 0), {1.0f}, {0}),
               Activation({1, 3}, kI8, {out_scale}, {0})};
  m.op_inputs = {0, 1, 2};
  m.op_outputs = {3};
  return m;
}

TEST(HostileFullyConnected, BaselineRuns) { ExpectRuns(FullyConnected()); }

TEST(HostileFullyConnected, WeightsWithAZeroLeadingExtentAreRejected) {  // old: read 12 of 0
  HModel m = FullyConnected();
  m.tensors[1] = Activation({0, 3, 4}, kI8, {1.0f}, {0});
  ExpectRejected(m, "FULLY_CONNECTED: weights 't1' have 0 elements, expected units 3 x depth 4");
}

TEST(HostileFullyConnected, ShapeMismatchesAreRejected) {
  HModel depth = FullyConnected();
  depth.tensors[0].shape = {1, 5};
  ExpectRejected(depth, "FULLY_CONNECTED: input 't0' has 5 elements, expected 1 batches x 4");
  HModel units = FullyConnected();
  units.tensors[3].shape = {1, 2};
  ExpectRejected(units, "FULLY_CONNECTED: output 't3' last dimension 2 differs");
}

TEST(HostileFullyConnected, AbsurdScaleIsRejected) {  // old: shift exponent 100 (UB)
  HModel m = FullyConnected(1e-30f);
  m.op_inputs = {0, 1, -1};  // no bias: its scale check would fire first
  ExpectRejected(m, "FULLY_CONNECTED: output multiplier");
}

TEST(HostileFullyConnected, OutOfRangeOutputZeroPointIsRejected) {  // old: accepted
  HModel m = FullyConnected();
  m.tensors[3].zero_point = {-129};
  ExpectRejected(m, "FULLY_CONNECTED: output tensor 't3' zero_point[0] = -129 is outside");
}

TEST(HostileFullyConnected, ExtremeBiasWraps) {  // old: x * 2^shift overflow (UB)
  HModel m = FullyConnected(0.25f);
  m.tensors[2] = Constant<int32_t>({3}, kI32, Fill<int32_t>(3, std::numeric_limits<int32_t>::max()),
                                   {1.0f}, {0});
  ExpectRuns(m);
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
