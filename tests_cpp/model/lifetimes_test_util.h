// Shared helpers of the lifetimes tests: run the computation on a built
// model and compare ranges; the reference models of TFLM's micro_allocation_info_test.cc and
// micro_allocator_test.cc.
#ifndef TFLM_ARENA_TESTS_MODEL_LIFETIMES_TEST_UTIL_H_
#define TFLM_ARENA_TESTS_MODEL_LIFETIMES_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstring>
#include <utility>
#include <vector>

#include "test_builder.h"
#include "tflm_arena/model/lifetimes.h"

namespace tflm_arena {
namespace model {
namespace lifetimes_test {

using testing::Build;
using testing::TModel;
using testing::TOp;
using testing::TOptions;
using testing::TSubgraph;
using testing::TTensor;
using Range = std::pair<Step, Step>;

inline constexpr int8_t kInt8 = static_cast<int8_t>(TensorType::kInt8);
inline constexpr int8_t kInt32 = static_cast<int8_t>(TensorType::kInt32);

inline std::vector<AllocationEntry> Compute(const TModel& t,
                                            std::vector<ScratchRequest> scratch = {}) {
  testing::Loaded loaded = testing::BuildAndLoad(t);
  const Model& m = loaded.model;
  std::vector<AllocationEntry> e(AllocationInfoCount(m, scratch.size()));
  Status s = ComputeModelAllocationInfo(
      m, Span<const ScratchRequest>(scratch.data(), scratch.size()), Span<AllocationEntry>(e));
  EXPECT_TRUE(s.ok()) << s.message();
  return e;
}

inline void ExpectRanges(const std::vector<AllocationEntry>& e, const std::vector<Range>& want) {
  ASSERT_EQ(e.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(Range(e[i].first_created, e[i].last_used), want[i]) << "entry " << i;
  }
}

inline Status ComputeStatus(const TModel& t, std::vector<ScratchRequest> scratch = {}) {
  testing::Loaded loaded = testing::BuildAndLoad(t);
  const Model& m = loaded.model;
  std::vector<AllocationEntry> e(AllocationInfoCount(m, scratch.size()));
  return ComputeModelAllocationInfo(m, Span<const ScratchRequest>(scratch.data(), scratch.size()),
                                    Span<AllocationEntry>(e));
}

inline void ExpectFails(const TModel& t, const char* substring,
                        std::vector<ScratchRequest> scratch = {}) {
  Status s = ComputeStatus(t, std::move(scratch));
  ASSERT_FALSE(s.ok()) << "expected: " << substring;
  EXPECT_NE(std::strstr(s.message(), substring), nullptr)
      << "message: " << s.message() << "\nexpected: " << substring;
}

inline TTensor Int32(std::vector<int32_t> shape = {1}) {
  TTensor t;
  t.shape = std::move(shape);
  t.type = kInt32;
  return t;
}

// micro_allocation_info_test.cc's SimpleMockModel.
inline TModel MockModel() {
  TModel t;
  t.opcodes = {testing::Builtin(0)};
  TSubgraph g;
  TTensor weight;
  weight.type = kInt8;
  weight.buffer = testing::AddConstBuffer(&t, 1);
  g.tensors = {Int32(), weight, Int32(), Int32()};
  g.inputs = {0};
  g.outputs = {2, 3};
  g.ops = {TOp{0, {0, 1}, {2}, {}}, TOp{0, {0, 1}, {3}, {}}};
  t.subgraphs = {g};
  return t;
}

// Subgraph {0,1} -> op -> {2}, as used by the IF reference models.
inline TSubgraph AddBranch(bool with_op) {
  TSubgraph g;
  g.tensors = {Int32(), Int32(), Int32()};
  g.inputs = {0, 1};
  g.outputs = {2};
  if (with_op) g.ops = {TOp{0, {0, 1}, {2}, {}}};
  return g;
}

// The IF cases of micro_allocation_info_test.cc: IF(then=1, else=2) in subgraph 0.
inline TModel IfModel(bool else_has_op, bool op_after_if) {
  TModel t;
  t.opcodes = {testing::Builtin(0), testing::Builtin(kBuiltinIf)};
  TSubgraph g;
  g.tensors = {Int32(), Int32(), Int32(), Int32()};
  g.inputs = {0, 1, 2};
  g.outputs = {3};
  TOp op_if{1, {0, 1, 2}, {3}, {}, TOptions::kIf, 1, 2};
  g.ops = {op_if};
  if (op_after_if) {
    g.tensors.push_back(Int32());
    g.ops.push_back(TOp{0, {3, 2}, {4}, {}});
    g.outputs = {4};
  }
  t.subgraphs = {g, AddBranch(true), AddBranch(else_has_op)};
  return t;
}

// Subgraph 0: CALL_ONCE(init = 3), WHILE(cond = 1, body = 2) of tensor 0
// into 1, then an operator 1 -> 2. cond and body: one operator from their
// input to their output; init: no inputs, one operator producing a tensor.
inline TModel WhileAndCallOnceModel() {
  TModel t;
  t.opcodes = {testing::Builtin(0), testing::Builtin(kBuiltinWhile),
               testing::Builtin(kBuiltinCallOnce)};
  TSubgraph g;
  g.tensors = {Int32(), Int32(), Int32()};
  g.inputs = {0};
  g.outputs = {2};
  g.ops = {TOp{2, {}, {}, {}, TOptions::kCallOnce, 3, 0},
           TOp{1, {0}, {1}, {}, TOptions::kWhile, 1, 2}, TOp{0, {1}, {2}, {}}};
  TSubgraph one_in_one_out;
  one_in_one_out.tensors = {Int32(), Int32()};
  one_in_one_out.inputs = {0};
  one_in_one_out.outputs = {1};
  one_in_one_out.ops = {TOp{0, {0}, {1}, {}}};
  TSubgraph init;
  init.tensors = {Int32()};
  init.ops = {TOp{0, {}, {0}, {}}};
  t.subgraphs = {g, one_in_one_out, one_in_one_out, init};
  return t;
}

inline TModel BranchModel() {  // micro_allocator_test.cc's tensors: float32[2,2,3] = 48 bytes each
  TModel t;
  t.opcodes = {testing::Builtin(0)};
  TSubgraph g;
  TTensor f;
  f.shape = {2, 2, 3};
  g.tensors = {f, f, f, f};
  g.inputs = {0};
  g.outputs = {3};
  g.ops = {TOp{0, {0}, {1}, {}}, TOp{0, {0}, {2}, {}}, TOp{0, {1, 2}, {3}, {}}};
  t.subgraphs = {g};
  return t;
}

}  // namespace lifetimes_test
}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TESTS_MODEL_LIFETIMES_TEST_UTIL_H_
