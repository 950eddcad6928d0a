// MAXIMUM / MINIMUM: hand-checked math (TFLM's comparison order with NaN,
// broadcasting, int64), no persistent memory, no options. Parity with the
// real TFLM: tests_py/test_kernel_binary_elementwise.py.
#include "tflm_arena/runtime/kernels/maximum_minimum.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;

TEST(MaximumMinimumMath, FloatNanFollowsTheComparison) {
  const float a[] = {1.0f, NAN, 3.0f};
  const float b[] = {2.0f, 5.0f, NAN};
  float out[3];
  BroadcastDims unused{};
  MaximumMinimum(true, TensorType::kFloat32, false, unused, 3, a, b, out);
  EXPECT_EQ(out[0], 2.0f);
  EXPECT_EQ(out[1], 5.0f);          // NaN > 5 is false: the second
  EXPECT_TRUE(std::isnan(out[2]));  // 3 > NaN is false: the second
  MaximumMinimum(false, TensorType::kFloat32, false, unused, 3, a, b, out);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 5.0f);
  EXPECT_TRUE(std::isnan(out[2]));
}

TEST(MaximumMinimumMath, Int64Broadcast) {
  const int32_t s1[] = {2, 1}, s2[] = {3}, so[] = {2, 3};
  BroadcastDims dims;
  ASSERT_TRUE(BinaryBroadcastDims("MAXIMUM", Span<const int32_t>(s1, 2), Span<const int32_t>(s2, 1),
                                  Span<const int32_t>(so, 2), &dims)
                  .ok());
  const int64_t a[] = {int64_t{1} << 40, -5};
  const int64_t b[] = {0, -7, int64_t{1} << 41};
  int64_t out[6];
  MaximumMinimum(true, TensorType::kInt64, true, dims, 6, a, b, out);
  const int64_t want[] = {int64_t{1} << 40, int64_t{1} << 40, int64_t{1} << 41, 0, -5,
                          int64_t{1} << 41};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(out[i], want[i]) << i;
}

TEST(MaximumMinimumRegistration, NoInitNoOptions) {
  EXPECT_EQ(Register_MAXIMUM().init, nullptr);
  EXPECT_EQ(Register_MINIMUM().init, nullptr);
  EXPECT_EQ(Register_MAXIMUM().options.parse, nullptr);
  EXPECT_EQ(Register_MAXIMUM().builtin_code, model::kBuiltinMaximum);
  EXPECT_EQ(Register_MINIMUM().builtin_code, model::kBuiltinMinimum);
  EXPECT_FALSE(MaximumMinimumSupports(TensorType::kUint8));
}

}  // namespace
}  // namespace runtime
}  // namespace tflm_arena
