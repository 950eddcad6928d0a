// GapBuckets (the greedy planners' gap scans without sorting) against the
// scans they replace: sort by offset, then visit every buffer.
#include "tflm_arena/plan/gap_buckets.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace tflm_arena {
namespace plan_internal {
namespace {

using Range = std::pair<uint32_t, uint32_t>;  // [offset, end)

int64_t SortedFirstFit(std::vector<Range> placed, int64_t want) {
  std::sort(placed.begin(), placed.end());
  int64_t end = 0;
  for (const Range& r : placed) {
    if (int64_t{r.first} - end >= want) break;
    end = std::max<int64_t>(end, r.second);
  }
  return end;
}

int64_t SortedBestFit(std::vector<Range> placed, int64_t want) {
  std::sort(placed.begin(), placed.end());
  int64_t end = 0, best_gap = INT64_MAX, best = -1;
  for (const Range& r : placed) {
    if (r.first >= end) {
      const int64_t gap = int64_t{r.first} - end;
      if (gap >= want && gap < best_gap) {
        best_gap = gap;
        best = end;
      }
    }
    end = std::max<int64_t>(end, r.second);
  }
  return best != -1 ? best : end;
}

TEST(GapBucketsTest, MatchesSortedScans) {
  std::mt19937_64 rng(7);
  GapBuckets gaps;  // reused: every scan must leave it clear
  int bucketed = 0;
  for (int round = 0; round < 3000; ++round) {
    const int count = static_cast<int>(rng() % 60);
    const uint32_t span = 1 + static_cast<uint32_t>(rng() % (round % 2 ? 200 : 5000));
    std::vector<Range> placed;
    uint32_t top = 0;
    for (int i = 0; i < count; ++i) {
      const uint32_t offset = static_cast<uint32_t>(rng() % span) & (rng() % 3 ? ~15u : ~0u);
      const uint32_t end = offset + static_cast<uint32_t>(rng() % 4 == 0 ? 0 : rng() % 300);
      placed.emplace_back(offset, end);
      top = std::max(top, end);
    }
    const int64_t want = 1 + static_cast<int64_t>(rng() % (rng() % 2 ? 40 : 400));
    for (int which = 0; which < 2; ++which) {
      if (!gaps.Begin(top, want)) continue;
      ++bucketed;
      for (const Range& r : placed) gaps.Add(r.first, r.second);
      if (which == 0) {
        ASSERT_EQ(gaps.FirstFit(), SortedFirstFit(placed, want)) << "round " << round;
      } else {
        ASSERT_EQ(gaps.BestFit(), SortedBestFit(placed, want)) << "round " << round;
      }
    }
  }
  EXPECT_GT(bucketed, 5000);
}

TEST(GapBucketsTest, SmallExamples) {
  GapBuckets gaps;
  // [0, 10) and [30, 40): a 20-byte gap at 10; 25 bytes fit only on top.
  for (int64_t want : {20, 25}) {
    ASSERT_TRUE(gaps.Begin(40, want));
    gaps.Add(30, 40);
    gaps.Add(0, 10);
    EXPECT_EQ(gaps.FirstFit(), want == 20 ? 10 : 40);
  }
  // Gaps of 8 (at 8) and 6 (at 22): best fit for 5 takes the smaller one,
  // first fit the lower one.
  const Range placed[] = {{0, 8}, {16, 22}, {28, 30}};
  ASSERT_TRUE(gaps.Begin(30, 5));
  for (const Range& r : placed) gaps.Add(r.first, r.second);
  EXPECT_EQ(gaps.BestFit(), 22);
  ASSERT_TRUE(gaps.Begin(30, 5));
  for (const Range& r : placed) gaps.Add(r.first, r.second);
  EXPECT_EQ(gaps.FirstFit(), 8);
  // Nothing placed: offset 0.
  ASSERT_TRUE(gaps.Begin(0, 1));
  EXPECT_EQ(gaps.BestFit(), 0);
  // Too many buckets: refused.
  EXPECT_FALSE(gaps.Begin(int64_t{1} << 30, 1));
}

}  // namespace
}  // namespace plan_internal
}  // namespace tflm_arena
