// LinearPlanner and PlanLinear against TFLM's linear_memory_planner_test.cc
// (10(0,1), 20(1,2) -> offsets 0, 10; person detection -> 241027 bytes).
#include "tflm_arena/plan/linear_planner.h"

#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace {

using testing::Rec;

class LinearPlannerTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(planner_.Init(scratch_, sizeof(scratch_)).ok()); }
  alignas(16) uint8_t scratch_[LinearPlanner::kBytesPerBuffer * 64];
  LinearPlanner planner_;
};

TEST_F(LinearPlannerTest, L7Basics) {
  ASSERT_TRUE(planner_.AddBuffer(10, 0, 1).ok());
  ASSERT_TRUE(planner_.AddBuffer(20, 1, 2).ok());
  int offset = -1;
  ASSERT_TRUE(planner_.GetOffsetForBuffer(0, &offset).ok());
  EXPECT_EQ(offset, 0);
  ASSERT_TRUE(planner_.GetOffsetForBuffer(1, &offset).ok());
  EXPECT_EQ(offset, 10);
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 30);
  EXPECT_TRUE(planner_.preserves_all_tensors());
}

TEST_F(LinearPlannerTest, L7OutOfRangeIndex) {
  ASSERT_TRUE(planner_.AddBuffer(10, 0, 1).ok());
  int offset = 0;
  Status s = planner_.GetOffsetForBuffer(1, &offset);
  EXPECT_EQ(s.code(), StatusCode::kOutOfRange);
  EXPECT_STREQ(s.message(), "buffer index 1 is outside range 0 to 1");
}

TEST_F(LinearPlannerTest, L7PersonDetectionIsTheSum) {
  for (const auto& b : testing::kPersonDetection) {
    ASSERT_TRUE(planner_.AddBuffer(b.size, b.first, b.last).ok());
  }
  EXPECT_EQ(planner_.GetMaximumMemorySize(), testing::kPersonDetectionLinearMax);
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 241027);
}

TEST_F(LinearPlannerTest, L4FixedOffsetsAreRejected) {
  Status s = planner_.AddBuffer(10, 0, 1, 0);
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_STREQ(s.message(), "buffer 0: the linear planner does not support fixed offsets (got 0)");
  MemoryPlanner* base = &planner_;
  EXPECT_FALSE(base->AddBuffer(10, 0, 1, -1).ok());
  EXPECT_EQ(planner_.GetBufferCount(), 0);
}

TEST(LinearPlannerScratchTest, CapacityAndOverflow) {
  alignas(16) uint8_t scratch[8];
  LinearPlanner planner;
  ASSERT_TRUE(planner.Init(scratch, sizeof(scratch)).ok());
  EXPECT_EQ(planner.max_buffer_count(), 2);
  ASSERT_TRUE(planner.AddBuffer(0x7ffffff0, 0, 0).ok());
  Status s = planner.AddBuffer(0x10, 0, 0);
  EXPECT_STREQ(s.message(), "buffer 1: total size 2147483648 does not fit in int32");
  ASSERT_TRUE(planner.AddBuffer(0xf, 0, 0).ok());
  s = planner.AddBuffer(1, 0, 0);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_STREQ(s.message(), "Too many buffers (max is 2)");
}

TEST_F(LinearPlannerTest, RejectsBadBuffers) {
  EXPECT_STREQ(planner_.AddBuffer(-1, 0, 1).message(), "buffer 0: size -1 is negative");
  EXPECT_STREQ(planner_.AddBuffer(1, 2, 1).message(),
               "buffer 0: first_step 2 is after last_step 1");
}

TEST(PlanLinearTest, MatchesRuntimePlanner) {
  PlanResult plan;
  const auto records = testing::PersonDetectionRecords();
  ASSERT_TRUE(PlanLinear(records, &plan).ok());
  EXPECT_EQ(plan.arena_bytes, 241027);
  ASSERT_EQ(plan.offsets.size(), 30u);
  int64_t sum = 0;
  for (int i = 0; i < 30; ++i) {
    EXPECT_EQ(plan.offsets[i], sum);
    sum += testing::kPersonDetection[i].size;
  }
  EXPECT_TRUE(ValidatePlan(records, plan.offsets, plan.arena_bytes).ok());
}

TEST(PlanLinearTest, Errors) {
  PlanResult plan;
  std::vector<UsageRecord> fixed = {Rec(10, 0, 1), Rec(10, 0, 1, 32)};
  Status s = PlanLinear(fixed, &plan);
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_STREQ(s.message(), "buffer 1: the linear planner does not support fixed offsets (got 32)");
  EXPECT_TRUE(plan.offsets.empty());
  std::vector<UsageRecord> big = {Rec(0x7fffffff, 0, 1), Rec(1, 0, 1)};
  EXPECT_STREQ(PlanLinear(big, &plan).message(),
               "buffer 1: total size 2147483648 does not fit in int32");
  std::vector<UsageRecord> huge = {Rec(int64_t{1} << 40, 0, 1)};
  EXPECT_STREQ(PlanLinear(huge, &plan).message(),
               "buffer 0: size 1099511627776 does not fit in int32 (TFLM planners use int)");
  std::vector<UsageRecord> negative = {Rec(-3, 0, 1)};
  EXPECT_STREQ(PlanLinear(negative, &plan).message(), "buffer 0: size -3 is negative");
  ASSERT_TRUE(PlanLinear({}, &plan).ok());
  EXPECT_EQ(plan.arena_bytes, 0);
}

}  // namespace
}  // namespace tflm_arena
