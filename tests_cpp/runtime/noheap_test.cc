// Zero-heap proof for the interpreter: construction, preallocation,
// AllocateTensors(), Invoke(), Reset() and PrintAllocations(), success and
// failure paths, with kernels that use scratch, persistent and temp memory.
// heap_counter.cc replaces global operator new for this binary; nothing
// inside a measured window may use gtest assertions (they allocate).
#include <gtest/gtest.h>

#include "heap_counter.h"
#include "runtime_test_util.h"

namespace tflm_arena {
namespace testing {
namespace {

using runtime::Interpreter;
using runtime::InterpreterOptions;

TEST(RuntimeNoHeapTest, AllocateInvokeResetUseNoHeap) {
  Config() = TestKernelConfig();
  TModel t = ChainModel({kConvCode, kFcCode, kSoftmaxCode, kReshapeCode}, 6, 12);
  TTensor var = Float({1, 12});
  var.is_variable = true;
  t.subgraphs[0].tensors.push_back(var);
  t.subgraphs[0].ops[1].inputs = {1, 7};
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(ScratchKernel());
  r.Add(PersistentKernel());
  r.Add(TempKernel());
  r.Add(CopyKernel());
  TestArena arena(16384);
  alignas(16) static uint8_t input[48];
  static char text[1024];
  InterpreterOptions o;
  o.recording = true;
  o.keep_plan = true;

  Status results[6];
  int printed = 0;
  runtime::PlannedBuffer planned;
  int64_t heap = 0;
  {
    HeapCounter counter;
    Interpreter it(l.model, r.resolver, arena.data(), arena.size(), o);
    results[0] = it.RegisterPreallocatedTensor(0, input, sizeof(input));
    results[1] = it.AllocateTensors();
    results[2] = it.Invoke();
    results[3] = it.Reset();
    results[4] = it.planned_buffer(0, &planned);
    printed = it.PrintAllocations(text, sizeof(text));
    heap = counter.count();
  }
  EXPECT_EQ(heap, 0);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(results[i].ok()) << i << ": " << results[i].message();
  EXPECT_GT(printed, 0);
}

TEST(RuntimeNoHeapTest, FailuresUseNoHeap) {
  Config() = TestKernelConfig();
  Loaded l = BuildAndLoad(ChainModel({kConvCode, kFcCode}, 4, 12));
  Loaded missing = BuildAndLoad(ChainModel({kSvdfCode}, 1, 4));
  TestResolver r;
  r.Add(ScratchKernel());
  r.Add(PersistentKernel());
  TestArena arena(4096);
  Status last;
  int64_t heap = 0;
  int failures = 0;
  {
    HeapCounter counter;
    for (size_t size = 0; size < 4096; size += 7) {
      Interpreter it(l.model, r.resolver, arena.data(), size);
      Status s = it.AllocateTensors();
      if (!s.ok()) {
        ++failures;
        last = it.Invoke();
      }
    }
    Interpreter it(missing.model, r.resolver, arena.data(), arena.size());
    last = it.AllocateTensors();
    heap = counter.count();
  }
  EXPECT_EQ(heap, 0);
  EXPECT_GT(failures, 10);
  EXPECT_EQ(last.code(), StatusCode::kUnimplemented);
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
