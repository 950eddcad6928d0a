// Zero-heap proof for streaming state: CALL_ONCE into an init subgraph and
// VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE (the wake-word models'
// pattern) allocate, invoke and reset with no heap allocation; the state
// carries from one invocation to the next, the init subgraph runs once, and
// Reset refills the variable with its default without running it again.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "heap_counter.h"
#include "runtime_test_util.h"
#include "test_builder.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/kernels/all_kernels.h"

namespace tflm_arena {
namespace testing {
namespace {

constexpr int8_t kInt8 = 9, kResource = 13;

TTensor T(std::vector<int32_t> shape, int8_t type, uint32_t buffer = 0) {
  TTensor t;
  t.shape = std::move(shape);
  t.type = type;
  t.buffer = buffer;
  return t;
}

// Subgraph 0: CALL_ONCE(1); h = VAR_HANDLE("s"); out = READ_VARIABLE(h);
// ASSIGN_VARIABLE(h, in). Subgraph 1: ASSIGN_VARIABLE(VAR_HANDLE("s"), 7s).
TModel Streaming() {
  TModel m;
  for (int32_t code : {129, 142, 143, 144}) m.opcodes.push_back(Builtin(code));
  TBuffer sevens;
  sevens.data.assign(4, 7);
  m.buffers.push_back(sevens);
  TSubgraph main;
  main.tensors = {T({4}, kInt8), T({}, kResource), T({4}, kInt8)};  // in, h, out
  TOp call{0, {}, {}, {}, TOptions::kCallOnce, 1};
  TOp handle{1, {}, {1}, {}, TOptions::kVarHandle};
  handle.shared_name = "s";
  TOp read{2, {1}, {2}, {}};
  TOp assign{3, {1, 0}, {}, {}};
  main.ops = {call, handle, read, assign};
  main.inputs = {0};
  main.outputs = {2};
  TSubgraph init;
  init.tensors = {T({}, kResource), T({4}, kInt8, 1)};
  TOp handle2{1, {}, {0}, {}, TOptions::kVarHandle};
  handle2.shared_name = "s";
  init.ops = {handle2, TOp{3, {0, 1}, {}, {}}};
  m.subgraphs = {main, init};
  return m;
}

TEST(StreamingNoHeap, StateCarriesWithoutHeap) {
  const Loaded l = BuildAndLoad(Streaming());
  TestArena arena(16 * 1024);  // 16-aligned, guard bytes after it
  Status added, allocated, invoked[3], reset, after;
  int8_t out[3][4] = {}, out_reset[4] = {};
  int64_t heap = 0;
  {
    HeapCounter counter;
    runtime::MutableOpResolver<runtime::kNumAllShippedKernels> resolver;
    added = runtime::AddKernelsForModel(l.model, &resolver);
    runtime::Interpreter it(l.model, resolver, arena.data(), arena.size());
    allocated = it.AllocateTensors();
    if (allocated.ok()) {
      for (int k = 0; k < 3; ++k) {
        std::memset(it.input(0)->data, k + 1, 4);
        invoked[k] = it.Invoke();
        std::memcpy(out[k], it.output(0)->data, 4);
      }
      reset = it.Reset();
      after = it.Invoke();
      std::memcpy(out_reset, it.output(0)->data, 4);
    }
    heap = counter.count();
  }
  EXPECT_EQ(heap, 0);
  ASSERT_TRUE(added.ok()) << added.message();
  ASSERT_TRUE(allocated.ok()) << allocated.message();
  for (const Status& s : invoked) EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(reset.ok()) << reset.message();
  EXPECT_TRUE(after.ok()) << after.message();
  EXPECT_EQ(out[0][0], 7);  // the init subgraph's value
  EXPECT_EQ(out[1][3], 1);  // the previous input
  EXPECT_EQ(out[2][0], 2);
  EXPECT_EQ(out_reset[0], 0);  // the default; CALL_ONCE did not run again
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
