// Shared-object strategies and the GPU delegate's offset planner
// (shared_objects.h): the test vectors of the GPU delegate's own tests
// (delegates/gpu/common/memory_management_test.cc) reproduced exactly, then
// validity on random records.
#include "tflm_arena/plan/shared_objects.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "test_util.h"
#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace {

using testing::Rec;
using Assign = Status (*)(Span<const UsageRecord>, SharedObjects*);

struct Strategy {
  const char* name;
  Assign assign;
};
const Strategy kStrategies[] = {
    {"naive", AssignNaive},
    {"equality", AssignEquality},
    {"greedy_in_order", AssignGreedyInOrder},
    {"greedy_by_breadth", AssignGreedyByBreadth},
    {"greedy_by_size", AssignGreedyBySize},
    {"greedy_best", AssignGreedyBest},
    {"mincostflow", AssignMinCostFlow},
};

std::vector<UsageRecord> ChainRecords() {
  return {Rec(16, 0, 1), Rec(8, 1, 2), Rec(64, 2, 3), Rec(32, 3, 4), Rec(8, 4, 5)};
}

std::vector<UsageRecord> ComplexRecords() {
  return {Rec(32, 0, 1), Rec(32, 1, 4), Rec(8, 2, 5), Rec(16, 3, 5), Rec(8, 4, 5),
          Rec(64, 5, 7), Rec(8, 6, 8),  Rec(8, 7, 8), Rec(16, 8, 9)};
}

void ExpectObjects(Assign assign, const std::vector<UsageRecord>& records,
                   const std::vector<int32_t>& ids, const std::vector<int64_t>& sizes,
                   int64_t total) {
  SharedObjects got;
  ASSERT_TRUE(assign(records, &got).ok());
  EXPECT_EQ(got.object_ids, ids);
  EXPECT_EQ(got.object_sizes, sizes);
  EXPECT_EQ(got.total, total);
}

TEST(SharedObjectsTest, ChainRecords) {
  const auto r = ChainRecords();
  ExpectObjects(AssignNaive, r, {0, 1, 2, 3, 4}, {16, 8, 64, 32, 8}, 128);
  ExpectObjects(AssignEquality, r, {0, 1, 2, 3, 1}, {16, 8, 64, 32}, 120);
  for (Assign a : {AssignMinCostFlow, AssignGreedyInOrder, AssignGreedyByBreadth,
                   AssignGreedyBySize, AssignGreedyBest}) {
    ExpectObjects(a, r, {0, 1, 0, 1, 0}, {64, 32}, 96);
  }
  EXPECT_EQ(PositionalMaximums(r), (std::vector<int64_t>{64, 32}));
}

TEST(SharedObjectsTest, ComplexRecords) {
  const auto r = ComplexRecords();
  ExpectObjects(AssignNaive, r, {0, 1, 2, 3, 4, 5, 6, 7, 8}, {32, 32, 8, 16, 8, 64, 8, 8, 16}, 192);
  ExpectObjects(AssignEquality, r, {0, 1, 2, 3, 4, 5, 4, 2, 3}, {32, 32, 8, 16, 8, 64}, 160);
  ExpectObjects(AssignGreedyInOrder, r, {0, 1, 0, 2, 3, 1, 3, 2, 0}, {32, 64, 16, 8}, 120);
  ExpectObjects(AssignGreedyByBreadth, r, {0, 4, 2, 1, 3, 0, 2, 3, 1}, {64, 16, 8, 8, 32}, 128);
  ExpectObjects(AssignGreedyBySize, r, {1, 0, 2, 1, 3, 0, 1, 2, 0}, {64, 32, 8, 8}, 112);
  // GREEDY_BEST keeps GREEDY_BY_SIZE (112 < 128).
  ExpectObjects(AssignGreedyBest, r, {1, 0, 2, 1, 3, 0, 1, 2, 0}, {64, 32, 8, 8}, 112);
  ExpectObjects(AssignMinCostFlow, r, {0, 1, 2, 0, 3, 1, 3, 2, 0}, {32, 64, 8, 8}, 112);
  EXPECT_EQ(PositionalMaximums(r), (std::vector<int64_t>{64, 32, 8, 8}));
  EXPECT_EQ(PositionalMaxLowerBound(r), 112);
}

TEST(SharedObjectsTest, EmptyAndOneRecord) {
  for (const Strategy& s : kStrategies) {
    SCOPED_TRACE(s.name);
    ExpectObjects(s.assign, {}, {}, {}, 0);
    ExpectObjects(s.assign, {Rec(16, 0, 1)}, {0}, {16}, 16);
  }
  EXPECT_EQ(PositionalMaxLowerBound({}), 0);
}

TEST(SharedObjectsTest, OffsetsGreedyBySizeVectors) {
  PlanResult p;
  const auto chain = ChainRecords();
  ASSERT_TRUE(PlanOffsetsGreedyBySize(chain, 0, &p).ok());
  EXPECT_EQ(p.offsets, (std::vector<ByteOffset>{0, 64, 0, 64, 0}));
  EXPECT_EQ(p.arena_bytes, 96);
  ASSERT_TRUE(PlanOffsetsGreedyBySize(chain, 128, &p).ok());
  EXPECT_EQ(p.offsets, (std::vector<ByteOffset>{0, 128, 0, 128, 0}));
  EXPECT_EQ(p.arena_bytes, 160);
  const auto complex = ComplexRecords();
  ASSERT_TRUE(PlanOffsetsGreedyBySize(complex, 0, &p).ok());
  EXPECT_EQ(p.offsets, (std::vector<ByteOffset>{0, 32, 80, 64, 88, 0, 64, 72, 0}));
  EXPECT_EQ(p.arena_bytes, 96);
  EXPECT_TRUE(ValidatePlan(complex, p.offsets, p.arena_bytes).ok());
}

TEST(SharedObjectsTest, ManyObjectsToOffsets) {
  SharedObjects objects;
  objects.object_sizes = {16, 8, 32, 32, 4, 16};
  objects.object_ids = {2, 0, 2, 1, 3, 3, 1, 5};
  PlanResult p;
  ASSERT_TRUE(ObjectsToOffsets(objects, &p).ok());
  EXPECT_EQ(p.offsets, (std::vector<ByteOffset>{24, 0, 24, 16, 56, 56, 16, 92}));
  EXPECT_EQ(p.arena_bytes, 108);
  objects.object_ids[1] = 6;
  Status s = ObjectsToOffsets(objects, &p);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(), "buffer 1: object id 6 is outside range 0 to 6");
}

TEST(SharedObjectsTest, RejectsFixedOffsetsAndBadRecords) {
  for (const Strategy& s : kStrategies) {
    SCOPED_TRACE(s.name);
    SharedObjects out;
    const std::vector<UsageRecord> fixed = {Rec(8, 0, 1), Rec(8, 0, 1, 16)};
    Status st = s.assign(fixed, &out);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
    EXPECT_STREQ(st.message(),
                 "buffer 1: fixed offset 16 is not supported by shared-object strategies");
    const std::vector<UsageRecord> negative = {Rec(-8, 0, 1)};
    st = s.assign(negative, &out);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  }
  // No bound on steps: long and wide lifetimes are planned by segments of
  // steps (regression: refused when the strategies listed every step).
  SharedObjects out;
  const std::vector<UsageRecord> wide = {Rec(8, 0, 1), Rec(8, 0, (1 << 30) + 1)};
  ASSERT_TRUE(AssignNaive(wide, &out).ok());
  const std::vector<UsageRecord> many(5, Rec(8, 0, 1 << 30));
  for (const Strategy& s : kStrategies) {
    SCOPED_TRACE(s.name);
    ASSERT_TRUE(s.assign(many, &out).ok());
    EXPECT_EQ(out.total, 40);
  }
  EXPECT_EQ(PositionalMaximums(many), (std::vector<int64_t>{8, 8, 8, 8, 8}));
  Status st;
  const std::vector<UsageRecord> too_many(kMaxMinCostFlowBuffers + 1, Rec(8, 0, 0));
  st = AssignMinCostFlow(too_many, &out);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(st.message(),
               "mincostflow: 1001 buffers, more than 1000 (its flow graph is O(n^2))");
  // A cancel stops min-cost flow between its shortest-path searches.
  const std::vector<UsageRecord> complex = ComplexRecords();
  int polls = 0;
  const auto stop_at_third = [](void* context) { return ++*static_cast<int*>(context) == 3; };
  PlanCancel cancel;
  cancel.stop = stop_at_third;
  cancel.context = &polls;
  st = AssignMinCostFlowCancellable(complex, &out, cancel);
  EXPECT_EQ(st.code(), StatusCode::kFailedPrecondition);
  EXPECT_STREQ(st.message(), "planning cancelled after 2 of 9 buffers");
  EXPECT_EQ(polls, 3);
  EXPECT_TRUE(out.object_ids.empty());
  polls = -1000;  // never 3: the same assignment as without a hook
  ASSERT_TRUE(AssignMinCostFlowCancellable(complex, &out, cancel).ok());
  SharedObjects plain;
  ASSERT_TRUE(AssignMinCostFlow(complex, &plain).ok());
  EXPECT_EQ(out.object_ids, plain.object_ids);
  EXPECT_EQ(out.total, plain.total);
  PlanResult p;
  const std::vector<UsageRecord> fixed = {Rec(8, 0, 1, 0)};
  EXPECT_FALSE(PlanOffsetsGreedyBySize(fixed, 0, &p).ok());
}

// Random records (including steps of -1, zero sizes, unsorted order): every
// strategy gives a valid assignment, a valid end-to-end plan, and a total no
// smaller than the positional-maximum bound (itself >= max live bytes).
TEST(SharedObjectsTest, RandomValidity) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + static_cast<int>(rng() % 40);
    const int steps = 1 + static_cast<int>(rng() % 30);
    std::vector<UsageRecord> records;
    for (int i = 0; i < n; ++i) {
      const Step a = static_cast<Step>(rng() % steps) - 1;
      const Step b = a + static_cast<Step>(rng() % 6);
      const int64_t size = (rng() % 8 == 0) ? 0 : 1 + static_cast<int64_t>(rng() % 1000);
      records.push_back(Rec(size, a, b));
    }
    const int64_t bound = PositionalMaxLowerBound(records);
    ASSERT_GE(bound, LowerBound(records));
    int64_t best_total = -1;
    SharedObjects by_size, by_breadth;
    for (const Strategy& s : kStrategies) {
      SCOPED_TRACE(std::string(s.name) + " trial " + std::to_string(trial));
      SharedObjects out;
      ASSERT_TRUE(s.assign(records, &out).ok());
      ASSERT_EQ(out.object_ids.size(), records.size());
      std::vector<int64_t> need(out.object_sizes.size(), 0);
      int64_t sum = 0;
      for (int64_t size : out.object_sizes) sum += size;
      EXPECT_EQ(out.total, sum);
      EXPECT_GE(out.total, bound);
      for (size_t i = 0; i < records.size(); ++i) {
        const int32_t id = out.object_ids[i];
        ASSERT_GE(id, 0);
        ASSERT_LT(static_cast<size_t>(id), out.object_sizes.size());
        EXPECT_GE(out.object_sizes[id], records[i].size);
        for (size_t j = 0; j < i; ++j) {
          if (out.object_ids[j] == id) {
            EXPECT_FALSE(LifetimesOverlap(records[i], records[j])) << i << " and " << j;
          }
        }
      }
      PlanResult plan;
      ASSERT_TRUE(ObjectsToOffsets(out, &plan).ok());
      EXPECT_EQ(plan.arena_bytes, out.total);
      EXPECT_TRUE(ValidatePlan(records, plan.offsets, plan.arena_bytes).ok());
      if (std::string(s.name) == "greedy_by_size") by_size = out;
      if (std::string(s.name) == "greedy_by_breadth") by_breadth = out;
      if (std::string(s.name) == "greedy_best") {
        EXPECT_EQ(out.total, std::min(by_size.total, by_breadth.total));
      }
      if (std::string(s.name) == "naive") best_total = out.total;
      EXPECT_LE(out.total, best_total);  // never worse than one object per buffer
    }
    for (int64_t alignment : {0, 1, 16}) {
      PlanResult p;
      ASSERT_TRUE(PlanOffsetsGreedyBySize(records, alignment, &p).ok());
      EXPECT_TRUE(ValidatePlan(records, p.offsets, p.arena_bytes).ok());
      EXPECT_GE(p.arena_bytes, LowerBound(records));
      for (ByteOffset o : p.offsets) {
        if (alignment > 1) EXPECT_EQ(o % alignment, 0);
      }
    }
  }
}

// A chain (one buffer live at a time, all of one size) makes
// greedy_by_size_objects' fast search quadratic: it gives up, runs the
// delegate's own loop up to kMaxGreedyBySizeObjectsBuffers buffers and
// refuses beyond.
TEST(SharedObjectsTest, GreedyBySizeOnLongChains) {
  auto chain = [](size_t n) {
    std::vector<UsageRecord> records;
    for (size_t i = 0; i < n; ++i) {
      records.push_back(Rec(16, static_cast<int32_t>(i), static_cast<int32_t>(i)));
    }
    return records;
  };
  SharedObjects out;
  const std::vector<UsageRecord> planned = chain(4000);  // past the fast search's limit
  for (auto* assign : {&AssignGreedyBySize, &AssignGreedyBest}) {
    ASSERT_TRUE(assign(planned, &out).ok());
    EXPECT_EQ(out.object_ids, std::vector<int32_t>(planned.size(), 0));
    EXPECT_EQ(out.object_sizes, std::vector<int64_t>{16});
  }
  const std::vector<UsageRecord> refused = chain(kMaxGreedyBySizeObjectsBuffers + 1);
  for (auto* assign : {&AssignGreedyBySize, &AssignGreedyBest}) {
    const Status s = assign(refused, &out);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_STREQ(s.message(),
                 "greedy_by_size_objects: 20001 buffers with lifetimes that make its "
                 "nearest-object search quadratic (it gave up after 998775 updates with 50 "
                 "buffers assigned: its buffers of about the same size are many and spread "
                 "over a long time, as in a chain or with few distinct sizes); up to 20000 "
                 "buffers it runs the delegate's O(n^2) loop instead");
  }
  EXPECT_TRUE(AssignGreedyInOrder(refused, &out).ok());  // the fast strategies take it
}

// The benchmark's shape: buffer i starts at step i and lives up to
// `max_len` more steps; sizes are multiples of 16 up to 64 KiB.
std::vector<UsageRecord> DenseRecords(int n, int max_len, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<UsageRecord> records;
  for (int i = 0; i < n; ++i) {
    records.push_back(Rec(16 * (1 + static_cast<int64_t>(rng() % 4096)), i,
                          i + static_cast<int32_t>(rng() % static_cast<unsigned>(max_len))));
  }
  return records;
}

// Many buffers live at once: no limit (the benchmark's shape, 30,000 buffers).
TEST(SharedObjectsTest, GreedyBySizeTakesLargeDenseInputs) {
  const std::vector<UsageRecord> records = DenseRecords(30000, 499, 5);
  SharedObjects out;
  ASSERT_TRUE(AssignGreedyBySize(records, &out).ok());
  PlanResult plan;
  ASSERT_TRUE(ObjectsToOffsets(out, &plan).ok());
  EXPECT_TRUE(ValidatePlan(records, plan.offsets, plan.arena_bytes).ok());
  EXPECT_GE(out.total, PositionalMaxLowerBound(records));
}

// From 50,000 buffers greedy_best runs its two parts on two threads: the
// same result as running them one after the other.
TEST(SharedObjectsTest, GreedyBestOnTwoThreadsKeepsTheSmaller) {
  const std::vector<UsageRecord> records = DenseRecords(50000, 99, 9);
  SharedObjects by_size, by_breadth, best;
  ASSERT_TRUE(AssignGreedyBySize(records, &by_size).ok());
  ASSERT_TRUE(AssignGreedyByBreadth(records, &by_breadth).ok());
  ASSERT_TRUE(AssignGreedyBest(records, &best).ok());
  const SharedObjects& want = by_breadth.total < by_size.total ? by_breadth : by_size;
  EXPECT_EQ(best.object_ids, want.object_ids);
  EXPECT_EQ(best.object_sizes, want.object_sizes);
  EXPECT_EQ(best.total, want.total);
}

}  // namespace
}  // namespace tflm_arena
