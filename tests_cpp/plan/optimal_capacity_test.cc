// PlanOptimal's decision form (OptimalOptions::capacity): at the proven
// optimum it finds a plan that fits, one byte below it proves that none
// does, and every plan it returns is valid.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace {

using testing::Rec;

std::vector<UsageRecord> Random(std::mt19937* rng, int n) {
  std::uniform_int_distribution<int> step(0, 4), len(0, 3), size(1, 64);
  std::vector<UsageRecord> r;
  for (int i = 0; i < n; ++i) {
    const int first = step(*rng);
    r.push_back(Rec(size(*rng), first, first + len(*rng)));  // any size, aligned offsets
  }
  return r;
}

Status Plan(const std::vector<UsageRecord>& r, int64_t capacity, PlanResult* out,
            OptimalStats* stats) {
  OptimalOptions o;
  o.time_limit_seconds = 5.0;
  o.alignment = 16;
  o.capacity = capacity;
  return PlanOptimal(Span<const UsageRecord>(r.data(), r.size()), o, out, stats);
}

TEST(PlanOptimalCapacity, FitsAtTheOptimumAndProvesOneByteBelow) {
  std::mt19937 rng(11);
  int below_proven = 0;
  for (int trial = 0; trial < 400; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const auto r = Random(&rng, 2 + trial % 6);
    PlanResult best, fit, none;
    OptimalStats s0, s1, s2;
    ASSERT_TRUE(Plan(r, 0, &best, &s0).ok());
    ASSERT_TRUE(s0.proven_optimal);
    ASSERT_TRUE(Plan(r, best.arena_bytes, &fit, &s1).ok());
    EXPECT_LE(fit.arena_bytes, best.arena_bytes);
    ASSERT_TRUE(Plan(r, best.arena_bytes - 1, &none, &s2).ok());
    EXPECT_GT(none.arena_bytes, best.arena_bytes - 1);
    EXPECT_GT(s2.lower_bound, best.arena_bytes - 1);  // "does not fit" is proven
    for (const PlanResult* p : {&fit, &none}) {
      const Status v = ValidatePlan(Span<const UsageRecord>(r.data(), r.size()),
                                    Span<const ByteOffset>(p->offsets.data(), p->offsets.size()),
                                    p->arena_bytes);
      EXPECT_TRUE(v.ok()) << v.message();
    }
    if (best.arena_bytes > LowerBound(Span<const UsageRecord>(r.data(), r.size()))) {
      ++below_proven;  // proven by the search, not by the bound alone
    }
  }
  EXPECT_GT(below_proven, 5);
}

TEST(PlanOptimalCapacity, NegativeCapacityIsRefused) {
  PlanResult p;
  const std::vector<UsageRecord> r = {Rec(16, 0, 1)};
  const Status s = Plan(r, -1, &p, nullptr);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(), "capacity -1 bytes is negative");
}

}  // namespace
}  // namespace tflm_arena
