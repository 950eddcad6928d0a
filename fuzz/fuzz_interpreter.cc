// Allocate + invoke on (mutated) models with every shipped kernel.
//
// Per input (options picked from a hash of the input, so a .tflite file is a
// seed as it is):
//  1. load; fill a resolver with runtime::AddKernelsForModel; skip models too
//     big to run quickly (tensor bytes, work estimate);
//  2. RequiredArenaSize; then an Interpreter on an arena of a size chosen
//     from: exactly the required size (must succeed), one byte less (must
//     fail with kArenaTooSmall: the size is documented exact), the required
//     size + 15 with an unaligned start (must succeed), or a size derived
//     from the input (anything; success only if >= required);
//  3. on success: fill inputs, Invoke, keep the outputs, Reset, refill the
//     same inputs, Invoke again: outputs must be bit-identical.
// Half the inputs also register one subgraph-0 tensor (picked by the hash)
// as a preallocated application buffer, itself fenced by guard bytes.
// The arena sits inside a larger block filled with a pattern; after every
// call, every byte outside the interpreter's usable arena must still hold
// it (guard bytes), so writes before/after the arena are caught even where
// ASan cannot see them.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "fuzz_util.h"
#include "tflm_arena/core/align.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/plan/linear_planner.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/kernels/all_kernels.h"
#include "tflm_arena/runtime/op_resolver.h"
#include "tflm_arena/runtime/required_arena_size.h"

namespace {

using tflm_arena::Span;
using tflm_arena::Status;
using tflm_arena::StatusCode;
namespace model = tflm_arena::model;
namespace runtime = tflm_arena::runtime;

constexpr size_t kGuardBytes = 64;
constexpr uint8_t kGuardPattern = 0xA5;
constexpr uint64_t kMaxModelTensorBytes = uint64_t{8} << 20;  // all tensors together
// Largest offline-plan offset run: a plan may legitimately put a tensor
// gigabytes up, and the guarded arena (filled with its pattern) would then
// take that much RSS, over libFuzzer's limit. Such a model is valid: it
// needs that arena (reproducer: regressions/.../harness_offline_offset_2gib).
constexpr int64_t kMaxOfflineOffset = int64_t{16} << 20;
// Upper bound of Invoke's work (sum over ops of output elements x largest
// input): every shipped kernel does at most that many inner steps.
constexpr double kMaxWork = 4e8;

// Cheap size/work limits so one run stays well under a second.
bool SmallEnough(const model::Model& m, bool* invoke_ok) {
  uint64_t bytes = 0;
  for (size_t sg = 0; sg < m.num_subgraphs(); ++sg) {
    for (size_t t = 0; t < m.num_tensors(sg); ++t) {
      size_t b = 0;
      if (!m.tensor_bytes(sg, t, &b).ok()) continue;  // allocation reports it
      bytes += b;
      if (bytes > kMaxModelTensorBytes) return false;
    }
  }
  model::OfflinePlanView plan;
  bool has_plan = false;
  if (model::DecodeOfflinePlan(m, &plan, &has_plan).ok() && has_plan) {
    for (size_t i = 0; i < plan.size(); ++i) {
      if (plan.offset(i) > kMaxOfflineOffset) return false;
    }
  }
  double work = 0;
  for (size_t o = 0; o < m.num_operators(0); ++o) {
    model::OperatorInfo op;
    if (!m.op(0, o, &op).ok()) return false;
    double in_max = 1, out_sum = 0;
    model::TensorInfo t;
    for (int32_t i : op.inputs) {
      if (i >= 0 && m.tensor(0, i, &t).ok() && t.num_elements > in_max) in_max = t.num_elements;
    }
    for (int32_t i : op.outputs) {
      if (m.tensor(0, i, &t).ok()) out_sum += static_cast<double>(t.num_elements);
    }
    work += out_sum * in_max;
  }
  *invoke_ok = work <= kMaxWork;
  return true;
}

// xorshift64*: input data for the model's inputs.
struct Rng {
  uint64_t s;
  uint64_t Next() {
    s ^= s >> 12;
    s ^= s << 25;
    s ^= s >> 27;
    return s * 2685821657736338717ull;
  }
};

class GuardedArena {
 public:
  GuardedArena(size_t size, size_t skew)
      : block_(new uint8_t[size + skew + 2 * kGuardBytes + tflm_arena::kArenaAlignment]),
        block_size_(size + skew + 2 * kGuardBytes + tflm_arena::kArenaAlignment) {
    std::memset(block_.get(), kGuardPattern, block_size_);
    // 16-aligned start (operator new[]) + guard, then `skew` bytes off.
    arena_ =
        tflm_arena::AlignPointerUp(block_.get() + kGuardBytes, tflm_arena::kArenaAlignment) + skew;
    size_ = size;
  }
  uint8_t* arena() const { return arena_; }
  size_t size() const { return size_; }

  // Every byte outside [usable, usable + capacity) must be untouched.
  void Check(const runtime::Interpreter& it, const char* after) const {
    const uint8_t* usable = tflm_arena::AlignPointerUp(arena_, tflm_arena::kArenaAlignment);
    const size_t cap = it.arena_capacity();
    FUZZ_CHECK(cap <= size_, "after %s: capacity %zu > arena size %zu", after, cap, size_);
    CheckOutside(cap == 0 ? arena_ : usable, cap, "arena", after);
  }
  // The same for a buffer used whole (a preallocated tensor).
  void CheckWhole(const char* what, const char* after) const {
    CheckOutside(arena_, size_, what, after);
  }

 private:
  void CheckOutside(const uint8_t* usable, size_t cap, const char* what, const char* after) const {
    const uint8_t* end = block_.get() + block_size_;
    for (const uint8_t* p = block_.get(); p < end; ++p) {
      if (p == usable) p += cap;  // only the bytes around the usable range
      if (p >= end) break;
      FUZZ_CHECK(*p == kGuardPattern,
                 "after %s: byte at %s%+td outside its usable bytes "
                 "[0, %zu) was written",
                 after, what, p - usable, cap);
    }
  }

  std::unique_ptr<uint8_t[]> block_;
  size_t block_size_;
  uint8_t* arena_;
  size_t size_;
};

size_t TensorBytes(const runtime::EvalTensor* t) {
  return static_cast<size_t>(t->num_elements()) * model::ElementByteSize(t->type);
}

void FillInputs(runtime::Interpreter& it, uint64_t seed, bool raw) {
  Rng rng{seed | 1};
  for (size_t i = 0; i < it.inputs_size(); ++i) {
    runtime::EvalTensor* t = it.input(i);
    FUZZ_CHECK(t != nullptr, "input %zu is null after allocation", i);
    const size_t n = TensorBytes(t);
    if (n != 0) FUZZ_CHECK(t->data != nullptr, "input %zu has no data", i);
    if (t->type == model::TensorType::kFloat32 && !raw) {
      // Finite values in [-8, 8): raw bytes would be mostly NaN/Inf.
      for (size_t k = 0; k + 4 <= n; k += 4) {
        float v = static_cast<float>(static_cast<int64_t>(rng.Next() % 4096) - 2048) / 256.0f;
        std::memcpy(t->data + k, &v, 4);
      }
    } else {
      for (size_t k = 0; k < n; ++k) t->data[k] = static_cast<uint8_t>(rng.Next() >> 56);
    }
  }
}

std::vector<uint8_t> Outputs(const runtime::Interpreter& it) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i < it.outputs_size(); ++i) {
    const runtime::EvalTensor* t = it.output(i);
    FUZZ_CHECK(t != nullptr, "output %zu is null after allocation", i);
    const size_t n = TensorBytes(t);
    if (n != 0) FUZZ_CHECK(t->data != nullptr, "output %zu has no data", i);
    out.insert(out.end(), t->data, t->data + n);
  }
  return out;
}

// FUZZ_TRACE=1 prints how far each input got (to check seeds reach Invoke).
void Trace(const char* stage, const char* detail = "") {
  static const bool on = std::getenv("FUZZ_TRACE") != nullptr;
  if (on) std::fprintf(stderr, "fuzz_interpreter: %s %s\n", stage, detail);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::InputCopy input(data, size);
  model::Model m;
  if (!model::Model::FromBuffer(input.data(), input.size(), &m).ok()) return 0;
  bool invoke_ok = false;
  if (!SmallEnough(m, &invoke_ok)) return Trace("too big"), 0;
  runtime::MutableOpResolver<runtime::kNumAllShippedKernels> resolver;
  Status k = runtime::AddKernelsForModel(m, &resolver);
  if (!k.ok()) return Trace("kernels:", k.message()), 0;

  const uint64_t h = fuzz::Hash(data, size);
  runtime::InterpreterOptions options;
  tflm_arena::LinearPlanner linear;
  if (h & 1) options.planner = &linear;  // else the default greedy
  options.recording = (h >> 1) & 1;
  options.keep_plan = (h >> 2) & 1;

  // Sometimes hand one subgraph-0 tensor (any: constants and offline-planned
  // ones must be refused) to the interpreter as an application buffer.
  std::unique_ptr<GuardedArena> prealloc_block;
  runtime::Preallocation prealloc;
  const size_t sg0_tensors = m.num_tensors(0);
  if (((h >> 41) & 1) && sg0_tensors > 0) {
    size_t bytes = 0;
    size_t pick = (h >> 44) % sg0_tensors;
    if ((h >> 42) & 3) {  // mostly the next tensor without constant data
      for (size_t k = 0; k < sg0_tensors; ++k) {
        model::TensorInfo t;
        const size_t i = (pick + k) % sg0_tensors;
        if (m.tensor(0, i, &t).ok() && !t.has_constant_data) {
          pick = i;
          break;
        }
      }
    }
    prealloc.tensor_index = static_cast<int>(pick);
    if (m.tensor_bytes(0, static_cast<size_t>(prealloc.tensor_index), &bytes).ok()) {
      prealloc_block.reset(new GuardedArena(bytes, 0));
      prealloc.buffer = prealloc_block->arena();
      prealloc.bytes = bytes;
    }
  }
  Span<const runtime::Preallocation> preallocs(&prealloc, prealloc_block ? 1 : 0);
  auto check_prealloc = [&](const char* after) {
    if (prealloc_block) prealloc_block->CheckWhole("preallocated buffer", after);
  };

  size_t required = 0;
  Status s = runtime::RequiredArenaSize(m, resolver, options, preallocs, &required);
  check_prealloc("RequiredArenaSize");
  if (!s.ok()) {
    FUZZ_CHECK(s.code() != StatusCode::kInternal, "RequiredArenaSize: %s", s.message());
    Trace("RequiredArenaSize:", s.message());
    return 0;
  }
  FUZZ_CHECK(required % 16 == 0 && required > 0, "required %zu", required);

  size_t arena_size = required, skew = 0;
  enum { kExact, kOneLess, kUnaligned, kFromInput } mode;
  switch ((h >> 3) % 8) {
    case 0:
      mode = kOneLess;
      arena_size = required - 1;
      break;
    case 1:
      mode = kUnaligned;
      skew = 1 + (h >> 8) % 15;
      arena_size = required + 15;
      break;
    case 2:
      mode = kFromInput;
      arena_size = (h >> 16) % (2 * required + 64);
      break;
    default:
      mode = kExact;
      break;
  }
  GuardedArena arena(arena_size, skew);
  runtime::Interpreter it(m, resolver, arena.arena(), arena.size(), options);
  arena.Check(it, "construction");
  if (prealloc_block) {
    // RequiredArenaSize accepted this very registration.
    s = it.RegisterPreallocatedTensor(prealloc.tensor_index, prealloc.buffer, prealloc.bytes);
    FUZZ_CHECK(s.ok(), "RegisterPreallocatedTensor(%d): %s", prealloc.tensor_index, s.message());
  }
  s = it.AllocateTensors();
  arena.Check(it, "AllocateTensors");
  check_prealloc("AllocateTensors");
  if (mode == kExact || mode == kUnaligned) {
    FUZZ_CHECK(s.ok(), "AllocateTensors with %zu bytes (required %zu, skew %zu): %s", arena_size,
               required, skew, s.message());
  } else if (mode == kOneLess) {
    FUZZ_CHECK(s.code() == StatusCode::kArenaTooSmall,
               "AllocateTensors with required - 1 = %zu bytes: %s", arena_size,
               s.ok() ? "succeeded" : s.message());
  } else if (arena_size >= required) {
    FUZZ_CHECK(s.ok(), "AllocateTensors with %zu >= required %zu: %s", arena_size, required,
               s.message());
  }
  if (!s.ok()) {
    FUZZ_CHECK(s.code() == StatusCode::kArenaTooSmall, "AllocateTensors: %s", s.message());
    FUZZ_CHECK(arena_size < required, "failed with %zu >= required %zu", arena_size, required);
    // Sticky failure: Invoke reports the same error and touches nothing.
    Status again = it.Invoke();
    arena.Check(it, "Invoke after a failed allocation");
    FUZZ_CHECK(again.code() == s.code(), "Invoke after failure: %s", again.message());
    Trace("too small, as expected:", s.message());
    return 0;
  }
  FUZZ_CHECK(it.required_arena_bytes() == required, "required_arena_bytes %zu != %zu",
             it.required_arena_bytes(), required);
  FUZZ_CHECK(it.used_bytes() <= it.arena_capacity(), "used %zu > capacity %zu", it.used_bytes(),
             it.arena_capacity());
  if (options.keep_plan) {
    for (size_t i = 0; i < it.planned_buffer_count(); ++i) {
      runtime::PlannedBuffer b;
      FUZZ_CHECK(it.planned_buffer(i, &b).ok(), "planned_buffer(%zu)", i);
      FUZZ_CHECK(b.offset >= 0 && b.offset + b.size <= static_cast<int64_t>(it.head_bytes()),
                 "planned buffer %zu [%lld, +%lld) outside head %zu", i,
                 static_cast<long long>(b.offset), static_cast<long long>(b.size), it.head_bytes());
    }
  }
  if (options.recording) {
    char text[256];
    (void)it.PrintAllocations(text, sizeof(text));
  }
  if (!invoke_ok) return Trace("allocated; too much work to invoke"), 0;

  const bool raw_floats = (h >> 40) & 1;
  // A preallocated tensor counts as written by the application from the
  // start (an operator may read it before writing it), so, like the inputs,
  // it gets the same bytes before each run.
  auto fill_prealloc = [&]() {
    if (prealloc_block) std::memset(prealloc.buffer, static_cast<int>(h & 0x7F), prealloc.bytes);
  };
  fill_prealloc();
  FillInputs(it, h, raw_floats);
  s = it.Invoke();
  arena.Check(it, "Invoke 1");
  check_prealloc("Invoke 1");
  if (!s.ok()) return Trace("Invoke:", s.message()), 0;  // a kernel may reject values
  std::vector<uint8_t> first = Outputs(it);
  s = it.Reset();
  arena.Check(it, "Reset");
  check_prealloc("Reset");
  FUZZ_CHECK(s.ok(), "Reset: %s", s.message());
  fill_prealloc();
  FillInputs(it, h, raw_floats);
  s = it.Invoke();
  arena.Check(it, "Invoke 2");
  check_prealloc("Invoke 2");
  FUZZ_CHECK(s.ok(), "second Invoke failed after the first succeeded: %s", s.message());
  std::vector<uint8_t> second = Outputs(it);
  FUZZ_CHECK(first == second, "outputs differ between two runs on the same inputs");
  Trace("invoked twice");
  return 0;
}
