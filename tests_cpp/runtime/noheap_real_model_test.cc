// Zero-heap proof with the shipped kernels on real models: verifying the
// model (reader), filling the resolver, construction, AllocateTensors(),
// several Invoke() calls and Reset() make no heap allocation
// (heap_counter.cc replaces operator new).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "heap_counter.h"
#include "test_builder.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/kernels/all_kernels.h"

namespace tflm_arena {
namespace testing {
namespace {

class RealModelNoHeap : public ::testing::TestWithParam<const char*> {};

TEST_P(RealModelNoHeap, AllocateAndInvokeUseNoHeap) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP(GetParam(), bytes);
  model::Model m;
  std::vector<uint8_t> raw(512 * 1024 + 16);
  uint8_t* arena =
      reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(raw.data()) + 15) & ~uintptr_t{15});
  runtime::InterpreterOptions options;
  options.recording = true;
  Status loaded, added, allocated, invoked[3], reset;
  size_t head = 0;
  int64_t heap = 0;
  {
    HeapCounter counter;
    loaded = model::Model::FromBuffer(bytes.data(), bytes.size(), &m);
    runtime::MutableOpResolver<runtime::kNumAllShippedKernels> resolver;
    added = runtime::AddKernelsForModel(m, &resolver);
    runtime::Interpreter it(m, resolver, arena, 512 * 1024, options);
    allocated = it.AllocateTensors();
    for (Status& s : invoked) s = it.Invoke();
    reset = it.Reset();
    head = it.head_bytes();
    heap = counter.count();
  }
  EXPECT_EQ(heap, 0);
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  ASSERT_TRUE(added.ok()) << added.message();
  ASSERT_TRUE(allocated.ok()) << allocated.message();
  for (const Status& s : invoked) EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(reset.ok()) << reset.message();
  EXPECT_GT(head, 0u);
}

INSTANTIATE_TEST_SUITE_P(SharedModels, RealModelNoHeap,
                         ::testing::Values("person_detect.tflite", "kws_ref_model.tflite",
                                           "pretrainedResnet_quant.tflite",
                                           "hello_world_float.tflite"));

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
