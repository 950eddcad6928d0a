// reverse_linear through the registry: the last buffer at 0, each earlier one
// above the next.
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/strategies.h"

namespace tflm_arena {
namespace {

using testing::Rec;

TEST(ReverseLinearTest, LastBufferAtZero) {
  const StrategyInfo* s = FindStrategy("reverse_linear");
  ASSERT_NE(s, nullptr);
  const std::vector<UsageRecord> r = {Rec(32, 0, 1), Rec(16, 1, 2), Rec(48, 2, 3)};
  PlanResult out;
  ASSERT_TRUE(s->plan(Span<const UsageRecord>(r.data(), r.size()), &out, PlanCancel()).ok());
  EXPECT_EQ(out.offsets, (std::vector<ByteOffset>{64, 48, 0}));
  EXPECT_EQ(out.arena_bytes, 96);
}

}  // namespace
}  // namespace tflm_arena
