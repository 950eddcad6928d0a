// PlanOptimal (plan.h): the optimum of small random instances equals a brute
// force over every placement order; fixed offsets, alignment, time limit,
// cancellation, never worse than the greedy planners, valid plans.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/optimal_search.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/shared_objects.h"

namespace tflm_arena {
namespace {

using testing::Rec;

int64_t AlignUp(int64_t v, int64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

// Places buffers in `order`, each at the lowest aligned offset where it
// misses every time-overlapping buffer placed before it and every fixed one.
int64_t FirstFitArena(const std::vector<UsageRecord>& r, const std::vector<int>& order,
                      int64_t alignment) {
  std::vector<int64_t> off(r.size(), -1);
  int64_t arena = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i].fixed_offset >= 0) {
      off[i] = r[i].fixed_offset;
      arena = std::max(arena, off[i] + r[i].size);
    }
  }
  for (int b : order) {
    if (r[b].fixed_offset >= 0) continue;
    if (r[b].size == 0) {
      off[b] = 0;
      continue;
    }
    int64_t o = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (size_t j = 0; j < r.size(); ++j) {
        if (off[j] < 0 || static_cast<int>(j) == b || r[j].size == 0) continue;
        if (!LifetimesOverlap(r[b], r[j])) continue;
        if (o < off[j] + r[j].size && off[j] < o + r[b].size) {
          o = AlignUp(off[j] + r[j].size, alignment);
          moved = true;
        }
      }
    }
    off[b] = o;
    arena = std::max(arena, o + r[b].size);
  }
  return arena;
}

// Exhaustive: some order's first-fit reaches the optimum (slide every buffer
// of an optimal plan as low as it goes; first fit in offset order rebuilds it).
int64_t BruteForceOptimum(const std::vector<UsageRecord>& r, int64_t alignment) {
  std::vector<int> order(r.size());
  for (size_t i = 0; i < r.size(); ++i) order[i] = static_cast<int>(i);
  int64_t best = INT64_MAX;
  do {
    best = std::min(best, FirstFitArena(r, order, alignment));
  } while (std::next_permutation(order.begin(), order.end()));
  return best;
}

std::vector<UsageRecord> RandomRecords(std::mt19937* rng, int n, int steps, int64_t max_size,
                                       int64_t grain, bool with_fixed) {
  std::vector<UsageRecord> r;
  std::uniform_int_distribution<int> step(0, steps - 1);
  std::uniform_int_distribution<int64_t> size(0, max_size / grain);
  for (int i = 0; i < n; ++i) {
    int a = step(*rng), b = step(*rng);
    if (a > b) std::swap(a, b);
    r.push_back(Rec(size(*rng) * grain, a, b));
  }
  if (with_fixed) {
    // Fixed buffers that do not collide with each other (some even alias).
    std::uniform_int_distribution<int> coin(0, 2);
    int64_t top = 0;
    for (auto& x : r) {
      if (coin(*rng) != 0) continue;
      x.fixed_offset = AlignUp(top, 16);
      top = x.fixed_offset + x.size;
    }
  }
  return r;
}

Status Optimal(const std::vector<UsageRecord>& r, PlanResult* out, OptimalStats* stats,
               int64_t alignment = 0, double seconds = 5.0) {
  OptimalOptions o;
  o.time_limit_seconds = seconds;
  o.alignment = alignment;
  return PlanOptimal(Span<const UsageRecord>(r.data(), r.size()), o, out, stats);
}

void ExpectValidAligned(const std::vector<UsageRecord>& r, const PlanResult& p, int64_t alignment) {
  ASSERT_EQ(p.offsets.size(), r.size());
  Status s =
      ValidatePlan(Span<const UsageRecord>(r.data(), r.size()),
                   Span<const ByteOffset>(p.offsets.data(), p.offsets.size()), p.arena_bytes);
  EXPECT_TRUE(s.ok()) << s.message();
  int64_t end = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    end = std::max(end, p.offsets[i] + r[i].size);
    if (alignment > 1 && r[i].fixed_offset < 0) {
      EXPECT_EQ(p.offsets[i] % alignment, 0) << "buffer " << i;
    }
  }
  EXPECT_EQ(p.arena_bytes, end);
}

TEST(PlanOptimal, TflmMediumTestCaseReachesItsBoundOf80) {
  // TFLM's TestGreedyMedium: its greedy needs 90, 80 is achievable.
  std::vector<UsageRecord> r = {Rec(10, 0, 1), Rec(20, 1, 2), Rec(30, 2, 3), Rec(40, 3, 4),
                                Rec(50, 0, 1)};
  PlanResult p;
  OptimalStats st;
  ASSERT_TRUE(Optimal(r, &p, &st).ok());
  EXPECT_EQ(p.arena_bytes, 80);
  EXPECT_TRUE(st.proven_optimal);
  EXPECT_EQ(st.lower_bound, 80);
  ExpectValidAligned(r, p, 0);
}

TEST(PlanOptimal, EqualsBruteForceOnRandomSmallInstances) {
  std::mt19937 rng(7);
  int above_bound = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + trial % 7;
    const int64_t alignment = (trial % 3 == 0) ? 16 : 0;
    const bool fixed = trial % 4 == 1;
    auto r = RandomRecords(&rng, n, 5, 64, (trial % 2) ? 1 : 16, fixed);
    PlanResult p;
    OptimalStats st;
    Status s = Optimal(r, &p, &st, alignment);
    ASSERT_TRUE(s.ok()) << s.message();
    SCOPED_TRACE("trial " + std::to_string(trial));
    ExpectValidAligned(r, p, alignment);
    EXPECT_EQ(p.arena_bytes, BruteForceOptimum(r, alignment));
    EXPECT_TRUE(st.proven_optimal);
    EXPECT_LE(st.lower_bound, p.arena_bytes);
    if (p.arena_bytes > LowerBound(Span<const UsageRecord>(r.data(), r.size()))) ++above_bound;
  }
  EXPECT_GT(above_bound, 10);  // the cases include optima the bound does not reach
}

// Every way the search can branch (plan_internal::SearchGuide), with every
// rank order, is exact on its own: a plan fits at the brute-force optimum and
// a complete search proves that one byte less does not.
TEST(PlanOptimal, EverySearchGuideIsExact) {
  using plan_internal::Branching;
  using plan_internal::SearchOutcome;
  std::mt19937 rng(29);
  std::vector<int64_t> shared;  // kept across searches, as PlanOptimal does
  int proofs = 0;
  for (int trial = 0; trial < 150; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const int n = 2 + trial % 6;
    const int64_t alignment = (trial % 3 == 0) ? 16 : 1;
    auto r = RandomRecords(&rng, n, 5, 64, (trial % 2) ? 1 : 16, trial % 4 == 1);
    plan_internal::SearchProblem p;
    ASSERT_TRUE(plan_internal::BuildSearchProblem(Span<const UsageRecord>(r.data(), r.size()),
                                                  alignment, &p));
    const int64_t optimum = BruteForceOptimum(r, alignment);
    shared.clear();
    for (int g = 0; g < 3; ++g) {
      plan_internal::SearchGuide guide;
      guide.branching = g == 1 ? Branching::kRanked : Branching::kSection;
      guide.weights = g == 2 ? nullptr : &shared;
      const auto rank =
          plan_internal::RankBuffers(p, (trial + g) % plan_internal::kNumRankHeuristics);
      plan_internal::SearchLimits limits;
      limits.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      const auto fit = plan_internal::SearchAtCapacity(p, rank, optimum, limits, guide);
      EXPECT_EQ(fit.outcome, SearchOutcome::kFound) << "guide " << g;
      if (fit.outcome == SearchOutcome::kFound) EXPECT_LE(fit.arena_bytes, optimum);
      if (optimum > p.lower_bound) {
        const auto none = plan_internal::SearchAtCapacity(p, rank, optimum - 1, limits, guide);
        EXPECT_EQ(none.outcome, SearchOutcome::kInfeasible) << "guide " << g;
        ++proofs;
      }
    }
  }
  EXPECT_GT(proofs, 30);  // proofs by the search, not by the bound
}

TEST(PlanOptimal, FixedBuffersAreObstaclesAndMayAlias) {
  // Two fixed buffers alias at [0, 32) while live together; the planner's
  // buffers must go around them: a 32 fits above them, a 16 below the
  // fixed one at 48.
  std::vector<UsageRecord> r = {Rec(32, 0, 3, 0), Rec(32, 1, 2, 0), Rec(16, 0, 3, 48),
                                Rec(16, 0, 3), Rec(32, 0, 3)};
  PlanResult p;
  OptimalStats st;
  ASSERT_TRUE(Optimal(r, &p, &st, 16).ok());
  ExpectValidAligned(r, p, 16);
  EXPECT_EQ(p.offsets[0], 0);
  EXPECT_EQ(p.offsets[1], 0);
  EXPECT_EQ(p.offsets[2], 48);
  EXPECT_EQ(p.offsets[3], 32);  // the only 16-byte gap
  EXPECT_EQ(p.offsets[4], 64);
  EXPECT_EQ(p.arena_bytes, 96);
  EXPECT_TRUE(st.proven_optimal);
  EXPECT_EQ(p.arena_bytes, BruteForceOptimum(r, 16));
}

TEST(PlanOptimal, AlignsOffsetsNotSizes) {
  // Sizes 10: with alignment 16 the second one starts at 16, so 26 bytes.
  std::vector<UsageRecord> r = {Rec(10, 0, 1), Rec(10, 1, 2)};
  PlanResult p;
  OptimalStats st;
  ASSERT_TRUE(Optimal(r, &p, &st, 16).ok());
  EXPECT_EQ(p.arena_bytes, 26);
  EXPECT_TRUE(st.proven_optimal);
  ExpectValidAligned(r, p, 16);
  ASSERT_TRUE(Optimal(r, &p, &st, 0).ok());
  EXPECT_EQ(p.arena_bytes, 20);
}

TEST(PlanOptimal, NeverWorseThanTheGreedyPlannersAndAlwaysValid) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    auto r = RandomRecords(&rng, 5 + trial * 3, 40, 4096, 16, false);
    PlanResult p, greedy, by_size;
    OptimalStats st;
    ASSERT_TRUE(Optimal(r, &p, &st, 16, 0.05).ok());
    SCOPED_TRACE("trial " + std::to_string(trial));
    ExpectValidAligned(r, p, 16);
    ASSERT_TRUE(PlanTflmGreedy(Span<const UsageRecord>(r.data(), r.size()), &greedy).ok());
    ASSERT_TRUE(
        PlanOffsetsGreedyBySize(Span<const UsageRecord>(r.data(), r.size()), 16, &by_size).ok());
    EXPECT_LE(p.arena_bytes, greedy.arena_bytes);
    EXPECT_LE(p.arena_bytes, by_size.arena_bytes);
    EXPECT_GE(p.arena_bytes, st.lower_bound);
    if (st.proven_optimal) EXPECT_EQ(p.arena_bytes, st.lower_bound);
  }
}

// A tiling of a 64-step x 1 MiB rectangle into `n` rectangles: optimum 1 MiB,
// hard for greedy planners and for the search.
std::vector<UsageRecord> HardTiling(int n, unsigned seed) {
  struct R {
    int t0, t1;
    int64_t y0, y1;
  };
  std::mt19937 rng(seed);
  std::vector<R> rects = {{0, 64, 0, 1 << 20}};
  while (static_cast<int>(rects.size()) < n) {
    R& x = rects[std::uniform_int_distribution<size_t>(0, rects.size() - 1)(rng)];
    const bool time = x.t1 - x.t0 >= 2 && (x.y1 - x.y0 < 32 || rng() % 2);
    if (time) {
      const int c = std::uniform_int_distribution<int>(x.t0 + 1, x.t1 - 1)(rng);
      R y = x;
      x.t1 = c;
      y.t0 = c;
      rects.push_back(y);
    } else if (x.y1 - x.y0 >= 32) {
      const int64_t c =
          x.y0 + 16 * std::uniform_int_distribution<int64_t>(1, (x.y1 - x.y0) / 16 - 1)(rng);
      R y = x;
      x.y1 = c;
      y.y0 = c;
      rects.push_back(y);
    }
  }
  std::vector<UsageRecord> r;
  for (const R& x : rects) r.push_back(Rec(x.y1 - x.y0, x.t0, x.t1 - 1));
  return r;
}

TEST(PlanOptimal, StopsAtTheTimeLimitWithAValidPlan) {
  auto r = HardTiling(300, 3);
  for (double limit : {0.0, 0.2}) {
    PlanResult p;
    OptimalStats st;
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(Optimal(r, &p, &st, 16, limit).ok());
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(took, limit + 0.5);  // greedy start + slack for sanitizer builds
    ExpectValidAligned(r, p, 16);
    EXPECT_EQ(st.lower_bound, 1 << 20);
    PlanResult greedy;
    ASSERT_TRUE(PlanTflmGreedy(Span<const UsageRecord>(r.data(), r.size()), &greedy).ok());
    EXPECT_LE(p.arena_bytes, greedy.arena_bytes);
  }
}

TEST(PlanOptimal, ProgressIsReportedAtMostAboutTenTimesASecond) {
  auto r = HardTiling(300, 5);
  struct Seen {
    int calls = 0;
    int64_t last_best = INT64_MAX;
    bool increasing = false;
  } seen;
  OptimalOptions o;
  o.time_limit_seconds = 0.5;
  o.alignment = 16;
  o.progress = [](void* c, int64_t best, int64_t lower, double) {
    auto* s = static_cast<Seen*>(c);
    ++s->calls;
    if (best > s->last_best) s->increasing = true;
    s->last_best = best;
    EXPECT_GE(best, lower);
  };
  o.progress_context = &seen;
  PlanResult p;
  OptimalStats st;
  ASSERT_TRUE(PlanOptimal(Span<const UsageRecord>(r.data(), r.size()), o, &p, &st).ok());
  EXPECT_GE(seen.calls, 1);
  EXPECT_LE(seen.calls, 10);  // 0.5 s: at most one per 100 ms plus the final one
  EXPECT_FALSE(seen.increasing);
  EXPECT_EQ(seen.last_best, p.arena_bytes);
}

TEST(PlanOptimal, CancelStopsTheSearch) {
  auto r = HardTiling(300, 4);
  int calls = 0;
  OptimalOptions o;
  o.time_limit_seconds = 30;
  o.alignment = 16;
  o.cancel.context = &calls;
  o.cancel.stop = [](void* c) { return ++*static_cast<int*>(c) > 20; };
  PlanResult p;
  const auto t0 = std::chrono::steady_clock::now();
  Status s = PlanOptimal(Span<const UsageRecord>(r.data(), r.size()), o, &p, nullptr);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(std::string(s.message()).find("cancelled"), std::string::npos) << s.message();
  EXPECT_LT(took, 5.0);
}

TEST(PlanOptimal, BadInputNamesTheBuffer) {
  std::vector<UsageRecord> r = {Rec(16, 0, 1), Rec(16, 2, 1)};
  PlanResult p;
  Status s = Optimal(r, &p, nullptr);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("buffer 1"), std::string::npos) << s.message();
  r = {Rec(16, 0, 1), Rec(-3, 0, 1)};
  EXPECT_NE(std::string(Optimal(r, &p, nullptr).message()).find("buffer 1"), std::string::npos);
  r = {Rec(16, 0, 1, 8)};  // not a multiple of the alignment
  EXPECT_EQ(Optimal(r, &p, nullptr, 16).code(), StatusCode::kInvalidArgument);
  r = {Rec(int64_t{1} << 61, 0, 1), Rec(int64_t{1} << 61, 0, 1), Rec(int64_t{1} << 61, 0, 1)};
  s = Optimal(r, &p, nullptr);  // 3 x 2^61 > 2^62 at the third
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("buffer 2"), std::string::npos) << s.message();
  OptimalOptions o;
  o.time_limit_seconds = -1;
  EXPECT_EQ(PlanOptimal(Span<const UsageRecord>(r.data(), 1), o, &p, nullptr).code(),
            StatusCode::kInvalidArgument);
}

TEST(PlanOptimal, EmptyZeroSizeAndFixedOnlyInputs) {
  PlanResult p;
  OptimalStats st;
  std::vector<UsageRecord> r;
  ASSERT_TRUE(Optimal(r, &p, &st).ok());
  EXPECT_EQ(p.arena_bytes, 0);
  EXPECT_TRUE(st.proven_optimal);
  r = {Rec(0, 0, 5), Rec(0, 2, 3)};
  ASSERT_TRUE(Optimal(r, &p, &st).ok());
  EXPECT_EQ(p.arena_bytes, 0);
  r = {Rec(32, 0, 5, 64), Rec(0, 1, 1)};
  ASSERT_TRUE(Optimal(r, &p, &st, 16).ok());
  EXPECT_EQ(p.arena_bytes, 96);
  EXPECT_EQ(p.offsets[0], 64);
  EXPECT_TRUE(st.proven_optimal);
}

TEST(PlanOptimal, HugeInputsSkipTheSearchAndStayValid) {
  std::mt19937 rng(3);
  auto r = RandomRecords(&rng, 20000, 5000, 1024, 16, false);
  for (auto& x : r) x.last_step = std::min(x.last_step, x.first_step + 20);
  PlanResult p;
  OptimalStats st;
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(Optimal(r, &p, &st, 16, 0.2).ok());
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(took, 10.0);
  ExpectValidAligned(r, p, 16);
  EXPECT_EQ(st.nodes, 0);  // too many buffers to search
}

TEST(PlanOptimal, TheDeepestSearchFitsTheStack) {
  // The most buffers the search takes, all live together: every dive is
  // kMaxSearchBuffers placements deep (recursion), here at capacity =
  // bound, where the first dive fits them all.
  const size_t n = plan_internal::kMaxSearchBuffers;
  std::vector<UsageRecord> r;
  for (size_t i = 0; i < n; ++i) r.push_back(Rec(16 * static_cast<int64_t>(1 + i % 7), 0, 3));
  plan_internal::SearchProblem problem;
  ASSERT_TRUE(
      plan_internal::BuildSearchProblem(Span<const UsageRecord>(r.data(), r.size()), 16, &problem));
  plan_internal::SearchLimits limits;
  limits.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  const auto rank = plan_internal::RankBuffers(problem, 0);
  auto found = plan_internal::SearchAtCapacity(problem, rank, problem.lower_bound, limits);
  ASSERT_EQ(found.outcome, plan_internal::SearchOutcome::kFound);
  EXPECT_EQ(found.arena_bytes, problem.lower_bound);
  // One byte less cannot fit: proven at once by the section bound.
  auto none = plan_internal::SearchAtCapacity(problem, rank, problem.lower_bound - 1, limits);
  EXPECT_EQ(none.outcome, plan_internal::SearchOutcome::kInfeasible);
}

}  // namespace
}  // namespace tflm_arena
