// IntervalIndex: Gather returns exactly the placed buffers whose lifetimes
// meet the query's, once each, within GatherCost's bound, on shapes that
// take each of its paths: short lifetimes (block lists and start slots),
// long ones (the tree), many buffers starting at one step (a block of one
// rank), sparse steps (ranked), and a mix.
#include "tflm_arena/plan/interval_index.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"

namespace tflm_arena {
namespace plan_internal {
namespace {

using testing::Rec;

struct Shape {
  const char* name;
  int n;
  int steps;    // first steps drawn from [0, steps)
  int max_len;  // lifetimes of 0..max_len steps
  int spread;   // step multiplier (sparse steps when large)
};

void CheckShape(const Shape& shape, unsigned seed) {
  SCOPED_TRACE(shape.name);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> first(0, shape.steps - 1), len(0, shape.max_len);
  std::vector<UsageRecord> records;
  for (int i = 0; i < shape.n; ++i) {
    const int a = first(rng);
    records.push_back(Rec(16, a * shape.spread, (a + len(rng)) * shape.spread));
  }
  IntervalIndex index(Span<const UsageRecord>(records.data(), records.size()));
  std::vector<uint32_t> order(records.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<bool> placed(records.size(), false);
  std::uniform_int_distribution<uint32_t> any(0, static_cast<uint32_t>(records.size() - 1));
  for (size_t p = 0; p < order.size(); ++p) {
    const uint32_t id = order[p];
    // Keys name the buffer: (index, index) is unique and never empty.
    index.Insert(id, static_cast<int32_t>(id), static_cast<int32_t>(id));
    placed[id] = true;
    if (p % 7 != 0) continue;
    for (int q = 0; q < 4; ++q) {
      const uint32_t at = any(rng);
      const IntervalIndex::GatherSize cost = index.GatherCost(at);
      // Exactly the room Gather asks for, so that ASan sees any write past it.
      std::vector<uint64_t> keys(cost.live + cost.starting + kFilterSlack);
      const size_t k = index.Gather(at, keys.data(), 0);
      ASSERT_LE(k, cost.live + cost.starting);
      std::vector<uint64_t> got(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(k));
      std::sort(got.begin(), got.end());
      std::vector<uint64_t> want;
      for (uint32_t j = 0; j < records.size(); ++j) {
        if (placed[j] && records[j].first_step <= records[at].last_step &&
            records[at].first_step <= records[j].last_step) {
          want.push_back(PackKey(static_cast<int32_t>(j), static_cast<int32_t>(j)));
        }
      }
      ASSERT_EQ(got, want) << "query " << at << " after " << p + 1 << " inserts";
    }
  }
}

TEST(IntervalIndex, GatherFindsExactlyTheMeetingPlacedBuffers) {
  const Shape shapes[] = {
      {"short lifetimes, one start per step", 1500, 1500, 40, 1},
      {"long lifetimes (tree: over 16 blocks of 128 starts)", 1500, 1500, 6000, 1},
      {"many starts per step (one-rank blocks)", 1500, 6, 3, 1},
      {"sparse steps (ranked)", 1500, 1500, 30, 100000},
      {"mixed lengths", 1500, 1000, 4000, 1},
  };
  unsigned seed = 1;
  for (const Shape& s : shapes) CheckShape(s, seed++);
}

}  // namespace
}  // namespace plan_internal
}  // namespace tflm_arena
