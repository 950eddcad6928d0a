// LOGISTIC / TANH: hand-checked fixed-point functions (gemmlowp's exp on
// negative values, logistic and tanh against their real values and
// symmetries), the int8 / int16 saturation and midpoints, the quantization
// rules of prepare, persistent bytes equal to TFLM's. Parity with the real
// TFLM on every int8 and int16 value: tests_py/test_kernel_logistic_tanh.py.
#include "tflm_arena/runtime/kernels/sigmoid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr double kQ31 = 2147483648.0;

model::TensorInfo Quantized(TensorType type, float* scale, int64_t* zp) {
  model::TensorInfo t;
  t.type = type;
  t.scale = Span<const float>(scale, 1);
  t.zero_point = Span<const int64_t>(zp, 1);
  return t;
}

TEST(SigmoidFixedPoint, ExpOnNegativeValuesMatchesExp) {
  EXPECT_EQ(FixedPointExpOnNegativeValues(0, 4), std::numeric_limits<int32_t>::max());
  for (double x : {-0.1, -1.0, -2.5, -7.75}) {
    const int32_t a = static_cast<int32_t>(std::lround(x * (1 << 27)));  // Q4.27
    EXPECT_NEAR(FixedPointExpOnNegativeValues(a, 4) / kQ31, std::exp(x), 2e-7) << x;
  }
}

TEST(SigmoidFixedPoint, LogisticAndTanhMatchTheirRealValuesAndSymmetries) {
  EXPECT_EQ(FixedPointLogistic(0, 4), 1 << 30);
  EXPECT_EQ(FixedPointTanh(0, 4), 0);
  for (double x : {0.3, 1.0, 3.0, 7.5}) {
    const int32_t a = static_cast<int32_t>(std::lround(x * (1 << 27)));
    EXPECT_NEAR(FixedPointLogistic(a, 4) / kQ31, 1.0 / (1.0 + std::exp(-x)), 1e-6) << x;
    EXPECT_NEAR(FixedPointTanh(a, 4) / kQ31, std::tanh(x), 1e-6) << x;
    EXPECT_EQ(FixedPointLogistic(a, 4) + FixedPointLogistic(-a, 4),
              std::numeric_limits<int32_t>::max());
    EXPECT_EQ(FixedPointTanh(-a, 4), -FixedPointTanh(a, 4));
  }
}

TEST(SigmoidInt8, MidpointsAndSaturation) {
  float s_in = 0.05f, s_log = 1.0f / 256, s_tanh = 1.0f / 128;
  int64_t zp_in = -3, zp_log = -128, zp_tanh = 0;
  SigmoidOpData d;
  ASSERT_TRUE(PrepareSigmoid("LOGISTIC", SigmoidKind::kLogistic,
                             Quantized(TensorType::kInt8, &s_in, &zp_in),
                             Quantized(TensorType::kInt8, &s_log, &zp_log), &d)
                  .ok());
  EXPECT_GT(d.input_range_radius, 0);
  const int8_t in[] = {-3, 127, -128};
  int8_t out[3];
  LogisticInt8(d, 3, in, out);
  EXPECT_EQ(out[0], 0);     // sigmoid(0) = 0.5 -> -128 + 128
  EXPECT_EQ(out[1], 127);   // 6.5 -> 0.9985 * 256 - 128 = 127.6, clamped
  EXPECT_EQ(out[2], -128);  // -6.25 -> 0.0019 * 256 = 0.49 rounds to 0
  ASSERT_TRUE(PrepareSigmoid("TANH", SigmoidKind::kTanh,
                             Quantized(TensorType::kInt8, &s_in, &zp_in),
                             Quantized(TensorType::kInt8, &s_tanh, &zp_tanh), &d)
                  .ok());
  TanhInt8(d, 3, in, out);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 127);
  EXPECT_EQ(out[2], -128);
}

TEST(SigmoidInt16, TableEndsAndSymmetry) {
  float s_in = 1.0f / 4096, s_out = 1.0f / 32768;
  int64_t zp = 0;
  SigmoidOpData d;
  ASSERT_TRUE(PrepareSigmoid("LOGISTIC", SigmoidKind::kLogistic,
                             Quantized(TensorType::kInt16, &s_in, &zp),
                             Quantized(TensorType::kInt16, &s_out, &zp), &d)
                  .ok());
  EXPECT_EQ(d.input_multiplier, 0);  // power-of-two scale 2^-12
  const int16_t in[] = {0, 32767, -32768};
  int16_t out[3];
  LogisticInt16(d, 3, in, out);
  EXPECT_EQ(out[0], 16384);  // 0.5 in Q15
  EXPECT_EQ(out[1], 32757);  // sigmoid(8) = 0.99966
  EXPECT_EQ(out[2], 11);     // sigmoid(-8) = 0.00034
  TanhInt16(d, 3, in, out);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 32767);   // tanh(8) saturates the table
  EXPECT_EQ(out[2], -32767);  // symmetric: never -32768
}

TEST(SigmoidPrepare, RefusesWhatTflmRefusesOrCannotCompute) {
  float s = 0.001f, s_bad_out = 0.001f, s_out = 1.0f / 32768, s_huge = 5.0f;
  int64_t zp = 0, zp2 = 2;
  SigmoidOpData d;
  EXPECT_FALSE(PrepareSigmoid("TANH", SigmoidKind::kTanh, Quantized(TensorType::kInt16, &s, &zp),
                              Quantized(TensorType::kInt16, &s_bad_out, &zp), &d)
                   .ok());
  EXPECT_FALSE(PrepareSigmoid("TANH", SigmoidKind::kTanh, Quantized(TensorType::kInt16, &s, &zp2),
                              Quantized(TensorType::kInt16, &s_out, &zp), &d)
                   .ok());
  EXPECT_FALSE(PrepareSigmoid("TANH", SigmoidKind::kTanh,
                              Quantized(TensorType::kInt16, &s_huge, &zp),
                              Quantized(TensorType::kInt16, &s_out, &zp), &d)
                   .ok());
  // LOGISTIC int8 wants the output zero point -128.
  EXPECT_FALSE(PrepareSigmoid("LOGISTIC", SigmoidKind::kLogistic,
                              Quantized(TensorType::kInt8, &s, &zp),
                              Quantized(TensorType::kInt8, &s_out, &zp), &d)
                   .ok());
}

TEST(SigmoidPersistent, OpDataIsTflms16Bytes) {
  EXPECT_EQ(kSigmoidPersistentBytes, 16u);
  EXPECT_EQ(Register_LOGISTIC().builtin_code, model::kBuiltinLogistic);
  EXPECT_EQ(Register_TANH().builtin_code, model::kBuiltinTanh);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
