// PlanTflmGreedy (fast) must equal PlanTflmGreedyRuntime (TFLM's algorithm)
// on every input: offsets, arena size, and errors word for word.
#include <climits>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/tflm_greedy_threads.h"

namespace tflm_arena {
namespace {

using testing::Rec;

struct Shape {
  int min_n, max_n;
  int steps;            // first steps drawn from [-1, steps)
  int max_len;          // lifetime length drawn from [0, max_len]
  double fixed_chance;  // chance a buffer gets a fixed offset
  double bad_chance;    // chance a record is invalid
};

std::vector<UsageRecord> RandomRecords(std::mt19937_64& rng, const Shape& s) {
  auto uniform = [&](int64_t lo, int64_t hi) {  // inclusive
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  const int n = static_cast<int>(uniform(s.min_n, s.max_n));
  const bool tie_heavy = chance(0.5);
  std::vector<UsageRecord> records;
  for (int i = 0; i < n; ++i) {
    UsageRecord r;
    r.size = tie_heavy ? 16 * uniform(0, 3) : uniform(0, 300);
    r.first_step = static_cast<Step>(uniform(-1, s.steps - 1));
    r.last_step = static_cast<Step>(r.first_step + uniform(0, s.max_len));
    if (chance(s.fixed_chance))
      r.fixed_offset = chance(0.5) ? 16 * uniform(0, 20) : uniform(0, 400);
    if (chance(s.bad_chance)) {
      switch (uniform(0, 3)) {
        case 0:
          r.size = -uniform(1, 5);
          break;
        case 1:
          r.last_step = r.first_step - 1;
          break;
        case 2:
          r.fixed_offset = -uniform(2, 9);
          break;
        default:
          r.size = int64_t{INT_MAX} - uniform(0, 100);
          break;
      }
    }
    records.push_back(r);
  }
  return records;
}

std::string Describe(const std::vector<UsageRecord>& records) {
  std::string s;
  for (const auto& r : records) {
    s += std::to_string(r.size) + "(" + std::to_string(r.first_step) + "," +
         std::to_string(r.last_step) + ")";
    if (r.fixed_offset != kOnlineOffset) s += "@" + std::to_string(r.fixed_offset);
    s += " ";
  }
  return s;
}

// Checks that the fast planner, in its one- and two-thread forms, and the
// runtime planner agree (and checks validity). The two-thread form runs
// here from the first buffer, so its batches, their edges and the buffers
// placed since the helper's snapshot are exercised on every input.
void ExpectSame(const std::vector<UsageRecord>& records) {
  PlanResult fast, runtime, two_threads;
  Status fast_status = plan_internal::PlanTflmGreedyThreads(records, &fast, PlanCancel(), SIZE_MAX);
  Status runtime_status = PlanTflmGreedyRuntime(records, &runtime);
  Status two_status = plan_internal::PlanTflmGreedyThreads(records, &two_threads, PlanCancel(), 0);
  ASSERT_EQ(fast_status.code(), runtime_status.code()) << Describe(records);
  ASSERT_STREQ(fast_status.message(), runtime_status.message()) << Describe(records);
  ASSERT_EQ(fast.offsets, runtime.offsets) << Describe(records);
  ASSERT_EQ(fast.arena_bytes, runtime.arena_bytes) << Describe(records);
  ASSERT_EQ(two_status.code(), runtime_status.code()) << "two threads: " << Describe(records);
  ASSERT_STREQ(two_status.message(), runtime_status.message()) << Describe(records);
  ASSERT_EQ(two_threads.offsets, runtime.offsets) << "two threads: " << Describe(records);
  ASSERT_EQ(two_threads.arena_bytes, runtime.arena_bytes) << Describe(records);
  if (!fast_status.ok()) {
    EXPECT_TRUE(fast.offsets.empty());
    return;
  }
  // Greedy never overlaps anything itself; fixed buffers may alias each
  // other, and the bound (which counts their shared bytes once) still holds.
  if (ValidateRecords(records).ok()) {
    Status valid = ValidatePlan(records, fast.offsets, fast.arena_bytes);
    ASSERT_TRUE(valid.ok()) << valid.message() << " for " << Describe(records);
    ASSERT_GE(fast.arena_bytes, LowerBound(records)) << Describe(records);
  }
}

TEST(GreedyFastTest, ReferenceCasesAgree) {
  ExpectSame({Rec(10, 0, 1), Rec(20, 2, 3)});
  ExpectSame({Rec(10, 0, 1), Rec(20, 1, 2), Rec(30, 2, 3), Rec(40, 3, 4), Rec(50, 0, 1)});
  ExpectSame(testing::PersonDetectionRecords());
  ExpectSame({Rec(100, 0, 1), Rec(50, 2, 3), Rec(20, 1, 2)});
  ExpectSame({Rec(16, 0, 1), Rec(16, 0, 1), Rec(16, 0, 1)});
  ExpectSame({Rec(100, 0, 1, 50), Rec(30, 0, 1), Rec(40, 0, 1), Rec(10, 2, 3)});
  ExpectSame({});
}

TEST(GreedyFastTest, GT8ExactOffsets) {
  const std::vector<UsageRecord> records = {Rec(100, 0, 1, 50), Rec(30, 0, 1), Rec(40, 0, 1),
                                            Rec(10, 2, 3)};
  PlanResult plan;
  ASSERT_TRUE(PlanTflmGreedy(records, &plan).ok());
  EXPECT_EQ(plan.offsets, (std::vector<ByteOffset>{50, 150, 0, 0}));
  EXPECT_EQ(plan.arena_bytes, 180);
}

TEST(GreedyFastTest, GT4ExactOffsets) {
  const auto records = testing::PersonDetectionRecords();
  PlanResult plan;
  ASSERT_TRUE(PlanTflmGreedy(records, &plan).ok());
  for (int i = 0; i < testing::kPersonDetectionCount; ++i) {
    EXPECT_EQ(plan.offsets[i], testing::kPersonDetectionGreedyOffsets[i]) << i;
  }
  EXPECT_EQ(plan.arena_bytes, 64512);
}

TEST(GreedyFastTest, RandomSmallOnline) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 3000; ++i) ExpectSame(RandomRecords(rng, {0, 40, 8, 4, 0.0, 0.0}));
}

TEST(GreedyFastTest, RandomSmallWithFixed) {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 3000; ++i) ExpectSame(RandomRecords(rng, {0, 40, 8, 4, 0.2, 0.0}));
}

TEST(GreedyFastTest, RandomWithInvalidRecords) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 1000; ++i) ExpectSame(RandomRecords(rng, {1, 30, 6, 3, 0.2, 0.05}));
}

TEST(GreedyFastTest, RandomMediumLongLifetimes) {
  std::mt19937_64 rng(4);
  for (int i = 0; i < 100; ++i) ExpectSame(RandomRecords(rng, {100, 600, 120, 60, 0.05, 0.0}));
}

// Many buffers live at once: PlanTflmGreedy switches from "sort what we
// meet" to walking everything placed (tflm_greedy.cc step 3). Both paths,
// interleaved, must still give TFLM's offsets.
TEST(GreedyFastTest, ManyLiveAtOnceAgrees) {
  std::mt19937_64 rng(8);
  for (int i = 0; i < 30; ++i) ExpectSame(RandomRecords(rng, {300, 900, 6, 5, 0.05, 0.0}));
}

TEST(GreedyFastTest, LongLivedOverChainAgrees) {
  std::mt19937_64 rng(9);
  for (int round = 0; round < 4; ++round) {
    std::vector<UsageRecord> records;
    const int n = 3000;
    for (int i = 0; i < n; ++i) {
      const bool long_lived = rng() % 3 == 0;
      const int64_t size = 16 * static_cast<int64_t>(rng() % (long_lived ? 4 : 64));
      records.push_back(long_lived ? Rec(size, static_cast<Step>(rng() % 100), n)
                                   : Rec(size, i, i + 1));
    }
    ExpectSame(records);
  }
}

TEST(GreedyFastTest, ExtremeStepValues) {
  std::mt19937_64 rng(5);
  const Step values[] = {INT32_MIN, INT32_MIN + 1, -1, 0, 1, 1000, INT32_MAX - 1, INT32_MAX};
  for (int round = 0; round < 300; ++round) {
    std::vector<UsageRecord> records;
    const int n = static_cast<int>(rng() % 30);
    for (int i = 0; i < n; ++i) {
      Step a = values[rng() % 8], b = values[rng() % 8];
      if (a > b) std::swap(a, b);
      records.push_back(Rec(static_cast<int64_t>(rng() % 5) * 8, a, b));
    }
    ExpectSame(records);
  }
}

TEST(GreedyFastTest, Int32LimitsAreEnforcedIdentically) {
  ExpectSame({Rec(int64_t{1} << 31, 0, 1)});
  ExpectSame({Rec(10, 0, 1, int64_t{1} << 31)});
  ExpectSame({Rec(10, 0, 1, INT_MAX - 9)});
  ExpectSame({Rec(10, 0, 1, INT_MAX - 10)});
  ExpectSame({Rec(INT_MAX - 10, 0, 1), Rec(10, 0, 1)});  // ends exactly at INT_MAX: fine
  ExpectSame({Rec(INT_MAX - 10, 0, 1), Rec(11, 5, 6)});  // no reuse conflict: fine
  ExpectSame({Rec(INT_MAX - 10, 0, 1), Rec(11, 1, 6)});  // ends past INT_MAX: rejected
  ExpectSame({Rec(100, 0, 1, INT_MAX - 100), Rec(1, 0, 1)});
  PlanResult plan;
  std::vector<UsageRecord> records = {Rec(INT_MAX - 10, 0, 1), Rec(11, 1, 6)};
  Status s = PlanTflmGreedy(records, &plan);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(),
               "buffer 1: planned end 2147483648 does not fit in int32 (TFLM planners use int)");
  records = {Rec(10, 0, 1, INT_MAX - 9)};
  EXPECT_STREQ(PlanTflmGreedy(records, &plan).message(),
               "buffer 0: fixed end 2147483648 does not fit in int32 (TFLM planners use int)");
  records = {Rec(5, 0, 1), Rec(-5, 0, 1)};
  EXPECT_STREQ(PlanTflmGreedy(records, &plan).message(), "buffer 1: size -5 is negative");
}

TEST(GreedyFastTest, ChainWithSkipsAgrees) {
  std::mt19937_64 rng(6);
  for (int round = 0; round < 5; ++round) {
    std::vector<UsageRecord> records;
    for (int i = 0; i < 2000; ++i) {
      const int64_t size = 16 * static_cast<int64_t>(1 + rng() % 4096);
      const Step last = static_cast<Step>(i + 1 + (rng() % 20 == 0 ? 10 + rng() % 191 : 0));
      records.push_back(Rec(size, i, last));
    }
    ExpectSame(records);
  }
}

// Dense overlaps: from all buffers mutually live to `live`
// of them live at every step, with sizes that tie a lot, sizes that are
// unaligned (offsets differ in their low bits) and sizes up to 4 MiB
// (offsets differ in 30 bits), with and without fixed buffers. Small cases
// exercise the walk; long windows (n > 3 * live) make PlanTflmGreedy fetch
// and radix-sort more than 64 keys per buffer, and switch between the two.
enum class Sizes { kTies, kUnaligned, kHuge };

std::vector<UsageRecord> DenseRecords(std::mt19937_64& rng, int n, int live, Sizes sizes,
                                      bool with_fixed) {
  auto uniform = [&](int64_t lo, int64_t hi) {  // inclusive
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const bool all_live = live >= n;
  std::vector<UsageRecord> records;
  int64_t fixed_base = 0;
  for (int i = 0; i < n; ++i) {
    UsageRecord r;
    r.size = sizes == Sizes::kTies        ? 16 * uniform(0, 4)
             : sizes == Sizes::kUnaligned ? uniform(0, 5000)
                                          : uniform(0, 1 << 22);
    if (all_live) {
      r.first_step = static_cast<Step>(uniform(0, 2));  // everyone is live at steps 2..3
      r.last_step = static_cast<Step>(uniform(3, 5));
    } else {
      r.first_step = i;
      r.last_step = static_cast<Step>(i + uniform(0, 2 * live - 2));
    }
    if (with_fixed && uniform(0, 9) == 0) {  // disjoint fixed buffers
      r.fixed_offset = fixed_base;
      fixed_base += r.size + 16 * uniform(0, 2);
    }
    records.push_back(r);
  }
  return records;
}

std::vector<UsageRecord> RandomDense(std::mt19937_64& rng, int max_n, bool with_fixed) {
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int n = uniform(1, max_n);
  const int live = uniform(0, 1) == 0 ? n : uniform(1, n);  // all live, or a window
  return DenseRecords(rng, n, live, static_cast<Sizes>(uniform(0, 2)), with_fixed);
}

TEST(GreedyFastTest, DenseOverlapAgrees) {
  std::mt19937_64 rng(10);
  for (int round = 0; round < 150; ++round) ExpectSame(RandomDense(rng, 400, false));
}

TEST(GreedyFastTest, DenseOverlapWithFixedAgrees) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 150; ++round) ExpectSame(RandomDense(rng, 400, true));
}

// 400 buffers all live, the biggest dense case of the issue.
TEST(GreedyFastTest, DenseOverlapLargestAgrees) {
  std::mt19937_64 rng(12);
  for (int round = 0; round < 6; ++round) {
    ExpectSame(DenseRecords(rng, 400, 400, static_cast<Sizes>(round % 3), round >= 3));
  }
}

// 64..250 live at every step over 3000 buffers: most are placed by fetching
// and radix-sorting what they meet.
TEST(GreedyFastTest, LongWindowsAgree) {
  std::mt19937_64 rng(13);
  for (int round = 0; round < 12; ++round) {
    const int live = std::uniform_int_distribution<int>(64, 250)(rng);
    ExpectSame(DenseRecords(rng, 3000, live, static_cast<Sizes>(round % 3), round % 2 == 1));
  }
}

struct StopCounter {
  int calls = 0;
  int stop_at = -1;  // -1: never stop
};

bool CountAndMaybeStop(void* context) {
  auto* counter = static_cast<StopCounter*>(context);
  ++counter->calls;
  return counter->calls == counter->stop_at;
}

std::vector<UsageRecord> AllLive(int n) {
  std::vector<UsageRecord> records;
  for (int i = 0; i < n; ++i) records.push_back(Rec(16, 0, 1));
  return records;
}

TEST(GreedyFastTest, CancelHookIsPolledAndCanStop) {
  // 3000 equal buffers all live: every one walks all placed, ~4.5M steps of
  // work, so the hook (every 2^20 units) runs a few times.
  const std::vector<UsageRecord> records = AllLive(3000);
  StopCounter never;
  PlanResult plan;
  ASSERT_TRUE(PlanTflmGreedy(records, &plan, PlanCancel{&CountAndMaybeStop, &never}).ok());
  EXPECT_GE(never.calls, 2);
  EXPECT_EQ(plan.offsets[0], 16 * 2999);  // higher index first on ties
  EXPECT_EQ(plan.arena_bytes, 16 * 3000);

  StopCounter first_call{0, 1};
  Status s = PlanTflmGreedy(records, &plan, PlanCancel{&CountAndMaybeStop, &first_call});
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(first_call.calls, 1);
  EXPECT_TRUE(plan.offsets.empty());
  EXPECT_EQ(plan.arena_bytes, 0);
  const std::string message = s.message();
  EXPECT_EQ(message.rfind("planning cancelled after ", 0), 0u) << message;
  EXPECT_NE(message.find(" of 3000 buffers"), std::string::npos) << message;
}

// The two-thread form stops at the hook too, and its helper ends with it.
TEST(GreedyFastTest, CancelHookStopsTheTwoThreadForm) {
  std::mt19937_64 rng(14);
  const std::vector<UsageRecord> records = DenseRecords(rng, 20000, 3000, Sizes::kTies, false);
  StopCounter never;
  PlanResult plan, one_thread;
  ASSERT_TRUE(plan_internal::PlanTflmGreedyThreads(records, &plan,
                                                   PlanCancel{&CountAndMaybeStop, &never}, 0)
                  .ok());
  ASSERT_GE(never.calls, 2);
  ASSERT_TRUE(PlanTflmGreedy(records, &one_thread).ok());
  EXPECT_EQ(plan.offsets, one_thread.offsets);
  StopCounter second_call{0, 2};
  const Status s = plan_internal::PlanTflmGreedyThreads(
      records, &plan, PlanCancel{&CountAndMaybeStop, &second_call}, 0);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(second_call.calls, 2);
  EXPECT_TRUE(plan.offsets.empty());
}

TEST(GreedyFastTest, CancelHookNotNeededForSmallPlans) {
  StopCounter counter{0, 1};
  PlanResult plan;
  const auto records = testing::PersonDetectionRecords();
  ASSERT_TRUE(PlanTflmGreedy(records, &plan, PlanCancel{&CountAndMaybeStop, &counter}).ok());
  EXPECT_EQ(counter.calls, 0);
  EXPECT_EQ(plan.arena_bytes, 64512);
}

}  // namespace
}  // namespace tflm_arena
