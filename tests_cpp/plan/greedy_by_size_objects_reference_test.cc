// greedy_by_size_objects against the straightforward O(n^2) form it
// replaces (the GPU delegate's loop: every round rescans every unassigned
// buffer, each keeping a distance per object; the product keeps it as the
// fallback, greedy_by_size_objects_rescan.cc): same objects, same sizes, on
// thousands of random instances, small and medium, many with ties in size
// and in time gap (the tie rules are where a faster form could differ).
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {
namespace {

using testing::Rec;

// The delegate's loop (O(n^2)): the form greedy_by_size_objects.cc had
// before, kept as its fallback in greedy_by_size_objects_rescan.cc.
SharedObjects Reference(const std::vector<UsageRecord>& records) {
  SharedObjects out;
  out.object_ids.assign(records.size(), -1);
  plan_internal::AssignGreedyBySizeByRescan(records, &out);
  plan_internal::Finish(&out);
  return out;
}

// n buffers over about `steps` steps, lifetimes up to max_life steps, sizes
// from `sizes` distinct values (few values: many ties), some zero.
std::vector<UsageRecord> RandomRecords(std::mt19937_64& rng, int n, int steps, int max_life,
                                       int sizes) {
  std::vector<UsageRecord> records;
  for (int i = 0; i < n; ++i) {
    const Step a = static_cast<Step>(rng() % static_cast<uint64_t>(steps)) - 2;
    const Step b = a + static_cast<Step>(rng() % static_cast<uint64_t>(max_life));
    const int64_t size = rng() % 11 == 0 ? 0 : 16 * (1 + static_cast<int64_t>(rng() % sizes));
    records.push_back(Rec(size, a, b));
  }
  return records;
}

void ExpectSame(const std::vector<UsageRecord>& records) {
  SharedObjects got;
  ASSERT_TRUE(AssignGreedyBySize(records, &got).ok());
  const SharedObjects want = Reference(records);
  ASSERT_EQ(got.object_ids, want.object_ids);
  ASSERT_EQ(got.object_sizes, want.object_sizes);
  ASSERT_EQ(got.total, want.total);
}

TEST(GreedyBySizeObjectsReferenceTest, SmallRandom) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 4000; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const int n = 1 + static_cast<int>(rng() % 40);
    const int steps = 1 + static_cast<int>(rng() % 30);
    const int max_life = 1 + static_cast<int>(rng() % 8);
    const int sizes = 1 + static_cast<int>(rng() % 5);
    ExpectSame(RandomRecords(rng, n, steps, max_life, sizes));
  }
}

TEST(GreedyBySizeObjectsReferenceTest, MediumRandom) {
  std::mt19937_64 rng(12);
  for (int trial = 0; trial < 150; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const int n = 100 + static_cast<int>(rng() % 400);
    const int steps = 10 + static_cast<int>(rng() % (trial % 2 ? 100 : 2000));
    const int max_life = 1 + static_cast<int>(rng() % (trial % 3 ? 10 : 200));
    const int sizes = 1 + static_cast<int>(rng() % (trial % 4 ? 6 : 300));
    ExpectSame(RandomRecords(rng, n, steps, max_life, sizes));
  }
}

// Buffer i starts at step i: the scaling benchmark's shape, small.
TEST(GreedyBySizeObjectsReferenceTest, SlidingWindow) {
  std::mt19937_64 rng(13);
  for (int trial = 0; trial < 20; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const int live = 2 + trial;
    std::vector<UsageRecord> records;
    for (int i = 0; i < 600; ++i) {
      const int64_t size = 16 * (1 + static_cast<int64_t>(rng() % (trial % 2 ? 4 : 4096)));
      records.push_back(
          Rec(size, i, i + static_cast<Step>(rng() % static_cast<uint64_t>(2 * live - 1))));
    }
    ExpectSame(records);
  }
}

// A long chain (one or two buffers live at a time): the fast search gives up
// (too many updates) and AssignGreedyBySize returns the delegate's loop's
// objects instead.
TEST(GreedyBySizeObjectsReferenceTest, LongChain) {
  std::mt19937_64 rng(14);
  std::vector<UsageRecord> records;
  for (int i = 0; i < 2500; ++i) {
    records.push_back(
        Rec(16 * (1 + static_cast<int64_t>(rng() % 2)), i, i + static_cast<Step>(rng() % 2)));
  }
  ExpectSame(records);
}

}  // namespace
}  // namespace tflm_arena
