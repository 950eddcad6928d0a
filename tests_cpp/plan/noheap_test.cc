// Proof that the runtime planners never touch the heap: plan TFLM's
// person-detection model with GreedyPlanner and LinearPlanner while counting
// every global operator new (heap_counter.h), and expect zero.
#include <cstring>

#include "gtest/gtest.h"
#include "heap_counter.h"
#include "person_detection.h"
#include "tflm_arena/plan/greedy_planner.h"
#include "tflm_arena/plan/linear_planner.h"

namespace tflm_arena {
namespace {

using testing::HeapCounter;
using testing::kPersonDetection;
using testing::kPersonDetectionCount;

int* volatile g_sink = nullptr;

TEST(NoHeapTest, CounterSeesAllocations) {
  HeapCounter counter;
  g_sink = new int(3);
  const int64_t seen = counter.count();
  delete g_sink;
  EXPECT_EQ(seen, 1);
}

TEST(NoHeapTest, GreedyPlannerPersonDetection) {
  alignas(16) static uint8_t scratch[GreedyPlanner::kBytesPerBuffer * kPersonDetectionCount];
  static char text[8192];
  int offsets[kPersonDetectionCount] = {};
  bool all_ok = true;
  int max_size = 0;
  int text_length = 0;
  bool overlap = true;

  HeapCounter counter;
  {
    GreedyPlanner planner;
    all_ok &= planner.Init(scratch, sizeof(scratch)).ok();
    for (const auto& b : kPersonDetection)
      all_ok &= planner.AddBuffer(b.size, b.first, b.last).ok();
    for (int i = 0; i < kPersonDetectionCount; ++i) {
      all_ok &= planner.GetOffsetForBuffer(i, &offsets[i]).ok();
    }
    max_size = planner.GetMaximumMemorySize();
    overlap = planner.DoAnyBuffersOverlap();
    text_length = planner.PrintMemoryPlan(text, sizeof(text));
    all_ok &= !planner.AddBuffer(1, 0, 0).ok();  // error path: capacity exhausted
  }
  const int64_t allocations = counter.count();

  EXPECT_EQ(allocations, 0);
  EXPECT_TRUE(all_ok);
  EXPECT_EQ(max_size, testing::kPersonDetectionGreedyMax);
  EXPECT_FALSE(overlap);
  for (int i = 0; i < kPersonDetectionCount; ++i) {
    EXPECT_EQ(offsets[i], testing::kPersonDetectionGreedyOffsets[i]);
  }
  EXPECT_GT(text_length, 0);
  EXPECT_EQ(static_cast<size_t>(text_length), std::strlen(text));
}

TEST(NoHeapTest, LinearPlannerPersonDetection) {
  alignas(16) static uint8_t scratch[LinearPlanner::kBytesPerBuffer * kPersonDetectionCount];
  int offsets[kPersonDetectionCount] = {};
  bool all_ok = true;
  int max_size = 0;

  HeapCounter counter;
  {
    LinearPlanner planner;
    all_ok &= planner.Init(scratch, sizeof(scratch)).ok();
    for (const auto& b : kPersonDetection)
      all_ok &= planner.AddBuffer(b.size, b.first, b.last).ok();
    for (int i = 0; i < kPersonDetectionCount; ++i) {
      all_ok &= planner.GetOffsetForBuffer(i, &offsets[i]).ok();
    }
    max_size = planner.GetMaximumMemorySize();
    all_ok &= !planner.AddBuffer(1, 0, 0, 0).ok();  // error path: fixed offsets unsupported
  }
  const int64_t allocations = counter.count();

  EXPECT_EQ(allocations, 0);
  EXPECT_TRUE(all_ok);
  EXPECT_EQ(max_size, testing::kPersonDetectionLinearMax);
  EXPECT_EQ(offsets[1], 9216);
}

}  // namespace
}  // namespace tflm_arena
