// GreedyPlanner against TFLM's greedy_memory_planner_test.cc cases and
// results computed with TFLM's own planner code.
#include "tflm_arena/plan/greedy_planner.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "person_detection.h"

namespace tflm_arena {
namespace {

using testing::kPersonDetection;
using testing::kPersonDetectionCount;

class GreedyPlannerTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(planner_.Init(scratch_, sizeof(scratch_)).ok()); }
  std::vector<int> Offsets() {
    std::vector<int> offsets;
    for (int i = 0; i < planner_.GetBufferCount(); ++i) {
      int offset = -7;
      EXPECT_TRUE(planner_.GetOffsetForBuffer(i, &offset).ok());
      offsets.push_back(offset);
    }
    return offsets;
  }
  alignas(16) uint8_t scratch_[GreedyPlanner::kBytesPerBuffer * 64];
  GreedyPlanner planner_;
};

TEST(GreedySortTest, GT1DescendingInputUnchanged) {
  int32_t values[10], ids[10];
  for (int i = 0; i < 10; ++i) values[i] = 10 - i, ids[i] = i;
  plan_internal::SortBySizeDescending(values, ids, 10);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(values[i], 10 - i);
    EXPECT_EQ(ids[i], i);
  }
}

TEST(GreedySortTest, GT1AscendingInputReversed) {
  int32_t values[10], ids[10];
  for (int i = 0; i < 10; ++i) values[i] = i + 1, ids[i] = i;
  plan_internal::SortBySizeDescending(values, ids, 10);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(values[i], 10 - i);
    EXPECT_EQ(ids[i], 9 - i);
  }
}

// TFLM's TestReverseSortInPlace third case feeds its stable sort ids 0..99
// and expects ties in ascending id. Inside the planner the ids arrive
// DESCENDING (greedy_memory_planner.cc, CalculateOffsetsIfNeeded), so the
// stable result is ties in descending id -- which is our total key. Check
// that with the planner's arrival order we get exactly TFLM's stable answer.
TEST(GreedySortTest, GT1RepeatedValuesMatchStableSortOfPlannerOrder) {
  int32_t values[100], ids[100];
  for (int i = 0; i < 100; ++i) ids[i] = 99 - i, values[i] = (ids[i] % 10) + 1;
  plan_internal::SortBySizeDescending(values, ids, 100);
  for (int v = 10; v >= 1; --v) {
    for (int k = 0; k < 10; ++k) {
      const int pos = (10 - v) * 10 + k;
      EXPECT_EQ(values[pos], v);
      EXPECT_EQ(ids[pos], v - 1 + 10 * (9 - k));  // v+89, v+79, ..., v-1
    }
  }
}

TEST(GreedySortTest, MatchesStableSortOnRandomDescendingIdInput) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    const int n = static_cast<int>(rng() % 80);
    std::vector<int32_t> values(n), ids(n);
    std::vector<std::pair<int32_t, int32_t>> expected;
    for (int i = 0; i < n; ++i) {
      ids[i] = n - 1 - i;
      values[i] = static_cast<int32_t>(rng() % 6);
      expected.push_back({values[i], ids[i]});
    }
    std::stable_sort(expected.begin(), expected.end(),
                     [](auto a, auto b) { return a.first > b.first; });
    plan_internal::SortBySizeDescending(values.data(), ids.data(), n);
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(values[i], expected[i].first);
      ASSERT_EQ(ids[i], expected[i].second);
    }
  }
}

TEST_F(GreedyPlannerTest, GT2Basics) {
  ASSERT_TRUE(planner_.AddBuffer(10, 0, 1).ok());
  ASSERT_TRUE(planner_.AddBuffer(20, 2, 3).ok());
  EXPECT_FALSE(planner_.DoAnyBuffersOverlap());
  EXPECT_EQ(Offsets(), (std::vector<int>{0, 0}));
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 20);
}

TEST_F(GreedyPlannerTest, GT3Medium) {
  const int sizes[] = {10, 20, 30, 40, 50};
  const int firsts[] = {0, 1, 2, 3, 0};
  const int lasts[] = {1, 2, 3, 4, 1};
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(planner_.AddBuffer(sizes[i], firsts[i], lasts[i]).ok());
  EXPECT_EQ(Offsets(), (std::vector<int>{50, 70, 40, 0, 0}));
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 90);
  EXPECT_FALSE(planner_.DoAnyBuffersOverlap());
}

TEST_F(GreedyPlannerTest, GT4PersonDetection) {
  for (const auto& b : kPersonDetection)
    ASSERT_TRUE(planner_.AddBuffer(b.size, b.first, b.last).ok());
  EXPECT_FALSE(planner_.DoAnyBuffersOverlap());
  std::vector<int> expected(testing::kPersonDetectionGreedyOffsets,
                            testing::kPersonDetectionGreedyOffsets + kPersonDetectionCount);
  EXPECT_EQ(Offsets(), expected);
  EXPECT_EQ(planner_.GetMaximumMemorySize(), testing::kPersonDetectionGreedyMax);
  EXPECT_LT(planner_.GetMaximumMemorySize(), testing::kPersonDetectionLinearMax);
}

TEST_F(GreedyPlannerTest, GT5OverlapCase) {
  ASSERT_TRUE(planner_.AddBuffer(100, 0, 1).ok());
  ASSERT_TRUE(planner_.AddBuffer(50, 2, 3).ok());
  ASSERT_TRUE(planner_.AddBuffer(20, 1, 2).ok());
  EXPECT_EQ(Offsets(), (std::vector<int>{0, 0, 100}));
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 120);
  EXPECT_FALSE(planner_.DoAnyBuffersOverlap());
}

TEST(GreedyPlannerScratchTest, GT6SmallScratchTakesExactlyOneBuffer) {
  alignas(16) uint8_t scratch[40];
  GreedyPlanner planner;
  ASSERT_TRUE(planner.Init(scratch, sizeof(scratch)).ok());
  EXPECT_EQ(planner.max_buffer_count(), 1);
  EXPECT_TRUE(planner.AddBuffer(100, 0, 1).ok());
  Status s = planner.AddBuffer(100, 1, 2);
  EXPECT_EQ(s.code(), StatusCode::kArenaTooSmall);
  EXPECT_STREQ(s.message(), "Too many buffers (max is 1)");
  EXPECT_EQ(planner.GetBufferCount(), 1);
}

TEST(GreedyPlannerScratchTest, CapacityIsScratchOver40) {
  alignas(16) uint8_t scratch[40 * 5 + 39];
  GreedyPlanner planner;
  ASSERT_TRUE(planner.Init(scratch, sizeof(scratch)).ok());
  EXPECT_EQ(planner.max_buffer_count(), 5);
  ASSERT_TRUE(planner.Init(nullptr, 0).ok());
  EXPECT_EQ(planner.max_buffer_count(), 0);
  EXPECT_EQ(planner.GetMaximumMemorySize(), 0);
  EXPECT_EQ(planner.Init(nullptr, 40).code(), StatusCode::kInvalidArgument);
}

TEST_F(GreedyPlannerTest, GT7TiesGoToHigherIndexFirst) {
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(planner_.AddBuffer(16, 0, 1).ok());
  EXPECT_EQ(Offsets(), (std::vector<int>{32, 16, 0}));
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 48);
}

TEST_F(GreedyPlannerTest, GT8FixedAndOnline) {
  ASSERT_TRUE(planner_.AddBuffer(100, 0, 1, 50).ok());
  ASSERT_TRUE(planner_.AddBuffer(30, 0, 1).ok());
  ASSERT_TRUE(planner_.AddBuffer(40, 0, 1).ok());
  ASSERT_TRUE(planner_.AddBuffer(10, 2, 3).ok());
  EXPECT_EQ(Offsets(), (std::vector<int>{50, 150, 0, 0}));
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 180);
}

TEST_F(GreedyPlannerTest, FixedBuffersMayOverlapEachOther) {
  ASSERT_TRUE(planner_.AddBuffer(100, 0, 1, 0).ok());
  ASSERT_TRUE(planner_.AddBuffer(100, 0, 1, 50).ok());
  EXPECT_EQ(Offsets(), (std::vector<int>{0, 50}));
  EXPECT_TRUE(planner_.DoAnyBuffersOverlap());
}

TEST_F(GreedyPlannerTest, FixedOffsetMinusOneMeansOnline) {
  ASSERT_TRUE(planner_.AddBuffer(10, 0, 1, -1).ok());
  ASSERT_TRUE(planner_.AddBuffer(10, 0, 1, -1).ok());
  EXPECT_EQ(Offsets(), (std::vector<int>{10, 0}));
}

TEST_F(GreedyPlannerTest, PlanIsRecomputedAfterMoreBuffers) {
  ASSERT_TRUE(planner_.AddBuffer(10, 0, 1).ok());
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 10);
  ASSERT_TRUE(planner_.AddBuffer(20, 0, 1).ok());
  EXPECT_EQ(Offsets(), (std::vector<int>{20, 0}));
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 30);
}

TEST_F(GreedyPlannerTest, OutOfRangeIndex) {
  ASSERT_TRUE(planner_.AddBuffer(10, 0, 1).ok());
  int offset = 0;
  Status s = planner_.GetOffsetForBuffer(1, &offset);
  EXPECT_EQ(s.code(), StatusCode::kOutOfRange);
  EXPECT_STREQ(s.message(), "buffer index 1 is outside range 0 to 1");
  EXPECT_EQ(planner_.GetOffsetForBuffer(-1, &offset).code(), StatusCode::kOutOfRange);
}

TEST_F(GreedyPlannerTest, RejectsBadBuffersNamingTheIndex) {
  ASSERT_TRUE(planner_.AddBuffer(10, 0, 1).ok());
  EXPECT_STREQ(planner_.AddBuffer(-5, 0, 1).message(), "buffer 1: size -5 is negative");
  EXPECT_STREQ(planner_.AddBuffer(5, 3, 2).message(),
               "buffer 1: first_step 3 is after last_step 2");
  EXPECT_STREQ(planner_.AddBuffer(5, 0, 1, -2).message(),
               "buffer 1: fixed offset -2 is negative (use -1 to let the planner choose)");
  Status s = planner_.AddBuffer(10, 0, 1, 0x7fffffff - 5);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(),
               "buffer 1: fixed end 2147483652 does not fit in int32 (TFLM planners use int)");
  EXPECT_EQ(planner_.GetBufferCount(), 1);  // rejected buffers are not added
}

TEST_F(GreedyPlannerTest, HugeBuffersAreFineUntilAPlannedEndPassesInt32) {
  // Sizes summing past INT32_MAX are fine when the buffers reuse memory...
  ASSERT_TRUE(planner_.AddBuffer(0x7fffff00, 0, 1).ok());
  ASSERT_TRUE(planner_.AddBuffer(0x7fffff00, 2, 3).ok());
  EXPECT_EQ(Offsets(), (std::vector<int>{0, 0}));
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 0x7fffff00);
  // ... but a buffer that must go above one of them would end past it.
  ASSERT_TRUE(planner_.AddBuffer(0x100, 1, 2).ok());
  int offset = 0;
  Status s = planner_.GetOffsetForBuffer(0, &offset);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(),
               "buffer 2: planned end 2147483648 does not fit in int32 (TFLM planners use int)");
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 0x7fffffff);
  ASSERT_TRUE(planner_.AddBuffer(0, 9, 9).ok());  // still failing after more buffers
  EXPECT_FALSE(planner_.GetOffsetForBuffer(0, &offset).ok());
}

TEST_F(GreedyPlannerTest, ZeroSizeAndMinusOneStepsArePlanned) {
  ASSERT_TRUE(planner_.AddBuffer(0, -1, 0).ok());
  ASSERT_TRUE(planner_.AddBuffer(16, -1, -1).ok());
  ASSERT_TRUE(planner_.AddBuffer(32, -1, 2).ok());
  EXPECT_EQ(Offsets(), (std::vector<int>{0, 32, 0}));
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 48);
}

TEST_F(GreedyPlannerTest, BasicsAndPreservation) {
  EXPECT_FALSE(planner_.preserves_all_tensors());
  EXPECT_EQ(planner_.GetBufferCount(), 0);
  EXPECT_EQ(planner_.GetMaximumMemorySize(), 0);
  EXPECT_FALSE(planner_.DoAnyBuffersOverlap());
}

TEST(GreedyPlannerScratchTest, MisalignedScratchIsAlignedNotMisused) {
  alignas(16) uint8_t scratch[1 + 40 * 2];
  GreedyPlanner planner;
  ASSERT_TRUE(planner.Init(scratch + 1, 40 * 2).ok());
  EXPECT_EQ(planner.max_buffer_count(), 1);  // 3 bytes lost to alignment
  ASSERT_TRUE(planner.AddBuffer(8, 0, 0).ok());
  EXPECT_EQ(planner.GetMaximumMemorySize(), 8);
}

}  // namespace
}  // namespace tflm_arena
