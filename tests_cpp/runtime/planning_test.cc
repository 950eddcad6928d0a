// Memory planning through the interpreter: offline plans, the linear planner,
// scratch buffers, persistent and temp kernel memory, plan introspection.
#include <gtest/gtest.h>

#include <string>

#include "runtime_test_util.h"
#include "tflm_arena/plan/linear_planner.h"

namespace tflm_arena {
namespace testing {
namespace {

using runtime::EvalTensor;
using runtime::Interpreter;
using runtime::InterpreterOptions;
using runtime::PlannedBuffer;

class PlanningTest : public ::testing::Test {
 protected:
  void SetUp() override { Config() = TestKernelConfig(); }
};

// float[2,2,3] = 48 B tensors (facts 3.8).
TTensor F48() { return Float({2, 2, 3}); }

// micro_allocator_test.cc's offline-plan chain t0 -> t1 -> t2 -> t3 with offsets {0, 48, 0, 48}.
TEST_F(PlanningTest, OfflinePlanIsHonoured) {
  TModel t = ChainModel({kReshapeCode}, 3, 12);
  AddOfflinePlan(&t, {0, 48, 0, 48});
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(CopyKernel());
  TestArena arena(4096);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  EXPECT_EQ(OffsetOf(it.tensor(0, 0), arena.data()), 0);
  EXPECT_EQ(OffsetOf(it.tensor(0, 1), arena.data()), 48);
  EXPECT_EQ(OffsetOf(it.tensor(0, 2), arena.data()), 0);
  EXPECT_EQ(OffsetOf(it.tensor(0, 3), arena.data()), 48);
  EXPECT_EQ(it.head_bytes(), 96u);
}

// micro_allocator_test.cc's mixed offline/online plan: op0 {t0,t1} -> t2, op1 t2 -> {t3,t4}; offsets {0,48,-1,0,-1}.
TEST_F(PlanningTest, OfflineAndOnlineMix) {
  TModel t;
  t.opcodes = {Builtin(kAddCode), Builtin(kReshapeCode)};
  TSubgraph g;
  g.tensors = {F48(), F48(), F48(), F48(), F48()};
  g.inputs = {0, 1};
  g.outputs = {3, 4};
  g.ops = {TOp{0, {0, 1}, {2}}, TOp{1, {2}, {3, 4}}};
  t.subgraphs = {g};
  AddOfflinePlan(&t, {0, 48, -1, 0, -1});
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(NopKernel(kAddCode));
  r.Add(NopKernel(kReshapeCode));
  TestArena arena(4096);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  const int64_t want[] = {0, 48, 96, 0, 48};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(OffsetOf(it.tensor(0, i), arena.data()), want[i]) << "tensor " << i;
  }
  EXPECT_EQ(static_cast<int64_t>(it.head_bytes()), ReferenceGreedyHead(l.model));
}

TEST_F(PlanningTest, OfflinePlannedVariableGoesToTheHead) {
  TModel t = ChainModel({kAddCode}, 1, 4);
  TTensor var = Float({1, 4});
  var.is_variable = true;
  t.subgraphs[0].tensors.push_back(var);  // tensor 2
  t.subgraphs[0].ops[0].inputs = {0, 2};
  AddOfflinePlan(&t, {-1, -1, 64});
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(NopKernel(kAddCode));
  TestArena arena(4096);
  InterpreterOptions o;
  o.recording = true;
  Interpreter it(l.model, r.resolver, arena.data(), arena.size(), o);
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  EXPECT_EQ(OffsetOf(it.tensor(0, 2), arena.data()), 64);
  EXPECT_EQ(it.recorded(AllocationCategory::kVariableBufferData).count, 0u);
  EXPECT_EQ(it.head_bytes(), 80u);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(it.tensor(0, 2)->data[i], 0);  // reset
}

TEST_F(PlanningTest, LinearPlannerGivesEveryBufferItsOwnBytes) {
  Loaded l = BuildAndLoad(ChainModel({kReshapeCode}, 5, 5));  // 20 B -> 32
  TestResolver r;
  r.Add(CopyKernel());
  TestArena arena(4096);
  LinearPlanner linear;
  InterpreterOptions o;
  o.planner = &linear;
  o.keep_plan = true;
  Interpreter it(l.model, r.resolver, arena.data(), arena.size(), o);
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  EXPECT_EQ(it.head_bytes(), 6u * 32u);
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(OffsetOf(it.tensor(0, i), arena.data()), static_cast<int64_t>(32 * i));
  }
  SetFloats(it.input(0), {1, 2, 3, 4, 5});
  ASSERT_TRUE(it.Invoke().ok());
  EXPECT_EQ(GetFloats(it.output(0)), (std::vector<float>{1, 2, 3, 4, 5}));
  EXPECT_EQ(GetFloats(it.tensor(0, 2)), (std::vector<float>{1, 2, 3, 4, 5}));
}

TEST_F(PlanningTest, LinearPlannerRejectsOfflinePlans) {
  TModel t = ChainModel({kReshapeCode}, 3, 12);
  AddOfflinePlan(&t, {0, 48, -1, -1});
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(CopyKernel());
  TestArena arena(4096);
  LinearPlanner linear;
  InterpreterOptions o;
  o.planner = &linear;
  Interpreter it(l.model, r.resolver, arena.data(), arena.size(), o);
  Status s = it.AllocateTensors();
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_NE(std::string(s.message()).find("tensor 0 of subgraph 0"), std::string::npos)
      << s.message();
}

TEST_F(PlanningTest, ScratchBuffersArePlannedWithTheActivations) {
  // op0 copy, op1 scratch (2 x 100 B), op2 copy; 64 B tensors.
  Config().scratch_requests = 2;
  Config().scratch_bytes = 100;
  Loaded l = BuildAndLoad(ChainModel({kReshapeCode, kConvCode}, 3, 16));
  TestResolver r;
  r.Add(CopyKernel());
  r.Add(ScratchKernel());
  TestArena arena(8192);
  InterpreterOptions o;
  o.keep_plan = true;
  Interpreter it(l.model, r.resolver, arena.data(), arena.size(), o);
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  EXPECT_EQ(it.scratch_buffer_count(), 2u);
  std::vector<model::ScratchRequest> scratch(2);
  scratch[0] = model::ScratchRequest{100, 1, 0};
  scratch[1] = model::ScratchRequest{100, 1, 0};
  EXPECT_EQ(static_cast<int64_t>(it.head_bytes()), ReferenceGreedyHead(l.model, scratch));
  EXPECT_EQ(it.head_bytes(), 64u + 64u + 112u + 112u);
  ASSERT_EQ(it.planned_buffer_count(), 6u);
  PlannedBuffer b;
  ASSERT_TRUE(it.planned_buffer(4, &b).ok());
  EXPECT_EQ(b.tensor, -1);
  EXPECT_EQ(b.scratch_index, 0);
  EXPECT_EQ(b.size, 112);
  EXPECT_EQ(b.first, 2);
  EXPECT_EQ(b.last, 2);
  ASSERT_TRUE(it.planned_buffer(0, &b).ok());
  EXPECT_EQ(b.tensor, 0);
  EXPECT_EQ(b.scratch_index, -1);
  EXPECT_EQ(b.offset, OffsetOf(it.tensor(0, 0), arena.data()));
  EXPECT_EQ(b.first, 0);
  EXPECT_EQ(b.last, 1);
  EXPECT_EQ(it.planned_buffer(6, &b).code(), StatusCode::kOutOfRange);
  SetFloats(it.input(0), std::vector<float>(16, 2.5f));
  ASSERT_TRUE(it.Invoke().ok());
  EXPECT_EQ(GetFloats(it.output(0)), std::vector<float>(16, 2.5f));
  const uint8_t* scratch0 = static_cast<uint8_t*>(Config().last_scratch);
  ASSERT_NE(scratch0, nullptr);
  ASSERT_TRUE(it.planned_buffer(4, &b).ok());
  EXPECT_EQ(scratch0, arena.data() + b.offset);
}

TEST_F(PlanningTest, PlanRecordsCostTailBytesOnlyWhenKept) {
  Loaded l = BuildAndLoad(ChainModel({kReshapeCode}, 4, 4));
  TestResolver r;
  r.Add(CopyKernel());
  TestArena a1(4096), a2(4096);
  Interpreter plain(l.model, r.resolver, a1.data(), a1.size());
  InterpreterOptions o;
  o.keep_plan = true;
  Interpreter kept(l.model, r.resolver, a2.data(), a2.size(), o);
  ASSERT_TRUE(plain.AllocateTensors().ok());
  ASSERT_TRUE(kept.AllocateTensors().ok());
  EXPECT_EQ(plain.planned_buffer_count(), 5u);
  PlannedBuffer b;
  EXPECT_EQ(plain.planned_buffer(0, &b).code(), StatusCode::kFailedPrecondition);
  EXPECT_GE(kept.tail_bytes(), plain.tail_bytes() + 5 * 28);
  EXPECT_LE(kept.tail_bytes(), plain.tail_bytes() + 5 * 28 + 8);
}

TEST_F(PlanningTest, ThirteenScratchRequestsAreRefused) {
  Config().scratch_requests = 13;
  Loaded l = BuildAndLoad(ChainModel({kConvCode}, 1, 4));
  TestResolver r;
  r.Add(ScratchKernel());
  TestArena arena(8192);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  Status s = it.AllocateTensors();
  EXPECT_EQ(s.code(), StatusCode::kOutOfRange);
  EXPECT_NE(std::string(s.message()).find("exceeds the limit per operator (12)"),
            std::string::npos)
      << s.message();
  // Twelve per node is fine, on every node.
  Config().scratch_requests = 12;
  Loaded l3 = BuildAndLoad(ChainModel({kConvCode}, 3, 4));
  Interpreter ok(l3.model, r.resolver, arena.data(), arena.size());
  ASSERT_TRUE(ok.AllocateTensors().ok()) << ok.status().message();
  EXPECT_EQ(ok.scratch_buffer_count(), 36u);
  ASSERT_TRUE(ok.Invoke().ok());
}

TEST_F(PlanningTest, PersistentBuffersAreRecordedAndAligned) {
  Config().persistent_bytes = 40;
  Loaded l = BuildAndLoad(ChainModel({kFcCode}, 3, 4));
  TestResolver r;
  r.Add(PersistentKernel());
  TestArena arena(4096);
  InterpreterOptions o;
  o.recording = true;
  Interpreter it(l.model, r.resolver, arena.data(), arena.size(), o);
  ASSERT_TRUE(it.AllocateTensors().ok());
  const RecordedAllocation p = it.recorded(AllocationCategory::kPersistentBufferData);
  EXPECT_EQ(p.count, 3u);
  EXPECT_EQ(p.requested_bytes, 120u);
  EXPECT_EQ(p.used_bytes, 144u);  // 40 -> 48 with 16-byte alignment
  ASSERT_TRUE(it.Invoke().ok());
  ASSERT_TRUE(it.Invoke().ok());
  EXPECT_EQ(Config().invoke_calls, 6);
}

TEST_F(PlanningTest, TempBuffersAreReleasedAfterPrepare) {
  Config().temp_bytes = 1000;
  Loaded l = BuildAndLoad(ChainModel({kSoftmaxCode}, 3, 4));
  TestResolver r;
  r.Add(TempKernel());
  TestArena arena(8192);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  // Temp of one node at a time: the peak includes 1000 B once, not 3 times.
  EXPECT_GE(it.required_arena_bytes(), it.used_bytes());
  EXPECT_LT(it.required_arena_bytes(), it.tail_bytes() + 192 + 1000 + 16 + 64);
  EXPECT_EQ(it.head_bytes(), 32u);
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
