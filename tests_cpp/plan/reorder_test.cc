// Operator reordering (plan/reorder.h): optimum against brute force over all
// topological orders, graphs where reordering provably helps, the TFLM
// lifetime corner cases, invalid graphs, and bounded time on large graphs.
#include "tflm_arena/plan/reorder.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace tflm_arena {
namespace {

ReorderOp Op(std::vector<int32_t> in, std::vector<int32_t> out, int64_t extra = 0) {
  ReorderOp op;
  op.inputs = std::move(in);
  op.outputs = std::move(out);
  op.extra_bytes = extra;
  return op;
}

// Span views of temporaries.
Status PeakOf(const ReorderGraph& g, const std::vector<int32_t>& order, int64_t* peak) {
  return OrderPeak(g, Span<const int32_t>(order.data(), order.size()), peak);
}
Status CheckOrder(const ReorderGraph& g, const std::vector<int32_t>& order) {
  return CheckOperatorOrder(g, Span<const int32_t>(order.data(), order.size()));
}

std::vector<int32_t> Identity(size_t n) {
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// x -> A1 (big) -> A2 (small); x -> B1 (big) -> B2 (small); A2, B2 -> out.
// The original order runs both big operators before the small ones.
ReorderGraph Diamond() {
  ReorderGraph g;
  g.tensor_bytes = {16, 160, 160, 16, 16, 16};  // x A1 B1 A2 B2 out
  g.inputs = {0};
  g.outputs = {5};
  g.ops = {Op({0}, {1}), Op({0}, {2}), Op({1}, {3}), Op({2}, {4}), Op({3, 4}, {5})};
  return g;
}

TEST(ReorderTest, DiamondRunsEachBranchToItsEnd) {
  const ReorderGraph g = Diamond();
  int64_t peak = 0;
  ASSERT_TRUE(PeakOf(g, Identity(5), &peak).ok());
  EXPECT_EQ(peak, 336);  // step 2: x + A1 + B1
  ReorderResult r;
  ASSERT_TRUE(ReorderForPeak(g, ReorderOptions(), &r).ok());
  EXPECT_EQ(r.peak_before, 336);
  EXPECT_EQ(r.peak_after, 192);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.order, (std::vector<int32_t>{0, 2, 1, 3, 4}));
  ASSERT_TRUE(PeakOf(g, r.order, &peak).ok());
  EXPECT_EQ(peak, 192);
}

TEST(ReorderTest, ChainKeepsOriginalOrder) {
  ReorderGraph g;
  g.tensor_bytes = {16, 32, 48, 16};
  g.inputs = {0};
  g.outputs = {3};
  g.ops = {Op({0}, {1}), Op({1}, {2}), Op({2}, {3})};
  ReorderResult r;
  ASSERT_TRUE(ReorderForPeak(g, ReorderOptions(), &r).ok());
  EXPECT_EQ(r.order, Identity(3));
  EXPECT_EQ(r.peak_before, 80);
  EXPECT_EQ(r.peak_after, 80);
  EXPECT_TRUE(r.exact);
  EXPECT_STREQ(r.method, "original");
}

// Lifetime corner cases of TFLM's allocation-scope walk (reorder.h), on one order.
TEST(ReorderTest, OrderPeakFollowsTflmLifetimes) {
  ReorderGraph g;
  // t0 input; t1 read, never produced (from step -1); t2 never referenced
  // (step -1 only); t3 produced by op0; t4 unproduced unread output (last
  // step only); t5 produced by op1.
  g.tensor_bytes = {16, 32, 1000, 64, 128, 16};
  g.inputs = {0};
  g.outputs = {4, 5};
  g.ops = {Op({0}, {3}), Op({3, 1}, {5})};
  int64_t peak = 0;
  ASSERT_TRUE(PeakOf(g, Identity(2), &peak).ok());
  EXPECT_EQ(peak, 1032);  // step -1: t1 + t2
  g.tensor_bytes[2] = 0;
  ASSERT_TRUE(PeakOf(g, Identity(2), &peak).ok());
  EXPECT_EQ(peak, 32 + 64 + 128 + 16);  // step 2: t1 t3 t4 t5
  g.ops[1].extra_bytes = 48;            // scratch of op1 at step 2
  ASSERT_TRUE(PeakOf(g, Identity(2), &peak).ok());
  EXPECT_EQ(peak, 32 + 64 + 128 + 16 + 48);
}

TEST(ReorderTest, StatefulTensorKeepsItsUsersInOrder) {
  // op0 and op2 both touch the variable s. Running op1, op2 first would
  // keep `a` out of the big step (240 -> 192), but must not happen.
  ReorderGraph g;
  g.tensor_bytes = {16, 160, 64, 16, 0, 16};  // x big a b s out
  g.inputs = {0};
  g.outputs = {5};
  g.stateful_tensors = {4};
  g.ops = {Op({0, 4}, {2}), Op({0}, {1}), Op({1, 4}, {3}), Op({2, 3}, {5})};
  ReorderResult r;
  ASSERT_TRUE(ReorderForPeak(g, ReorderOptions(), &r).ok());
  EXPECT_EQ(r.order, Identity(4));
  EXPECT_EQ(r.peak_after, 240);
  EXPECT_TRUE(r.exact);
  EXPECT_FALSE(CheckOrder(g, {1, 2, 0, 3}).ok());
  ReorderGraph free_graph = g;
  free_graph.stateful_tensors.clear();
  EXPECT_TRUE(CheckOrder(free_graph, {1, 2, 0, 3}).ok());
  ASSERT_TRUE(ReorderForPeak(free_graph, ReorderOptions(), &r).ok());
  EXPECT_EQ(r.order, (std::vector<int32_t>{1, 2, 0, 3}));
  EXPECT_EQ(r.peak_after, 192);
}

TEST(ReorderTest, OrderedOperatorsKeepTheirOrder) {
  ReorderGraph g = Diamond();
  g.ops[1].ordered = true;
  g.ops[2].ordered = true;  // B1 before A2: branch B must go first
  ReorderResult r;
  ASSERT_TRUE(ReorderForPeak(g, ReorderOptions(), &r).ok());
  EXPECT_EQ(r.peak_after, 192);
  EXPECT_EQ(r.order, (std::vector<int32_t>{1, 3, 0, 2, 4}));
  for (int i = 0; i < 4; ++i) g.ops[i].ordered = true;  // nothing may move
  ASSERT_TRUE(ReorderForPeak(g, ReorderOptions(), &r).ok());
  EXPECT_EQ(r.peak_after, 336);
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.order, Identity(5));
}

std::string ErrorOf(const ReorderGraph& g) {
  Status s = ValidateReorderGraph(g);
  return s.ok() ? "ok" : s.message();
}

TEST(ReorderTest, InvalidGraphsAreNamed) {
  ReorderGraph cycle;
  cycle.tensor_bytes = {16, 16, 16};
  cycle.inputs = {2};
  cycle.ops = {Op({1}, {0}), Op({0}, {1})};
  EXPECT_EQ(ErrorOf(cycle), "dependency cycle: operator 1 -> operator 0 -> operator 1");
  ReorderResult r;
  EXPECT_FALSE(ReorderForPeak(cycle, ReorderOptions(), &r).ok());

  ReorderGraph late;  // op0 reads what op1 produces later: no cycle
  late.tensor_bytes = {16, 16, 16};
  late.inputs = {0};
  late.ops = {Op({2}, {1}), Op({0}, {2})};
  EXPECT_EQ(ErrorOf(late),
            "operator 0 reads tensor 2 before operator 1 produces it (original order invalid)");

  ReorderGraph bad = Diamond();
  bad.ops[3].inputs = {9};
  EXPECT_EQ(ErrorOf(bad), "operator 3 inputs: tensor id 9 out of range (6 tensors)");
  bad = Diamond();
  bad.ops[1].outputs = {-1};
  EXPECT_EQ(ErrorOf(bad), "operator 1 outputs: tensor id -1 out of range (6 tensors)");
  bad = Diamond();
  bad.outputs = {6};
  EXPECT_EQ(ErrorOf(bad), "graph outputs: tensor id 6 out of range (6 tensors)");
  bad = Diamond();
  bad.tensor_bytes[2] = -16;
  EXPECT_EQ(ErrorOf(bad), "tensor 2: size -16 is negative or too large");
  bad = Diamond();
  bad.ops[2].inputs = {1, 3};
  EXPECT_EQ(ErrorOf(bad), "operator 2 reads its own output tensor 3");
  bad = Diamond();
  bad.ops[0].inputs = {-1, 0};  // omitted optional input is fine
  EXPECT_EQ(ErrorOf(bad), "ok");
}

TEST(ReorderTest, CheckOperatorOrderNamesTheFault) {
  const ReorderGraph g = Diamond();
  auto err = [&](std::vector<int32_t> order) {
    Status s = CheckOrder(g, order);
    return s.ok() ? std::string("ok") : std::string(s.message());
  };
  EXPECT_EQ(err({0, 2, 1, 3, 4}), "ok");
  EXPECT_EQ(err({0, 1, 2, 3}), "order has 4 entries, the graph has 5 operators");
  EXPECT_EQ(err({0, 1, 2, 3, 3}), "operator 3 appears twice in the order (positions 3 and 4)");
  EXPECT_EQ(err({0, 1, 2, 3, 5}), "order[4] = 5 is not an operator index (0..4)");
  EXPECT_EQ(err({2, 0, 1, 3, 4}),
            "operator 2 reads tensor 1 but runs before operator 0, which produces it");
}

// Random small graphs with every tensor kind; `n` operators.
ReorderGraph RandomGraph(std::mt19937* rng, size_t n) {
  auto pick = [&](size_t k) { return std::uniform_int_distribution<size_t>(0, k - 1)(*rng); };
  auto size = [&]() { return static_cast<int64_t>(16 * (pick(8) == 0 ? 0 : 1 + pick(12))); };
  ReorderGraph g;
  std::vector<int32_t> available;
  const size_t inputs = 1 + pick(2);
  for (size_t i = 0; i < inputs; ++i) {
    g.inputs.push_back(static_cast<int32_t>(g.tensor_bytes.size()));
    available.push_back(static_cast<int32_t>(g.tensor_bytes.size()));
    g.tensor_bytes.push_back(size());
  }
  if (pick(3) == 0) {  // read but never produced
    available.push_back(static_cast<int32_t>(g.tensor_bytes.size()));
    g.tensor_bytes.push_back(size());
  }
  if (pick(3) == 0) g.tensor_bytes.push_back(size());  // never referenced
  std::vector<int32_t> produced;
  for (size_t i = 0; i < n; ++i) {
    ReorderOp op;
    const size_t nin = 1 + pick(3);
    for (size_t k = 0; k < nin; ++k) op.inputs.push_back(available[pick(available.size())]);
    if (pick(6) == 0) op.inputs.push_back(-1);
    const size_t nout = 1 + pick(2);
    for (size_t k = 0; k < nout; ++k) {
      const int32_t t = static_cast<int32_t>(g.tensor_bytes.size());
      g.tensor_bytes.push_back(size());
      op.outputs.push_back(t);
    }
    if (!produced.empty() && pick(8) == 0) {  // second producer of a tensor
      const int32_t t = produced[pick(produced.size())];
      if (std::find(op.inputs.begin(), op.inputs.end(), t) == op.inputs.end())
        op.outputs.push_back(t);
    }
    if (pick(6) == 0) op.extra_bytes = 16 * static_cast<int64_t>(1 + pick(4));
    op.ordered = pick(8) == 0;
    for (int32_t t : op.outputs) {
      available.push_back(t);
      produced.push_back(t);
    }
    g.ops.push_back(op);
  }
  const size_t nout = 1 + pick(2);
  for (size_t k = 0; k < nout; ++k) g.outputs.push_back(produced[pick(produced.size())]);
  if (pick(4) == 0) {  // unproduced, unread output
    g.outputs.push_back(static_cast<int32_t>(g.tensor_bytes.size()));
    g.tensor_bytes.push_back(size());
  }
  if (pick(4) == 0) g.stateful_tensors.push_back(available[pick(available.size())]);
  return g;
}

TEST(ReorderTest, ExactMatchesBruteForceOverAllOrders) {
  std::mt19937 rng(1234);
  int improved = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const size_t n = 1 + trial % 7;
    const ReorderGraph g = RandomGraph(&rng, n);
    ASSERT_TRUE(ValidateReorderGraph(g).ok()) << ErrorOf(g);
    std::vector<int32_t> order = Identity(n);
    int64_t best = INT64_MAX;
    do {
      if (!CheckOrder(g, order).ok()) continue;
      int64_t peak = 0;
      ASSERT_TRUE(PeakOf(g, order, &peak).ok());
      best = std::min(best, peak);
    } while (std::next_permutation(order.begin(), order.end()));
    ReorderResult r;
    Status s = ReorderForPeak(g, ReorderOptions(), &r);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_TRUE(r.exact) << "trial " << trial;
    EXPECT_EQ(r.peak_after, best) << "trial " << trial;
    EXPECT_LE(r.lower_bound, best);
    EXPECT_TRUE(CheckOrder(g, r.order).ok());
    int64_t before = 0;
    ASSERT_TRUE(PeakOf(g, Identity(n), &before).ok());
    EXPECT_EQ(r.peak_before, before);
    if (best < before) {
      ++improved;
    } else {
      EXPECT_EQ(r.order, Identity(n)) << "no gain: the original order is kept";
    }
  }
  EXPECT_GT(improved, 20);  // the test graphs do exercise reordering
}

TEST(ReorderTest, BeamAloneIsValidAndNeverWorse) {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 100; ++trial) {
    const ReorderGraph g = RandomGraph(&rng, 12);
    ReorderOptions opt;
    opt.max_states = 1;  // exact search gives up at once
    ReorderResult r;
    Status s = ReorderForPeak(g, opt, &r);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_LE(r.peak_after, r.peak_before);
    EXPECT_TRUE(CheckOrder(g, r.order).ok());
    int64_t peak = 0;
    ASSERT_TRUE(PeakOf(g, r.order, &peak).ok());
    EXPECT_EQ(peak, r.peak_after);
  }
}

// Many parallel diamonds: wide enough that the exact search cannot finish.
ReorderGraph ManyDiamonds(size_t k) {
  ReorderGraph g;
  g.tensor_bytes.push_back(16);
  g.inputs = {0};
  std::vector<int32_t> ends;
  for (size_t i = 0; i < k; ++i) {
    const int32_t big = static_cast<int32_t>(g.tensor_bytes.size());
    g.tensor_bytes.push_back(160 + 16 * static_cast<int64_t>(i % 5));
    g.tensor_bytes.push_back(16);
    g.ops.push_back(Op({0}, {big}));
    ends.push_back(big + 1);
  }
  for (size_t i = 0; i < k; ++i) g.ops.push_back(Op({ends[i] - 1}, {ends[i]}));
  const int32_t out = static_cast<int32_t>(g.tensor_bytes.size());
  g.tensor_bytes.push_back(16);
  g.ops.push_back(Op(ends, {out}));
  g.outputs = {out};
  return g;
}

TEST(ReorderTest, LargeGraphIsBoundedDeterministicAndBetter) {
  const ReorderGraph g = ManyDiamonds(300);
  ReorderOptions opt;
  opt.time_limit_seconds = 0;  // counted budgets only: deterministic
  opt.max_states = 20000;
  opt.max_expansions = 4000000;
  const auto t0 = std::chrono::steady_clock::now();
  ReorderResult a, b;
  ASSERT_TRUE(ReorderForPeak(g, opt, &a).ok());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(ReorderForPeak(g, opt, &b).ok());
  EXPECT_EQ(a.order, b.order);
  EXPECT_LT(a.peak_after, a.peak_before / 10);  // every big one is freed at once
  EXPECT_LT(seconds, 30.0);
  EXPECT_TRUE(CheckOrder(g, a.order).ok());
}

// Randomly wired cell: each operator reads 1-2 of the last `window` tensors.
ReorderGraph RandomlyWired(size_t n, size_t window, uint32_t seed) {
  std::mt19937 rng(seed);
  ReorderGraph g;
  g.tensor_bytes = {1024};
  g.inputs = {0};
  for (size_t i = 0; i < n; ++i) {
    const size_t avail = g.tensor_bytes.size(), lo = avail > window ? avail - window : 0;
    ReorderOp op;
    for (size_t j = 0, k = 1 + rng() % 2; j < k; ++j)
      op.inputs.push_back(static_cast<int32_t>(lo + rng() % (avail - lo)));
    op.outputs = {static_cast<int32_t>(avail)};
    g.tensor_bytes.push_back(16 * (1 + rng() % 256));
    g.ops.push_back(op);
  }
  g.outputs = {static_cast<int32_t>(g.tensor_bytes.size() - 1)};
  return g;
}

// Regression: the exact search used to spend the whole budget when it could
// not finish, so the wider beams never ran and nothing was gained.
TEST(ReorderTest, UnfinishedExactSearchLeavesBudgetForBeams) {
  const ReorderGraph g = RandomlyWired(400, 8, 5);
  ReorderOptions opt;
  opt.time_limit_seconds = 0;  // deterministic
  opt.max_expansions = 8000000;
  ReorderResult r;
  ASSERT_TRUE(ReorderForPeak(g, opt, &r).ok());
  EXPECT_FALSE(r.exact);
  EXPECT_STREQ(r.method, "beam");
  EXPECT_LT(r.peak_after, r.peak_before * 9 / 10);
}

TEST(ReorderTest, TimeLimitStopsAHugeSearch) {
  const ReorderGraph g = ManyDiamonds(3000);
  ReorderOptions opt;
  opt.time_limit_seconds = 0.2;
  opt.max_expansions = UINT64_MAX;
  opt.max_states = UINT64_MAX;
  const auto t0 = std::chrono::steady_clock::now();
  ReorderResult r;
  ASSERT_TRUE(ReorderForPeak(g, opt, &r).ok());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 5.0);  // 0.2 s of search plus the checks (slack for sanitizers)
  EXPECT_LE(r.peak_after, r.peak_before);
  EXPECT_TRUE(CheckOrder(g, r.order).ok());
}

TEST(ReorderTest, EmptyGraph) {
  ReorderGraph g;
  g.tensor_bytes = {16, 32};
  g.inputs = {0};
  g.outputs = {1};  // unproduced output: step 0 with no operators
  ReorderResult r;
  ASSERT_TRUE(ReorderForPeak(g, ReorderOptions(), &r).ok());
  EXPECT_TRUE(r.order.empty());
  EXPECT_EQ(r.peak_before, 48);
  EXPECT_EQ(r.peak_after, 48);
  EXPECT_TRUE(r.exact);
}

}  // namespace
}  // namespace tflm_arena
