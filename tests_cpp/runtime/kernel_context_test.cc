// KernelContext phase rules (as TFLM's micro_interpreter_context.cc: persistent
// buffers in init and prepare, scratch requests and temp buffers in prepare,
// scratch buffers in invoke): what each phase may call.
#include <gtest/gtest.h>

#include "runtime_test_util.h"
#include "tflm_arena/runtime/kernel_api.h"

namespace tflm_arena {
namespace testing {
namespace {

using runtime::Interpreter;

TEST(KernelContextTest, PhaseRules) {
  Config() = TestKernelConfig();
  Probe() = PhaseProbe();
  Loaded l = BuildAndLoad(ChainModel({kConvCode}, 1, 4));
  TestResolver r;
  r.Add(PhaseProbeKernel(kConvCode));
  TestArena arena(4096);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  ASSERT_TRUE(it.Invoke().ok());
  const PhaseProbe& p = Probe();
  EXPECT_TRUE(p.init_persistent_ok);
  EXPECT_TRUE(p.init_scratch_refused);
  EXPECT_TRUE(p.init_temp_refused);
  EXPECT_TRUE(p.prepare_persistent_ok);
  EXPECT_TRUE(p.prepare_scratch_ok);
  EXPECT_TRUE(p.prepare_temp_ok);
  EXPECT_TRUE(p.prepare_get_scratch_null);
  EXPECT_TRUE(p.invoke_persistent_refused);
  EXPECT_TRUE(p.invoke_scratch_refused);
  EXPECT_TRUE(p.invoke_temp_refused);
  EXPECT_TRUE(p.invoke_get_scratch_ok);
  EXPECT_TRUE(p.invoke_get_bad_index_null);
  EXPECT_TRUE(p.reset_persistent_refused);
  EXPECT_TRUE(p.tensor_lookup_ok);
  EXPECT_TRUE(p.info_ok);
}

TEST(KernelContextTest, OutsideAnyPhase) {
  Loaded l = BuildAndLoad(ChainModel({kConvCode}, 1, 4));
  TestResolver r;
  r.Add(CopyKernel(kConvCode));
  TestArena arena(4096);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  runtime::KernelContext context(&it);
  void* p = nullptr;
  EXPECT_EQ(context.AllocatePersistentBuffer(8, &p).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(context.tensor(0), nullptr);  // nothing allocated yet
  ASSERT_TRUE(it.AllocateTensors().ok());
  EXPECT_EQ(context.tensor(0), it.tensor(0, 0));
  EXPECT_EQ(context.GetScratchBuffer(0), nullptr);
  int idx = 5;
  EXPECT_EQ(context.RequestScratchBufferInArena(8, &idx).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(idx, -1);
  EXPECT_EQ(context.AllocatePersistentBuffer(8, nullptr).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
