// The strategy registry (strategies.h): names unique, fields consistent with
// the kind, and every registered planner gives a valid plan on random
// records, so a new entry is checked by these tests without new code.
#include "tflm_arena/plan/strategies.h"

#include <random>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace {

using testing::Rec;

std::vector<UsageRecord> RandomRecords(std::mt19937* rng, int n) {
  std::uniform_int_distribution<int> size(0, 64), step(0, 12), len(0, 4);
  std::vector<UsageRecord> r;
  for (int i = 0; i < n; ++i) {
    const int first = step(*rng);
    r.push_back(Rec(16 * size(*rng), first, first + len(*rng)));
  }
  return r;
}

TEST(StrategiesTest, NamesUniqueAndFieldsFollowKind) {
  std::set<std::string> names;
  for (const StrategyInfo& s : Strategies()) {
    SCOPED_TRACE(s.name);
    EXPECT_TRUE(names.insert(s.name).second);
    EXPECT_NE(std::string(s.description), "");
    EXPECT_EQ(s.plan == nullptr, s.kind == StrategyKind::kSearch);
    EXPECT_EQ(s.assign != nullptr, s.kind == StrategyKind::kSharedObjects);
    EXPECT_EQ(s.runtime != RuntimePlanner::kNone, s.kind == StrategyKind::kRuntimePlanner);
    EXPECT_EQ(FindStrategy(s.name), &s);
    if (s.kind == StrategyKind::kSharedObjects) {
      const std::string name = s.name;
      ASSERT_GT(name.size(), 8u);
      EXPECT_EQ(name.substr(name.size() - 8), "_objects");
      EXPECT_EQ(ObjectStrategyName(s) + "_objects", name);
      EXPECT_EQ(FindObjectStrategy(ObjectStrategyName(s)), &s);
    }
  }
  EXPECT_EQ(std::string(Strategies()[0].name), "tflm_greedy");
  EXPECT_EQ(FindStrategy("greedy"), nullptr);
  EXPECT_EQ(FindObjectStrategy("naive_objects"), nullptr);
  EXPECT_EQ(StrategyNames(StrategyKind::kRuntimePlanner), "tflm_greedy, linear");
  EXPECT_EQ(StrategyNames(StrategyKind::kSearch), "optimal, best");
  EXPECT_STREQ(StrategyKindName(StrategyKind::kRuntimePlanner), "runtime_planner");
  EXPECT_STREQ(StrategyKindName(StrategyKind::kOffsets), "offsets");
  EXPECT_STREQ(StrategyKindName(StrategyKind::kSharedObjects), "shared_objects");
  EXPECT_STREQ(StrategyKindName(StrategyKind::kSearch), "search");
}

TEST(StrategiesTest, EveryPlannerGivesAValidPlan) {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    const auto records = RandomRecords(&rng, 1 + round * 3);
    const Span<const UsageRecord> span(records.data(), records.size());
    PlanResult greedy;
    ASSERT_TRUE(PlanTflmGreedy(span, &greedy).ok());
    for (const StrategyInfo& s : Strategies()) {
      if (s.plan == nullptr) continue;
      SCOPED_TRACE(s.name);
      PlanResult out;
      ASSERT_TRUE(s.plan(span, &out, PlanCancel()).ok());
      EXPECT_TRUE(ValidatePlan(span, Span<const ByteOffset>(out.offsets.data(), out.offsets.size()),
                               out.arena_bytes)
                      .ok());
      EXPECT_GE(out.arena_bytes, LowerBound(span));
      if (s.runtime == RuntimePlanner::kGreedy) EXPECT_EQ(out.offsets, greedy.offsets);
    }
  }
}

TEST(StrategiesTest, FixedOffsetsAcceptedExactlyWhereRegistered) {
  const std::vector<UsageRecord> records = {Rec(32, 0, 1, 64), Rec(16, 1, 2), Rec(16, 0, 2)};
  const Span<const UsageRecord> span(records.data(), records.size());
  for (const StrategyInfo& s : Strategies()) {
    if (s.plan == nullptr) continue;
    SCOPED_TRACE(s.name);
    PlanResult out;
    const Status status = s.plan(span, &out, PlanCancel());
    EXPECT_EQ(status.ok(), s.fixed_offsets) << status.message();
    if (status.ok()) EXPECT_EQ(out.offsets[0], 64);
  }
}

}  // namespace
}  // namespace tflm_arena
