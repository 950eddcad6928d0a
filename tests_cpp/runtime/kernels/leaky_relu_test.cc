// LEAKY_RELU: hand-checked math, golden vectors from the real TFLM (int8 /
// int16 bit for bit, float within 1e-5 relative, persistent bytes equal to
// TFLM's) and the kernel's options parser.
#include "tflm_arena/runtime/kernels/leaky_relu.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "golden/leaky_relu_golden.h"
#include "kernel_test_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
using namespace kernel_testing;  // NOLINT: the shared test helpers

TEST(LeakyReluMath, FloatKeepsPositivesAndScalesTheRest) {
  const float in[] = {2.0f, 0.0f, -0.0f, -4.0f, -1.0f};
  float out[5];
  LeakyReluFloat(0.25f, 5, in, out);
  EXPECT_EQ(out[0], 2.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[3], -1.0f);
  EXPECT_EQ(out[4], -0.25f);
  LeakyReluFloat(-2.0f, 5, in, out);  // a negative alpha flips the sign
  EXPECT_EQ(out[3], 8.0f);
}

TEST(LeakyReluMath, Int8EqualScalesByHand) {
  // Scales 0.5 -> 0.5, zero points 0: identity for x >= 0, x * alpha
  // otherwise, where the saturating doubling high multiply rounds a
  // negative half towards zero (TFLM's fixed-point rule).
  LeakyReluOpData d;
  ASSERT_TRUE(PrepareLeakyReluQuantized(0.5f, 0.5f, 0, 0.5f, 0, &d).ok());
  const int8_t in[] = {100, 0, -1, -3, -128};
  int8_t out[5];
  LeakyReluInt8(d, 5, in, out);
  EXPECT_EQ(out[0], 100);
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[2], 0);   // -0.5 -> 0
  EXPECT_EQ(out[3], -1);  // -1.5 -> -1
  EXPECT_EQ(out[4], -64);
}

TEST(LeakyReluMath, NegativeAlphaNegatesAroundAPositiveMultiply) {
  // alpha -0.5, equal scales: x = -1 gives +0.5. TFLM multiplies by +0.5
  // and negates (-(-0.5 -> 0) = 0); multiplying by the negative multiplier
  // directly would round +0.5 up to 1.
  LeakyReluOpData d;
  ASSERT_TRUE(PrepareLeakyReluQuantized(-0.5f, 0.5f, 0, 0.5f, 0, &d).ok());
  EXPECT_LT(d.output_multiplier_alpha, 0);
  const int8_t in[] = {-1, -3, -4, 5};
  int8_t out[4];
  LeakyReluInt8(d, 4, in, out);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 1);  // 1.5 -> -(-1.5 -> -1)
  EXPECT_EQ(out[2], 2);
  EXPECT_EQ(out[3], 5);
}

TEST(LeakyReluMath, ClampsToTheTypeAndHonoursZeroPoints) {
  // identity 4 (0.2 / 0.05), alpha 0.5: positive inputs saturate.
  LeakyReluOpData d;
  ASSERT_TRUE(PrepareLeakyReluQuantized(0.5f, 0.2f, 10, 0.05f, -20, &d).ok());
  const int16_t in[] = {10, 11, 20000, 9, -32768};
  int16_t out[5];
  LeakyReluInt16(d, 5, in, out);
  EXPECT_EQ(out[0], -20);  // at the zero point: the output zero point
  EXPECT_EQ(out[1], -16);  // +1 step -> +4 steps
  EXPECT_EQ(out[2], std::numeric_limits<int16_t>::max());
  EXPECT_EQ(out[3], -22);  // -1 step -> -4 * 0.5 = -2 steps
  EXPECT_EQ(out[4], std::numeric_limits<int16_t>::min());
}

TEST(LeakyReluMath, RejectsMultipliersOutsideTheFixedPointRange) {
  LeakyReluOpData d;
  // in / out = 2^40: the identity multiplier needs a shift of 41.
  EXPECT_EQ(PrepareLeakyReluQuantized(0.1f, 1.0f, 0, 1.0f / 1099511627776.0f, 0, &d).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(PrepareLeakyReluQuantized(std::numeric_limits<float>::infinity(), 1.0f, 0, 1.0f, 0, &d)
                .code(),
            StatusCode::kInvalidArgument);
}

TEST(LeakyReluPersistent, OpDataIsTflms24Bytes) {
  EXPECT_EQ(kLeakyReluPersistentBytes, 24u);
  EXPECT_EQ(Register_LEAKY_RELU().builtin_code, model::kBuiltinLeakyRelu);
}

// --- golden vectors from TFLM (golden/leaky_relu_cases.py) ----------------------

using LeakyReluGolden = GoldenTest;

TEST_P(LeakyReluGolden, MatchesTflm) {
  const golden::Case& c = GetParam();
  ExpectPersistent(kLeakyReluPersistentBytes, c);
  const float alpha = c.options.alpha;
  const size_t n = Count(c.output);
  if (Is(c.input, TensorType::kFloat32)) {
    std::vector<float> out(n);
    LeakyReluFloat(alpha, n, DataOf<float>(c.input), out.data());
    return ExpectMatchesTflm(c, out);
  }
  LeakyReluOpData d;
  const Status st = PrepareLeakyReluQuantized(alpha, ScaleOf(c.input), ZeroPointOf(c.input),
                                              ScaleOf(c.output), ZeroPointOf(c.output), &d);
  ASSERT_TRUE(st.ok()) << st.message();
  if (Is(c.input, TensorType::kInt8)) {
    std::vector<int8_t> out(n);
    LeakyReluInt8(d, n, DataOf<int8_t>(c.input), out.data());
    return ExpectMatchesTflm(c, out);
  }
  std::vector<int16_t> out(n);
  LeakyReluInt16(d, n, DataOf<int16_t>(c.input), out.data());
  ExpectMatchesTflm(c, out);
}

INSTANTIATE_TEST_SUITE_P(Tflm, LeakyReluGolden, ::testing::ValuesIn(golden::leaky_relu::kCases),
                         GoldenName);

// --- options parsing (LeakyReluOptions) ------------------------------------------

TEST(LeakyReluOptions, ParsesAlphaAndDefaultsToZero) {
  OptionsTableBuilder full;
  full.Add<float>(0, -0.375f);
  model::OptionsTable table = full.Build(75);
  LeakyReluOptions o;
  ASSERT_TRUE(Parse(Register_LEAKY_RELU(), table, &o).ok());
  EXPECT_EQ(o.alpha, -0.375f);
  OptionsTableBuilder empty;
  model::OptionsTable none = empty.Build(75);
  ASSERT_TRUE(Parse(Register_LEAKY_RELU(), none, &o).ok());
  EXPECT_EQ(o.alpha, 0.0f);
  EXPECT_EQ(Register_LEAKY_RELU().options.table_type, 75);  // LeakyReluOptions
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
