// PlanReverseLinear: the last buffer at 0, each earlier one above the next.
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace {

using testing::Rec;

TEST(ReverseLinearTest, LastBufferAtZero) {
  const std::vector<UsageRecord> r = {Rec(32, 0, 1), Rec(16, 1, 2), Rec(48, 2, 3)};
  PlanResult out;
  ASSERT_TRUE(PlanReverseLinear(Span<const UsageRecord>(r.data(), r.size()), &out).ok());
  EXPECT_EQ(out.offsets, (std::vector<ByteOffset>{64, 48, 0}));
  EXPECT_EQ(out.arena_bytes, 96);
}

}  // namespace
}  // namespace tflm_arena
