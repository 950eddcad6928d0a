// Writing a model copy with subgraph 0's operators in a new order: the copy
// verifies, runs the permuted Operator tables, keeps every tensor, name and
// buffer, has the lifetimes of the new order, and refuses invalid orders and
// offline plans the new order would break.
#include "tflm_arena/model/operator_order_writer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "test_builder.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/model/operator_graph.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/reorder.h"

namespace tflm_arena {
namespace model {
namespace {

// x -> A1 (big) -> A2; x -> B1 (big) -> B2; A2, B2 -> out (float tensors).
testing::TModel Diamond() {
  testing::TModel t;
  t.opcodes = {testing::Builtin(0)};  // ADD: the kind does not matter here
  t.description = "diamond";
  testing::TSubgraph g;
  g.name = "main";
  for (int i = 0; i < 6; ++i) {
    testing::TTensor tensor;
    tensor.shape = {(i == 1 || i == 2) ? 40 : 4};  // 160 or 16 bytes
    tensor.name = "t" + std::to_string(i);
    g.tensors.push_back(tensor);
  }
  g.inputs = {0};
  g.outputs = {5};
  auto op = [](std::vector<int32_t> in, std::vector<int32_t> out) {
    testing::TOp o;
    o.inputs = in;
    o.outputs = out;
    return o;
  };
  g.ops = {op({0}, {1}), op({0}, {2}), op({1}, {3}), op({2}, {4}), op({3, 4}, {5})};
  t.subgraphs = {g};
  return t;
}

std::vector<uint8_t> Write(const std::vector<uint8_t>& in, const std::vector<int32_t>& order,
                           bool drop, Status* status) {
  std::vector<uint8_t> out;
  *status = WriteOperatorOrder(in.data(), in.size(),
                               Span<const int32_t>(order.data(), order.size()), drop, &out);
  return out;
}

std::vector<UsageRecord> Records(const Model& m) {
  std::vector<AllocationEntry> e(AllocationInfoCount(m, 0));
  EXPECT_TRUE(ComputeModelAllocationInfo(m, Span<const ScratchRequest>(),
                                         Span<AllocationEntry>(e.data(), e.size()))
                  .ok());
  std::vector<UsageRecord> r(PlannedBufferCount(Span<const AllocationEntry>(e.data(), e.size())));
  size_t n = 0;
  EXPECT_TRUE(BuildUsageRecords(Span<const AllocationEntry>(e.data(), e.size()),
                                Span<UsageRecord>(r.data(), r.size()), Span<uint32_t>(), &n)
                  .ok());
  return r;
}

std::vector<int32_t> Vec(Span<const int32_t> s) { return std::vector<int32_t>(s.begin(), s.end()); }

TEST(OperatorOrderWriter, PermutesOperatorsAndKeepsTheRest) {
  const std::vector<uint8_t> bytes = testing::Build(Diamond());
  const Model original = testing::MustLoad(bytes);
  const std::vector<int32_t> order = {0, 2, 1, 3, 4};
  Status s;
  const std::vector<uint8_t> out = Write(bytes, order, false, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  const Model m = testing::MustLoad(out);
  ASSERT_EQ(m.num_operators(0), 5u);
  for (size_t k = 0; k < order.size(); ++k) {
    OperatorInfo a, b;
    ASSERT_TRUE(original.op(0, order[k], &a).ok());
    ASSERT_TRUE(m.op(0, k, &b).ok());
    EXPECT_EQ(Vec(a.inputs), Vec(b.inputs)) << k;
    EXPECT_EQ(Vec(a.outputs), Vec(b.outputs)) << k;
    EXPECT_EQ(a.builtin_code, b.builtin_code);
  }
  SubgraphInfo ga, gb;
  ASSERT_TRUE(original.subgraph(0, &ga).ok());
  ASSERT_TRUE(m.subgraph(0, &gb).ok());
  EXPECT_STREQ(gb.name, "main");
  EXPECT_EQ(Vec(ga.inputs), Vec(gb.inputs));
  EXPECT_EQ(Vec(ga.outputs), Vec(gb.outputs));
  EXPECT_STREQ(m.description(), "diamond");
  ASSERT_EQ(m.num_tensors(0), original.num_tensors(0));
  for (size_t t = 0; t < m.num_tensors(0); ++t) {
    TensorInfo a, b;
    ASSERT_TRUE(original.tensor(0, t, &a).ok());
    ASSERT_TRUE(m.tensor(0, t, &b).ok());
    EXPECT_STREQ(a.name, b.name);
    EXPECT_EQ(Vec(a.shape), Vec(b.shape));
  }
  // Lifetimes follow the new order; the peak is what plan/reorder predicts.
  const std::vector<UsageRecord> before = Records(original), after = Records(m);
  EXPECT_EQ(LowerBound(Span<const UsageRecord>(before.data(), before.size())), 336);
  EXPECT_EQ(LowerBound(Span<const UsageRecord>(after.data(), after.size())), 192);
  ReorderGraph graph;
  ASSERT_TRUE(BuildOperatorGraph(original, &graph).ok());
  int64_t peak = 0;
  ASSERT_TRUE(OrderPeak(graph, Span<const int32_t>(order.data(), order.size()), &peak).ok());
  EXPECT_EQ(peak, 192);
  ReorderResult r;
  ASSERT_TRUE(ReorderForPeak(graph, ReorderOptions(), &r).ok());
  EXPECT_EQ(r.order, order);
}

TEST(OperatorOrderWriter, ScratchRequestsAreLiveDuringTheirOperator) {
  const std::vector<uint8_t> bytes = testing::Build(Diamond());
  const Model m = testing::MustLoad(bytes);
  // 2000 bytes on B1 (node 1), 8 on the join (node 4).
  const std::vector<ScratchRequest> scratch = {{2000, 1, 0}, {8, 4, 0}};
  ReorderGraph graph;
  ASSERT_TRUE(
      BuildOperatorGraph(m, Span<const ScratchRequest>(scratch.data(), scratch.size()), &graph)
          .ok());
  EXPECT_EQ(graph.ops[1].extra_bytes, 2000);
  EXPECT_EQ(graph.ops[4].extra_bytes, 16);  // aligned as TFLM's records
  EXPECT_EQ(graph.ops[0].extra_bytes, 0);
  ReorderResult r;
  ASSERT_TRUE(ReorderForPeak(graph, ReorderOptions(), &r).ok());
  EXPECT_EQ(r.order[0], 1);  // B1 runs before A1 exists (several orders tie after that)
  EXPECT_TRUE(r.exact);
  EXPECT_EQ(r.peak_before, 16 + 160 + 160 + 2000);
  EXPECT_EQ(r.peak_after, 16 + 160 + 2000);
  // The records TFLM builds for the written model (scratch nodes moved with
  // their operators) have exactly that peak.
  Status s;
  const std::vector<uint8_t> out = Write(bytes, r.order, false, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  const Model w = testing::MustLoad(out);
  ASSERT_EQ(r.order[4], 4);
  const std::vector<ScratchRequest> moved = {{2000, 0, 0}, {8, 4, 0}};
  std::vector<AllocationEntry> e(AllocationInfoCount(w, moved.size()));
  ASSERT_TRUE(ComputeModelAllocationInfo(w, Span<const ScratchRequest>(moved.data(), moved.size()),
                                         Span<AllocationEntry>(e.data(), e.size()))
                  .ok());
  std::vector<UsageRecord> rec(PlannedBufferCount(Span<const AllocationEntry>(e.data(), e.size())));
  size_t n = 0;
  ASSERT_TRUE(BuildUsageRecords(Span<const AllocationEntry>(e.data(), e.size()),
                                Span<UsageRecord>(rec.data(), rec.size()), Span<uint32_t>(), &n)
                  .ok());
  EXPECT_EQ(LowerBound(Span<const UsageRecord>(rec.data(), rec.size())), r.peak_after);
  const std::vector<ScratchRequest> bad = {{16, 7, 0}};
  EXPECT_STREQ(
      BuildOperatorGraph(m, Span<const ScratchRequest>(bad.data(), bad.size()), &graph).message(),
      "scratch request 0: node 7 out of range (subgraph 0 has 5 operators)");
}

TEST(OperatorOrderWriter, RefusesOrdersThatAreNotPermutations) {
  const std::vector<uint8_t> bytes = testing::Build(Diamond());
  Status s;
  Write(bytes, {0, 1, 2, 3}, false, &s);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(), "order has 4 entries, subgraph 0 has 5 operators");
  Write(bytes, {0, 1, 2, 3, 7}, false, &s);
  EXPECT_STREQ(s.message(), "order[4] = 7 is not an operator index (0..4)");
  Write(bytes, {0, 1, -1, 3, 4}, false, &s);
  EXPECT_STREQ(s.message(), "order[2] = -1 is not an operator index (0..4)");
  Write(bytes, {0, 1, 2, 2, 4}, false, &s);
  EXPECT_STREQ(s.message(), "operator 2 appears twice in the order");
}

// Dependencies are checked by the caller (plan/, which model/ does not
// link): the writer's graph and plan's order check refuse what the
// bindings refuse before writing.
TEST(OperatorOrderWriter, DependencyCheckIsTheCallersOnTheWritersGraph) {
  const std::vector<uint8_t> bytes = testing::Build(Diamond());
  const Model m = testing::MustLoad(bytes);
  ReorderGraph graph;
  ASSERT_TRUE(BuildOperatorGraph(m, &graph).ok());
  const std::vector<int32_t> bad = {2, 0, 1, 3, 4};
  const Status s = CheckOperatorOrder(graph, Span<const int32_t>(bad.data(), bad.size()));
  EXPECT_STREQ(s.message(),
               "operator 2 reads tensor 1 but runs before operator 0, which produces it");
}

TEST(OperatorOrderWriter, OfflinePlanKeptOnlyWhileValid) {
  // x and A2 never live together in the original order, so a plan may put
  // both at 0; the new order keeps x alive while A2 is made.
  testing::TModel t = Diamond();
  testing::AddOfflinePlan(&t, {0, -1, -1, 0, -1, -1});
  const std::vector<uint8_t> bytes = testing::Build(t);
  Status s;
  Write(bytes, {0, 2, 1, 3, 4}, false, &s);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(
      s.message(),
      "the model's offline plan is not valid in the new operator order: planned buffers 0 and 3 "
      "would share bytes while both live (drop the plan to reorder)");
  std::vector<uint8_t> dropped = Write(bytes, {0, 2, 1, 3, 4}, true, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  const Model m = testing::MustLoad(dropped);
  OfflinePlanView view;
  bool present = true;
  ASSERT_TRUE(DecodeOfflinePlan(m, &view, &present).ok());
  EXPECT_FALSE(present);
  EXPECT_EQ(m.num_metadata(), 0u);

  // A plan the new order does not break is kept as is.
  testing::TModel ok = Diamond();
  testing::AddOfflinePlan(&ok, {0, -1, -1, -1, -1, 16});
  const std::vector<uint8_t> ok_bytes = testing::Build(ok);
  std::vector<uint8_t> kept = Write(ok_bytes, {0, 2, 1, 3, 4}, false, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  const Model k = testing::MustLoad(kept);
  ASSERT_TRUE(DecodeOfflinePlan(k, &view, &present).ok());
  ASSERT_TRUE(present);
  EXPECT_EQ(view.offset(0), 0);
  EXPECT_EQ(view.offset(5), 16);
  EXPECT_EQ(view.offset(3), -1);
}

TEST(OperatorOrderWriter, ControlFlowIsNotSupported) {
  testing::TModel t;
  t.opcodes = {testing::Builtin(118)};  // IF
  testing::TSubgraph main, branch;
  main.tensors.resize(3);
  main.inputs = {0, 1};
  main.outputs = {2};
  testing::TOp op;
  op.inputs = {0, 1};
  op.outputs = {2};
  op.options = testing::TOptions::kIf;
  op.sub_a = 1;
  op.sub_b = 1;
  main.ops = {op};
  branch.tensors.resize(1);
  branch.inputs = {0};
  branch.outputs = {0};
  t.subgraphs = {main, branch};
  t.subgraphs[0].tensors[0].type = 6;  // BOOL condition
  const std::vector<uint8_t> bytes = testing::Build(t);
  Status s;
  Write(bytes, {0}, false, &s);
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_STREQ(
      s.message(),
      "subgraph 0 operator 0 (IF) invokes subgraph 1: reordering operators with control flow is "
      "not supported");
}

// Every shared model: the identity order rewrites to the same lifetimes, and
// the search's best order gives records whose lower bound is its peak.
TEST(OperatorOrderWriter, SharedModelsKeepRecordsAndReachThePredictedPeak) {
  for (const char* name :
       {"person_detect.tflite", "keyword_scrambled.tflite", "trained_lstm_int8.tflite",
        "ad01_int8.tflite", "kws_ref_model.tflite"}) {
    std::vector<uint8_t> bytes;
    TFLM_ARENA_LOAD_SHARED_OR_SKIP(name, bytes);
    const Model original = testing::MustLoad(bytes);
    ReorderGraph graph;
    ASSERT_TRUE(BuildOperatorGraph(original, &graph).ok()) << name;
    ReorderResult r;
    Status s = ReorderForPeak(graph, ReorderOptions(), &r);
    ASSERT_TRUE(s.ok()) << name << ": " << s.message();
    const std::vector<UsageRecord> before = Records(original);
    EXPECT_EQ(r.peak_before, LowerBound(Span<const UsageRecord>(before.data(), before.size())))
        << name;
    std::vector<int32_t> identity(original.num_operators(0));
    for (size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<int32_t>(i);
    std::vector<uint8_t> same = Write(bytes, identity, false, &s);
    ASSERT_TRUE(s.ok()) << name << ": " << s.message();
    const Model m_same = testing::MustLoad(same);
    const std::vector<UsageRecord> same_records = Records(m_same);
    ASSERT_EQ(same_records.size(), before.size());
    for (size_t i = 0; i < before.size(); ++i) {
      EXPECT_EQ(same_records[i].size, before[i].size);
      EXPECT_EQ(same_records[i].first_step, before[i].first_step);
      EXPECT_EQ(same_records[i].last_step, before[i].last_step);
    }
    std::vector<uint8_t> best = Write(bytes, r.order, false, &s);
    ASSERT_TRUE(s.ok()) << name << ": " << s.message();
    const Model m_best = testing::MustLoad(best);
    const std::vector<UsageRecord> after = Records(m_best);
    EXPECT_EQ(r.peak_after, LowerBound(Span<const UsageRecord>(after.data(), after.size())))
        << name;
    EXPECT_LE(r.peak_after, r.peak_before);
  }
}

}  // namespace
}  // namespace model
}  // namespace tflm_arena
