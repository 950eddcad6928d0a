// LowerBound: the most bytes live at one step, by either of its two paths
// (a difference array over few steps without fixed buffers, else a sweep
// over sorted events), against a step-by-step count.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace {

using testing::Rec;

int64_t CountEveryStep(const std::vector<UsageRecord>& records, int64_t steps) {
  int64_t best = 0;
  for (int64_t t = 0; t < steps; ++t) {
    int64_t live = 0;
    for (const UsageRecord& r : records) {
      if (r.size > 0 && r.first_step <= t && t <= r.last_step) live += r.size;
    }
    best = std::max(best, live);
  }
  return best;
}

TEST(LowerBound, BothPathsCountTheBusiestStep) {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 300; ++trial) {
    SCOPED_TRACE(trial);
    std::uniform_int_distribution<int> step(0, 30), len(0, 8), size(0, 100);
    std::vector<UsageRecord> dense;
    for (int i = 0; i < 1 + trial % 25; ++i) {
      const int first = step(rng);
      dense.push_back(Rec(size(rng), first, first + len(rng)));
    }
    const int64_t want = CountEveryStep(dense, 40);
    EXPECT_EQ(LowerBound(dense), want);  // few steps: the difference array
    // The same lifetimes spread over many steps: the sweep.
    std::vector<UsageRecord> sparse = dense;
    for (UsageRecord& r : sparse) {
      r.first_step *= 100000;
      r.last_step *= 100000;
    }
    EXPECT_EQ(LowerBound(sparse), want);
  }
}

TEST(LowerBound, HugeSizesAndBadRecords) {
  // Sizes whose total overflows int64 take the sweep's wide sums: saturated.
  const std::vector<UsageRecord> huge = {Rec(INT64_MAX / 2 + 1, 0, 1),
                                         Rec(INT64_MAX / 2 + 1, 1, 2)};
  EXPECT_EQ(LowerBound(huge), INT64_MAX);
  const std::vector<UsageRecord> apart = {Rec(INT64_MAX / 2 + 1, 0, 0),
                                          Rec(INT64_MAX / 2 + 1, 1, 1)};
  EXPECT_EQ(LowerBound(apart), INT64_MAX / 2 + 1);
  // Records failing the per-record checks are ignored.
  const std::vector<UsageRecord> bad = {Rec(-5, 0, 1), Rec(16, 3, 1), Rec(32, 0, 0)};
  EXPECT_EQ(LowerBound(bad), 32);
  const std::vector<UsageRecord> none;
  EXPECT_EQ(LowerBound(none), 0);
}

}  // namespace
}  // namespace tflm_arena
