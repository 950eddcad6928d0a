// greedy_by_size_objects against the straightforward O(n^2) form it
// replaces (the GPU delegate's loop: every round rescans every unassigned
// buffer, each keeping a distance per object): same objects, same sizes, on
// thousands of random instances, small and medium, many with ties in size
// and in time gap (the tie rules are where a faster form could differ).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/shared_objects.h"

namespace tflm_arena {
namespace {

using testing::Rec;

constexpr int64_t kNone = std::numeric_limits<int64_t>::max();

struct Priority {
  size_t position = 0;
  int64_t size = 0;
  std::vector<int64_t> dist;  // per object: smallest gap to a member; kNone = conflict
  int64_t best_dist = kNone;
  int32_t best_object = -1;

  bool Before(const Priority& o) const {
    if (position != o.position) return position < o.position;
    if (best_dist != o.best_dist) return best_dist < o.best_dist;
    return size > o.size;
  }
  void Recalc() {
    best_dist = kNone;
    best_object = -1;
    for (size_t k = 0; k < dist.size(); ++k) {
      if (dist[k] < best_dist) {
        best_dist = dist[k];
        best_object = static_cast<int32_t>(k);
      }
    }
  }
};

int64_t Gap(const UsageRecord& a, const UsageRecord& b) {
  if (a.last_step < b.first_step) return int64_t{b.first_step} - a.last_step;
  if (b.last_step < a.first_step) return int64_t{a.first_step} - b.last_step;
  return kNone;
}

// The delegate's loop, as greedy_by_size_objects.cc had it before.
SharedObjects Reference(const std::vector<UsageRecord>& records) {
  SharedObjects out;
  const size_t n = records.size();
  out.object_ids.assign(n, -1);
  const std::vector<int64_t> max = PositionalMaximums(records);
  std::vector<Priority> info(n);
  for (size_t i = 0; i < n; ++i) {
    size_t pos = 0;
    while (pos < max.size() && max[pos] >= records[i].size) ++pos;
    info[i].position = pos == 0 ? 0 : pos - 1;
    info[i].size = records[i].size;
  }
  for (size_t round = 0; round < n; ++round) {
    size_t pick = n;
    for (size_t i = 0; i < n; ++i) {
      if (out.object_ids[i] != -1) continue;
      if (pick == n || info[i].Before(info[pick])) pick = i;
    }
    int32_t obj = info[pick].best_object;
    const bool new_object = info[pick].best_dist == kNone;
    if (new_object) {
      obj = static_cast<int32_t>(out.object_sizes.size());
      out.object_sizes.push_back(records[pick].size);
    } else {
      out.object_sizes[obj] = std::max(out.object_sizes[obj], records[pick].size);
    }
    out.object_ids[pick] = obj;
    for (size_t i = 0; i < n; ++i) {
      if (out.object_ids[i] != -1) continue;
      Priority& p = info[i];
      if (!new_object && p.dist[obj] == kNone) continue;
      const int64_t gap = Gap(records[i], records[pick]);
      if (new_object) {
        p.dist.push_back(gap);
      } else if (gap == kNone) {
        p.dist[obj] = kNone;
        if (p.best_object == obj) p.Recalc();
      } else {
        p.dist[obj] = std::min(p.dist[obj], gap);
      }
      if (gap < p.best_dist) {
        p.best_dist = gap;
        p.best_object = obj;
      }
    }
  }
  for (int64_t s : out.object_sizes) out.total += s;
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
// (too many updates) and the delegate's loop runs instead; same objects.
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
