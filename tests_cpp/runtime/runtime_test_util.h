// Shared helpers of the runtime tests: aligned arenas with guard bytes,
// resolvers that own their test registrations, small models, and the
// reference head size (TFLM greedy over the model's usage records).
#ifndef TFLM_ARENA_TESTS_CPP_RUNTIME_RUNTIME_TEST_UTIL_H_
#define TFLM_ARENA_TESTS_CPP_RUNTIME_RUNTIME_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <optional>
#include <set>
#include <vector>

#include "test_builder.h"
#include "test_kernels.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/op_resolver.h"

namespace tflm_arena {
namespace testing {

constexpr int8_t kFloat32 = 0;
constexpr int8_t kInt8Type = 9;

// `size` bytes starting at a 16-aligned address + `misalign`, followed by
// guard bytes that must stay untouched.
class TestArena {
 public:
  static constexpr size_t kGuard = 64;
  static constexpr uint8_t kGuardByte = 0xA5;
  explicit TestArena(size_t size, size_t misalign = 0)
      : storage_(size + misalign + kGuard + 16, kGuardByte), size_(size) {
    uintptr_t p = reinterpret_cast<uintptr_t>(storage_.data());
    data_ = storage_.data() + ((16 - p % 16) % 16) + misalign;
  }
  uint8_t* data() { return data_; }
  size_t size() const { return size_; }
  bool GuardIntact() const {
    for (size_t i = 0; i < kGuard; ++i) {
      if (data_[size_ + i] != kGuardByte) return false;
    }
    return true;
  }
  uint8_t* end() { return data_ + size_; }

 private:
  std::vector<uint8_t> storage_;
  uint8_t* data_;
  size_t size_;
};

// A resolver plus the registrations it points at.
struct TestResolver {
  std::array<runtime::KernelRegistration, 64> registrations;
  size_t count = 0;
  runtime::MutableOpResolver<64> resolver;
  void Add(const runtime::KernelRegistration& r) {
    registrations[count] = r;
    Status s = resolver.AddBuiltin(registrations[count]);
    ASSERT_TRUE(s.ok()) << s.message();
    ++count;
  }
  TestResolver() = default;
  TestResolver(const TestResolver&) = delete;
  TestResolver& operator=(const TestResolver&) = delete;
};

// A model of copy kernels (CopyKernel) ready to run: loaded, resolved, and
// an interpreter over its own `arena_bytes` arena.
struct CopyRun {
  CopyRun(const TModel& t, size_t arena_bytes) : l(BuildAndLoad(t)), arena(arena_bytes) {
    r.Add(CopyKernel());
    it.emplace(l.model, r.resolver, arena.data(), arena.size());
  }
  Loaded l;
  TestResolver r;
  TestArena arena;
  std::optional<runtime::Interpreter> it;
};

// Nop kernels for every builtin code the model uses (SVDF: with TFLM's
// scratch requests when `svdf_scratch`).
inline void AddNopKernelsFor(const model::Model& m, TestResolver* r, bool svdf_scratch = false) {
  std::set<model::BuiltinCode> codes;
  for (size_t sg = 0; sg < m.num_subgraphs(); ++sg) {
    for (size_t i = 0; i < m.num_operators(sg); ++i) {
      model::OperatorInfo op;
      ASSERT_TRUE(m.op(sg, i, &op).ok());
      codes.insert(op.builtin_code);
    }
  }
  for (model::BuiltinCode c : codes) {
    r->Add(svdf_scratch && c == kSvdfCode ? SvdfScratchKernel(c) : NopKernel(c));
  }
}

inline TTensor Float(std::vector<int32_t> shape) {
  TTensor t;
  t.shape = std::move(shape);
  t.type = kFloat32;
  return t;
}

// in0, in1 -> ADD -> t2 -> RESHAPE -> t3 (output); float[1,4] each.
// Opcodes: 0 = ADD, 1 = RESHAPE.
inline TModel AddReshapeModel() {
  TModel m;
  m.opcodes = {Builtin(kAddCode), Builtin(kReshapeCode)};
  TSubgraph g;
  g.tensors = {Float({1, 4}), Float({1, 4}), Float({1, 4}), Float({1, 4})};
  g.inputs = {0, 1};
  g.outputs = {3};
  g.ops = {TOp{0, {0, 1}, {2}}, TOp{1, {2}, {3}}};
  m.subgraphs = {g};
  return m;
}

// A chain of `n` ops, each opcode `opcodes[i % opcodes.size()]`, over float
// tensors of `elements` elements: t0 -> op0 -> t1 -> ... -> tn.
inline TModel ChainModel(const std::vector<model::BuiltinCode>& codes, size_t n, int32_t elements) {
  TModel m;
  for (model::BuiltinCode c : codes) m.opcodes.push_back(Builtin(c));
  TSubgraph g;
  for (size_t i = 0; i <= n; ++i) g.tensors.push_back(Float({1, elements}));
  g.inputs = {0};
  g.outputs = {static_cast<int32_t>(n)};
  for (size_t i = 0; i < n; ++i) {
    g.ops.push_back(TOp{static_cast<uint32_t>(i % codes.size()),
                        {static_cast<int32_t>(i)},
                        {static_cast<int32_t>(i + 1)}});
  }
  m.subgraphs = {g};
  return m;
}

// Head size TFLM's greedy planner gives for the model's tensors plus
// `scratch` requests (lifetimes, records and plan from the other layers).
inline int64_t ReferenceGreedyHead(const model::Model& m,
                                   const std::vector<model::ScratchRequest>& scratch = {}) {
  std::vector<model::AllocationEntry> e(model::AllocationInfoCount(m, scratch.size()));
  Status s = model::ComputeModelAllocationInfo(
      m, Span<const model::ScratchRequest>(scratch.data(), scratch.size()),
      Span<model::AllocationEntry>(e));
  EXPECT_TRUE(s.ok()) << s.message();
  std::vector<UsageRecord> records(
      model::PlannedBufferCount(Span<const model::AllocationEntry>(e.data(), e.size())));
  size_t count = 0;
  s = model::BuildUsageRecords(Span<const model::AllocationEntry>(e.data(), e.size()),
                               Span<UsageRecord>(records), Span<uint32_t>(), &count);
  EXPECT_TRUE(s.ok()) << s.message();
  PlanResult plan;
  s = PlanTflmGreedy(Span<const UsageRecord>(records.data(), count), &plan);
  EXPECT_TRUE(s.ok()) << s.message();
  return plan.arena_bytes;
}

// Offset of a tensor's data from the arena head start (arena start, 16-aligned).
inline int64_t OffsetOf(const runtime::EvalTensor* t, const uint8_t* arena) {
  return t == nullptr || t->data == nullptr ? -1 : t->data - arena;
}

inline void SetFloats(runtime::EvalTensor* t, std::vector<float> v) {
  ASSERT_NE(t, nullptr);
  memcpy(t->data, v.data(), v.size() * sizeof(float));
}
inline std::vector<float> GetFloats(const runtime::EvalTensor* t) {
  std::vector<float> v(static_cast<size_t>(t->num_elements()));
  memcpy(v.data(), t->data, v.size() * sizeof(float));
  return v;
}

}  // namespace testing
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TESTS_CPP_RUNTIME_RUNTIME_TEST_UTIL_H_
