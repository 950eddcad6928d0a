// Lifetimes against TFLM's reference cases (micro_allocation_info_test.cc,
// and micro_allocator_test.cc's placement tests), scratch buffers, the
// needs-allocating rules, the planner input, and the failure paths. Control flow: lifetimes_control_flow_test.cc.
#include "lifetimes_test_util.h"

namespace tflm_arena {
namespace model {
namespace lifetimes_test {
namespace {

TEST(Lifetimes, TL1_SimpleMockModel) {
  std::vector<AllocationEntry> e = Compute(MockModel());
  ExpectRanges(e, {{0, 2}, {-1, 2}, {1, 2}, {2, 2}});
  EXPECT_TRUE(e[0].needs_allocating);
  EXPECT_FALSE(e[1].needs_allocating);  // constant weight
  EXPECT_EQ(e[0].bytes, 4u);
  EXPECT_EQ(e[1].bytes, 1u);
  EXPECT_EQ(e[3].index, 3u);
  EXPECT_FALSE(e[3].is_scratch);
}

TEST(Lifetimes, TL2_StatefulModelWithEmptyIntermediate) {
  TModel t;
  t.opcodes = {testing::Builtin(0)};
  TSubgraph g;
  TTensor i8;
  i8.type = kInt8;
  i8.shape = {3};
  TTensor empty;
  empty.shape = {0};
  g.tensors = {i8, i8, Int32(), empty};
  g.inputs = {0};
  g.outputs = {1, 2};
  g.ops = {TOp{0, {0}, {1, 2}, {3}}};
  t.subgraphs = {g};
  std::vector<AllocationEntry> e = Compute(t);
  ExpectRanges(e, {{0, 1}, {1, 1}, {1, 1}, {-1, -1}});
  EXPECT_TRUE(e[0].needs_allocating);
  EXPECT_TRUE(e[1].needs_allocating);
  EXPECT_TRUE(e[2].needs_allocating);
  EXPECT_FALSE(e[3].needs_allocating);  // zero bytes
  EXPECT_EQ(e[3].bytes, 0u);
}

TEST(Lifetimes, TP1_BranchModelAndPlannerInput) {
  std::vector<AllocationEntry> e = Compute(BranchModel());
  ExpectRanges(e, {{0, 2}, {1, 3}, {2, 3}, {3, 3}});
  std::vector<UsageRecord> records(PlannedBufferCount(Span<const AllocationEntry>(e)));
  std::vector<uint32_t> map(records.size());
  size_t n = 0;
  ASSERT_TRUE(BuildUsageRecords(Span<const AllocationEntry>(e),
                                Span<UsageRecord>(records),
                                Span<uint32_t>(map), &n)
                  .ok());
  ASSERT_EQ(n, 4u);
  for (size_t k = 0; k < n; ++k) {
    EXPECT_EQ(records[k].size, 48);
    EXPECT_EQ(records[k].fixed_offset, kOnlineOffset);
    EXPECT_EQ(map[k], k);
  }
  EXPECT_EQ(records[1].first_step, 1);
  EXPECT_EQ(records[1].last_step, 3);
}

TEST(Lifetimes, PlannerInputSkipsUnplannedAndAlignsTo16) {
  TModel t = MockModel();  // 4-byte activations, 1-byte constant weight
  testing::AddOfflinePlan(&t, {-1, 32, 64, -1});
  std::vector<AllocationEntry> e = Compute(t);
  EXPECT_EQ(e[1].offline_offset, 32);  // consumed but ignored (constant)
  std::vector<UsageRecord> records(3);
  std::vector<uint32_t> map(3);
  size_t n = 0;
  ASSERT_TRUE(BuildUsageRecords(Span<const AllocationEntry>(e),
                                Span<UsageRecord>(records),
                                Span<uint32_t>(map), &n)
                  .ok());
  ASSERT_EQ(n, 3u);
  EXPECT_EQ(map[0], 0u);
  EXPECT_EQ(map[1], 2u);
  EXPECT_EQ(map[2], 3u);
  EXPECT_EQ(records[0].size, 16);
  EXPECT_EQ(records[1].fixed_offset, 64);
  EXPECT_EQ(records[2].fixed_offset, kOnlineOffset);
  // Too small an output array is an error, not an overflow.
  Status s = BuildUsageRecords(Span<const AllocationEntry>(e),
                               Span<UsageRecord>(records.data(), 2), {}, &n);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
}

TEST(Lifetimes, VariablesAndOfflineOffsets) {
  TModel t = BranchModel();
  t.subgraphs[0].tensors[1].is_variable = true;
  t.subgraphs[0].tensors[2].is_variable = true;
  std::vector<AllocationEntry> e = Compute(t);
  EXPECT_FALSE(e[1].needs_allocating);  // variables live in the tail
  EXPECT_FALSE(e[2].needs_allocating);
  testing::AddOfflinePlan(&t, {-1, 96, -1, -1});
  e = Compute(t);
  EXPECT_TRUE(e[1].needs_allocating);  // offline offset forces it in
  EXPECT_EQ(e[1].offline_offset, 96);
  EXPECT_FALSE(e[2].needs_allocating);
}

TEST(Lifetimes, UnreferencedAndUnproducedTensors) {
  TModel t = BranchModel();
  t.subgraphs[0].tensors.push_back(t.subgraphs[0].tensors[0]);  // t4: unused
  t.subgraphs[0].tensors.push_back(t.subgraphs[0].tensors[0]);  // t5: read only
  t.subgraphs[0].ops[2].inputs.push_back(5);
  std::vector<AllocationEntry> e = Compute(t);
  EXPECT_EQ(Range(e[4].first_created, e[4].last_used), Range(-1, -1));  // unreferenced
  EXPECT_TRUE(e[4].needs_allocating);
  EXPECT_EQ(Range(e[5].first_created, e[5].last_used), Range(-1, 3));  // read, never produced
  EXPECT_TRUE(e[5].needs_allocating);
}

TEST(Lifetimes, ScratchBuffersFollowTheirNode) {
  TModel t = BranchModel();
  std::vector<ScratchRequest> scratch = {{100, 1, 0}, {7, 0, 0}, {33, 2, 0}};
  std::vector<AllocationEntry> e = Compute(t, scratch);
  ASSERT_EQ(e.size(), 7u);
  EXPECT_EQ(Range(e[4].first_created, e[4].last_used), Range(2, 2));
  EXPECT_EQ(Range(e[5].first_created, e[5].last_used), Range(1, 1));
  EXPECT_EQ(Range(e[6].first_created, e[6].last_used), Range(3, 3));
  EXPECT_EQ(e[4].bytes, 100u);
  EXPECT_TRUE(e[4].is_scratch);
  EXPECT_TRUE(e[4].needs_allocating);
  EXPECT_EQ(e[4].offline_offset, -1);
  EXPECT_EQ(e[6].index, 2u);
}

// Cases where TFLM versions differed (inputs' last_used at subgraph start;
// outputs' first_created at the END, not the start). The expected lifetimes
// reproduce the arena heads measured with the installed tflite-micro
// package (print_allocations, float32[1,256] = 1024 B tensors):
// chain 2048 B, unused input 3072 B, early output 3072 B.
TEST(Lifetimes, MatchesInstalledTflmOnInputOutputEdgeCases) {
  TModel t;
  t.opcodes = {testing::Builtin(19)};  // RELU
  TTensor f;
  f.shape = {1, 256};
  TSubgraph chain;
  chain.tensors = {f, f, f};
  chain.inputs = {0};
  chain.outputs = {2};
  chain.ops = {TOp{0, {0}, {1}, {}}, TOp{0, {1}, {2}, {}}};
  t.subgraphs = {chain};
  ExpectRanges(Compute(t), {{0, 1}, {1, 2}, {2, 2}});
  TSubgraph unused_input;
  TTensor big;
  big.shape = {1, 512};
  unused_input.tensors = {f, big, f};
  unused_input.inputs = {0, 1};
  unused_input.outputs = {2};
  unused_input.ops = {TOp{0, {0}, {2}, {}}};
  t.subgraphs = {unused_input};
  ExpectRanges(Compute(t), {{0, 1}, {0, 0}, {1, 1}});
  TSubgraph early_output;
  early_output.tensors = {f, f, f, f};
  early_output.inputs = {0};
  early_output.outputs = {1, 3};
  early_output.ops = {TOp{0, {0}, {2}, {}}, TOp{0, {2}, {3}, {}},
                      TOp{0, {0}, {1}, {}}};
  t.subgraphs = {early_output};
  ExpectRanges(Compute(t), {{0, 3}, {3, 3}, {1, 2}, {2, 3}});
}

TEST(Lifetimes, Failures) {
  TModel t = MockModel();
  t.subgraphs[0].ops[0].intermediates = {2};
  ExpectFails(t, "subgraph 0 operator 0: intermediate tensor 2 has 4 bytes");
  t = MockModel();
  t.subgraphs[0].tensors[3].type = static_cast<int8_t>(TensorType::kString);
  ExpectFails(t, "subgraph 0 tensor 3: type STRING (5) has no element size");
  t = MockModel();
  ExpectFails(t, "scratch request 0: node 2 out of range (subgraph 0 has 2 operators)",
              {{4, 2, 0}});
  ExpectFails(t, "scratch request 1: subgraph 1 out of range", {{4, 0, 0}, {4, 0, 1}});
  testing::AddOfflinePlanWords(&t, {0, 1, 3, 0, 0, 0});
  ExpectFails(t, "header says 3 offsets, the model has 4 tensors");
}

TEST(Lifetimes, ExternalBufferIsUnimplemented) {
  TModel t = MockModel();
  testing::TBuffer ext;
  ext.offset = 8;  // inside the file: loads fine
  ext.size = 4;
  t.buffers.push_back(ext);
  t.subgraphs[0].tensors[1].buffer = static_cast<uint32_t>(t.buffers.size() - 1);
  Status s = ComputeStatus(t);
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_NE(std::strstr(s.message(), "external"), nullptr) << s.message();
}

TEST(Lifetimes, OutputArrayMustMatch) {
  testing::Loaded loaded = testing::BuildAndLoad(MockModel());
  const Model& m = loaded.model;
  std::vector<AllocationEntry> e(3);
  Status s = ComputeModelAllocationInfo(m, {}, Span<AllocationEntry>(e));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  Model empty;
  s = ComputeModelAllocationInfo(empty, {}, Span<AllocationEntry>());
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace lifetimes_test
}  // namespace model
}  // namespace tflm_arena
