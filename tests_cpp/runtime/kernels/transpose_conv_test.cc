// TRANSPOSE_CONV: hand-checked prepare logic and scatter math for float32,
// int8 and int16 (INT64 bias), the prepare's refusals, TFLM's OpData size
// and the options parser. Bit-exactness against the real TFLM over many
// shapes is tests_py/test_kernel_transpose_conv.py (the golden pipeline
// takes at most three operands; this operator has four).
#include "tflm_arena/runtime/kernels/transpose_conv.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

TransposeConvOptions Options(int32_t stride, model::Padding padding,
                             model::Activation act = model::Activation::kNone) {
  TransposeConvOptions o;
  o.stride_w = o.stride_h = stride;
  o.padding = padding;
  o.activation = act;
  return o;
}

TEST(TransposeConvMath, FloatStride2ValidSpreadsEachInputOverItsBlock) {
  // 2x2 input, 2x2 all-ones filter, stride 2, VALID: every input pixel lands
  // in its own 2x2 block of the 4x4 output; + bias 0.5.
  TestTensor in(TensorType::kFloat32, {1, 2, 2, 1}), f(TensorType::kFloat32, {1, 2, 2, 1});
  TestTensor b(TensorType::kFloat32, {1}), out(TensorType::kFloat32, {1, 4, 4, 1});
  ConvParams p;
  ASSERT_TRUE(PrepareTransposeConv(Options(2, model::Padding::kValid), in.info, f.info, &b.info,
                                   out.info, &p)
                  .ok());
  EXPECT_EQ(p.padding_height, 0);
  const float x[] = {1, 2, 3, 4}, w[] = {1, 1, 1, 1}, bias[] = {0.5f};
  float y[16];
  TransposeConvFloat(p, {1, 2, 2, 1}, x, {1, 2, 2, 1}, w, bias, {1, 4, 4, 1}, y);
  const float want[16] = {1.5f, 1.5f, 2.5f, 2.5f, 1.5f, 1.5f, 2.5f, 2.5f,
                          3.5f, 3.5f, 4.5f, 4.5f, 3.5f, 3.5f, 4.5f, 4.5f};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(y[i], want[i]) << i;
}

TEST(TransposeConvMath, FloatStride1OverlapsAndClipsAtTheOutputEdge) {
  // Stride 1, SAME, 2x2 output: out(y, x) sums in(iy, ix) with iy <= y,
  // ix <= x; taps past the output are dropped. RELU6 clamps 10 to 6.
  TestTensor in(TensorType::kFloat32, {1, 2, 2, 1}), f(TensorType::kFloat32, {1, 2, 2, 1});
  TestTensor out(TensorType::kFloat32, {1, 2, 2, 1});
  ConvParams p;
  ASSERT_TRUE(PrepareTransposeConv(Options(1, model::Padding::kSame, model::Activation::kRelu6),
                                   in.info, f.info, nullptr, out.info, &p)
                  .ok());
  const float x[] = {1, 2, 3, 4}, w[] = {1, 1, 1, 1};
  float y[4];
  TransposeConvFloat(p, {1, 2, 2, 1}, x, {1, 2, 2, 1}, w, nullptr, {1, 2, 2, 1}, y);
  EXPECT_EQ(y[0], 1.0f);
  EXPECT_EQ(y[1], 3.0f);
  EXPECT_EQ(y[2], 4.0f);
  EXPECT_EQ(y[3], 6.0f);  // 10, clamped
}

TEST(TransposeConvMath, Int8SubtractsTheInputZeroPointAndRequantizes) {
  // Input scale 1, zero point 1; filter scale 1; output scale 2, zero point
  // -1: multiplier 0.5. Same geometry as above: sums 1, 3, 4, 10 (+ bias 2).
  TestTensor in(TensorType::kInt8, {1, 2, 2, 1}, {1.0f}, {1});
  TestTensor f(TensorType::kInt8, {1, 2, 2, 1}, {1.0f});
  TestTensor b(TensorType::kInt32, {1}, {1.0f});
  TestTensor out(TensorType::kInt8, {1, 2, 2, 1}, {2.0f}, {-1});
  ConvParams p;
  ASSERT_TRUE(PrepareTransposeConv(Options(1, model::Padding::kSame), in.info, f.info, &b.info,
                                   out.info, &p)
                  .ok());
  int32_t m = 0, s = 0;
  PerChannelMultipliers(1.0f, f.info.scale, 2.0f, 1, &m, &s);
  const int8_t x[] = {2, 3, 4, 5}, w[] = {1, 1, 1, 1};
  const int32_t bias[] = {2};
  int8_t y[4];
  int32_t scratch[4];
  TransposeConvInt8(p, &m, &s, {1, 2, 2, 1}, x, {1, 2, 2, 1}, w, bias, {1, 2, 2, 1}, y, scratch);
  EXPECT_EQ(y[0], 1);  // (1 + 2) / 2 = 1.5 -> 2 (ties away from 0), - 1
  EXPECT_EQ(y[1], 2);  // (3 + 2) / 2 = 2.5 -> 3, - 1
  EXPECT_EQ(y[2], 2);  // 6 / 2 = 3, - 1
  EXPECT_EQ(y[3], 5);  // 12 / 2 = 6, - 1
}

TEST(TransposeConvMath, Int16AccumulatesIn64BitsWithAnInt64Bias) {
  // One input pixel 30000 times filter 100 into two channels: 3e6 each, plus
  // a bias of 2^33 on channel 1 that only an int64 accumulator holds; then
  // x (1 / 2^20) with the 64-bit requantization and the int16 clamp.
  TestTensor in(TensorType::kInt16, {1, 1, 1, 1}, {1.0f});
  TestTensor f(TensorType::kInt8, {2, 1, 1, 1}, {1.0f});
  TestTensor b(TensorType::kInt64, {2}, {1.0f});
  TestTensor out(TensorType::kInt16, {1, 1, 1, 2}, {1048576.0f});
  ConvParams p;
  ASSERT_TRUE(PrepareTransposeConv(Options(1, model::Padding::kValid), in.info, f.info, &b.info,
                                   out.info, &p)
                  .ok());
  int32_t m[2], s[2];
  PerChannelMultipliers(1.0f, f.info.scale, 1048576.0f, 2, m, s);
  const int16_t x[] = {30000};
  const int8_t w[] = {100, 100};
  const int64_t bias[] = {0, int64_t{1} << 33};
  int16_t y[2];
  int64_t scratch[2];
  TransposeConvInt16(p, m, s, {1, 1, 1, 1}, x, {2, 1, 1, 1}, w, bias, {1, 1, 1, 2}, y, scratch);
  EXPECT_EQ(y[0], 3);     // 3e6 / 2^20 = 2.86 -> 3
  EXPECT_EQ(y[1], 8195);  // (2^33 + 3e6) / 2^20 = 8194.86 -> 8195
}

TEST(TransposeConvPrepare, RefusesMismatchedShapesTypesAndStrides) {
  TestTensor in(TensorType::kInt8, {1, 2, 2, 3}, {1.0f}),
      f(TensorType::kInt8, {4, 2, 2, 3}, {1.0f});
  TestTensor out(TensorType::kInt8, {1, 4, 4, 4}, {1.0f});
  TestTensor out_bad(TensorType::kInt8, {1, 4, 4, 5}, {1.0f});
  TestTensor f_bad(TensorType::kInt8, {4, 2, 2, 2}, {1.0f});
  ConvParams p;
  const auto o = Options(2, model::Padding::kSame);
  EXPECT_TRUE(PrepareTransposeConv(o, in.info, f.info, nullptr, out.info, &p).ok());
  EXPECT_EQ(PrepareTransposeConv(o, in.info, f.info, nullptr, out_bad.info, &p).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(PrepareTransposeConv(o, in.info, f_bad.info, nullptr, out.info, &p).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(PrepareTransposeConv(Options(0, model::Padding::kSame), in.info, f.info, nullptr,
                                 out.info, &p)
                .code(),
            StatusCode::kInvalidArgument);
  TestTensor bias32(TensorType::kInt32, {4}, {1.0f});
  TestTensor in16(TensorType::kInt16, {1, 2, 2, 3}, {1.0f}),
      out16(TensorType::kInt16, {1, 4, 4, 4}, {1.0f});
  // TFLM would read an INT32 bias of the int16 kernel as INT64.
  const Status st = PrepareTransposeConv(o, in16.info, f.info, &bias32.info, out16.info, &p);
  EXPECT_EQ(st.code(), StatusCode::kUnimplemented);
  EXPECT_NE(std::string(st.message()).find("TRANSPOSE_CONV"), std::string::npos);
  TestTensor bias16(TensorType::kInt16, {4}, {1.0f});
  EXPECT_TRUE(PrepareTransposeConv(o, in16.info, f.info, &bias16.info, out16.info, &p).ok());
}

// Fuzzing: an empty filter with one huge extent (8 x 67108867 x 0 x 16)
// made the scatter loops spin for hours; now refused in prepare.
TEST(TransposeConvPrepare, RefusesAnEmptyFilter) {
  TestTensor in(TensorType::kInt8, {1, 2, 2, 3}, {1.0f});
  TestTensor f(TensorType::kInt8, {4, 67108867, 0, 3}, {1.0f});
  TestTensor out(TensorType::kInt8, {1, 4, 4, 4}, {1.0f});
  ConvParams p;
  const Status st = PrepareTransposeConv(Options(2, model::Padding::kSame), in.info, f.info,
                                         nullptr, out.info, &p);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(st.message(), "TRANSPOSE_CONV: filter has no elements (shape 4x67108867x0x3)");
}

TEST(TransposeConvPersistent, OpDataIsTflms88BytesAndOptionsParse) {
  EXPECT_EQ(sizeof(TransposeConvOpData), sizeof(void*) == 8 ? 88u : sizeof(TransposeConvOpData));
  EXPECT_EQ(Register_TRANSPOSE_CONV().builtin_code, model::kBuiltinTransposeConv);
  EXPECT_EQ(Register_TRANSPOSE_CONV().options.table_type, 49);  // TransposeConvOptions
  OptionsTableBuilder t;
  t.Add<uint8_t>(0, 1).Add<int32_t>(1, 3).Add<int32_t>(2, 2).Add<uint8_t>(3, 3).Add<int8_t>(4, 4);
  model::OptionsTable table = t.Build(49);
  TransposeConvOptions o;
  ASSERT_TRUE(Parse(Register_TRANSPOSE_CONV(), table, &o).ok());
  EXPECT_EQ(o.padding, model::Padding::kValid);
  EXPECT_EQ(o.stride_w, 3);
  EXPECT_EQ(o.stride_h, 2);
  EXPECT_EQ(o.activation, model::Activation::kRelu6);
  EXPECT_EQ(o.quantized_bias_type, 4);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
