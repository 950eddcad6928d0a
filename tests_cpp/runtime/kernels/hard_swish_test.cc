// HARD_SWISH: hand-checked math (float formula, the int8 path at its
// anchors, gemmlowp's 16-bit rounding shift incl. the truncated mask past
// 15 bits), prepare's refusal, persistent bytes equal to TFLM's. Parity with
// the real TFLM on every int8 value: tests_py/test_kernel_hard_swish.py.
#include "tflm_arena/runtime/kernels/hard_swish.h"

#include <gtest/gtest.h>

#include <cstdint>

#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

TEST(HardSwishMath, Float) {
  const float in[] = {-4.0f, -3.0f, -1.5f, 0.0f, 1.5f, 3.0f, 5.0f};
  float out[7];
  HardSwishFloat(7, in, out);
  EXPECT_EQ(out[0], 0.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_EQ(out[2], -0.375f);
  EXPECT_EQ(out[3], 0.0f);
  EXPECT_EQ(out[4], 1.125f);
  EXPECT_EQ(out[5], 3.0f);
  EXPECT_EQ(out[6], 5.0f);
}

TEST(HardSwishMath, RoundingDivideByPOT16) {
  EXPECT_EQ(RoundingDivideByPOT16(5, 1), 3);    // 2.5 -> 3
  EXPECT_EQ(RoundingDivideByPOT16(-5, 1), -3);  // -2.5 -> -3
  EXPECT_EQ(RoundingDivideByPOT16(100, 0), 100);
  // Past 15 bits the 16-bit mask is all ones: >= 0 gives 1, < 0 gives -1.
  EXPECT_EQ(RoundingDivideByPOT16(0, 18), 1);
  EXPECT_EQ(RoundingDivideByPOT16(7, 20), 1);
  EXPECT_EQ(RoundingDivideByPOT16(-7, 20), -1);
}

TEST(HardSwishMath, Int8Anchors) {
  // Scale 0.05 both sides, zero points 0: x = 0 -> 0, x = 3 (60) -> 3 (60),
  // x = -3 (-60) -> 0, x = 6 (120) -> 6 (120).
  HardSwishOpData d;
  ASSERT_TRUE(PrepareHardSwishInt8(0.05f, 0, 0.05f, 0, &d).ok());
  const int8_t in[] = {0, 60, -60, 120, -128};
  int8_t out[5];
  HardSwishInt8(d, 5, in, out);
  EXPECT_EQ(out[0], 0);
  EXPECT_EQ(out[1], 60);
  EXPECT_EQ(out[2], 0);
  EXPECT_EQ(out[3], 120);
  EXPECT_EQ(out[4], 0);
}

TEST(HardSwishMath, RefusesAPositiveOutputExponent) {
  HardSwishOpData d;
  EXPECT_FALSE(PrepareHardSwishInt8(1.0f, 0, 0.001f, 0, &d).ok());
}

TEST(HardSwishPersistent, OpDataIsTflms20Bytes) {
  EXPECT_EQ(kHardSwishPersistentBytes, 20u);
  EXPECT_EQ(Register_HARD_SWISH().builtin_code, model::kBuiltinHardSwish);
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
