// DIV: hand-checked math (int8 quotients through TFLM's reciprocal path,
// including the wheel's behaviour for rounding shifts past 31 bits and our
// choices where TFLM is undefined), persistent bytes equal to TFLM's
// OpDataDiv and the options parser. Parity with the real TFLM:
// tests_py/test_kernel_binary_elementwise.py.
#include "tflm_arena/runtime/kernels/div.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "binary_kernel_golden.h"
#include "golden/div_golden.h"
#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

model::TensorInfo Quantized(float* scale, int64_t* zp) {
  model::TensorInfo t;
  t.type = TensorType::kInt8;
  t.scale = Span<const float>(scale, 1);
  t.zero_point = Span<const int64_t>(zp, 1);
  return t;
}

DivOpData Int8Data(float s1, float s2, float so) {
  float scales[3] = {s1, s2, so};
  int64_t zps[3] = {0, 0, 0};
  DivOpData d;
  EXPECT_TRUE(PrepareDiv(DivOptions(), Quantized(&scales[0], &zps[0]),
                         Quantized(&scales[1], &zps[1]), Quantized(&scales[2], &zps[2]), &d)
                  .ok());
  return d;
}

TEST(DivMath, Int8QuotientsRoundToNearest) {
  // Ratio 0.05 / (0.05 * 0.05) = 20: out = round(20 * a / b).
  const DivOpData d = Int8Data(0.05f, 0.05f, 0.05f);
  EXPECT_EQ(DivOneInt8(d, 3, 2), 30);
  EXPECT_EQ(DivOneInt8(d, 1, 3), 7);  // 6.67
  EXPECT_EQ(DivOneInt8(d, -1, 3), -7);
  EXPECT_EQ(DivOneInt8(d, 1, -8), -2);  // -2.5: the two roundings land on -2
  EXPECT_EQ(DivOneInt8(d, 100, 2), 127);
}

TEST(DivMath, Int8ShiftsPast31BitsFollowTheWheel) {
  // 0 / 128 and 1 / 128 at ratio 20 need a rounding shift of 32 / 37
  // bits; TFLM's x86-64 build yields 1 for 0 / 128 (and saturates 1 / -128
  // towards the sign), measured against the wheel.
  const DivOpData d = Int8Data(0.05f, 0.05f, 0.05f);
  EXPECT_EQ(DivOneInt8(d, 0, -128), 1);
  EXPECT_EQ(DivOneInt8(d, -1, -128), 127);
}

TEST(DivMath, Int8DivisorAtItsZeroPointSaturatesBySign) {
  const DivOpData d = Int8Data(0.05f, 0.05f, 0.05f);
  EXPECT_EQ(DivOneInt8(d, 5, 0), 127);
  EXPECT_EQ(DivOneInt8(d, -5, 0), -128);
  EXPECT_EQ(DivOneInt8(d, 0, 0), 0);
}

TEST(DivMath, Int32DefinedWhereTflmIsNot) {
  DivOpData d;
  model::TensorInfo t;
  t.type = TensorType::kInt32;
  ASSERT_TRUE(PrepareDiv(DivOptions(), t, t, t, &d).ok());
  const int32_t a[] = {7, -7, 5, std::numeric_limits<int32_t>::min()};
  const int32_t b[] = {2, 2, 0, -1};
  int32_t out[4];
  BroadcastDims unused{};
  DivInt32(d, false, unused, 4, a, b, out);
  EXPECT_EQ(out[0], 3);
  EXPECT_EQ(out[1], -3);  // truncates towards zero, as C++
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[3], std::numeric_limits<int32_t>::min());
}

TEST(DivMath, FloatIsIeeeThenClamped) {
  const float a[] = {1.0f, 0.0f, -3.0f};
  const float b[] = {0.0f, 0.0f, 2.0f};
  float out[3];
  BroadcastDims unused{};
  DivFloat(model::Activation::kNone, false, unused, 3, a, b, out);
  EXPECT_EQ(out[0], std::numeric_limits<float>::max());  // inf, clamped as TFLM
  EXPECT_TRUE(std::isnan(out[1]));
  EXPECT_EQ(out[2], -1.5f);
}

TEST(DivMath, RefusesHugeScaleRatios) {
  float scales[3] = {1.0f, 1e-4f, 1e-4f};
  int64_t zps[3] = {0, 0, 0};
  DivOpData d;
  EXPECT_EQ(PrepareDiv(DivOptions(), Quantized(&scales[0], &zps[0]), Quantized(&scales[1], &zps[1]),
                       Quantized(&scales[2], &zps[2]), &d)
                .code(),
            StatusCode::kInvalidArgument);
}

TEST(DivPersistent, OpDataIsTflms28Bytes) {
  EXPECT_EQ(kDivPersistentBytes, 28u);
  EXPECT_EQ(Register_DIV().builtin_code, model::kBuiltinDiv);
}

TEST(DivOptions, ParsesActivation) {
  // Table type DivOptions.
  ExpectParsesActivation<DivOptions>(Register_DIV(), 29, model::Activation::kRelu6);
}

// --- golden vectors from TFLM (golden/div_cases.py) ---------------------------

using DivGolden = GoldenTest;

TEST_P(DivGolden, MatchesTflm) {
  using Kernels = BinaryKernels<DivOptions, DivOpData, model::Activation>;
  // DivFloat takes the activation; TFLM has no int16 DIV.
  ExpectBinaryGolden(GetParam(), "DIV", kDivPersistentBytes,
                     Kernels{PrepareDiv, DivInt8, nullptr, DivInt32, DivFloat});
}

INSTANTIATE_TEST_SUITE_P(Tflm, DivGolden, ::testing::ValuesIn(golden::div::kCases), GoldenName);

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
