// RegisterPreallocatedTensor (TFLM RFC 001, facts section 7).
#include <gtest/gtest.h>

#include <string>

#include "runtime_test_util.h"
#include "tflm_arena/runtime/required_arena_size.h"

namespace tflm_arena {
namespace testing {
namespace {

using runtime::Interpreter;
using runtime::InterpreterOptions;

class PreallocationTest : public ::testing::Test {
 protected:
  void SetUp() override { Config() = TestKernelConfig(); }
};

TEST_F(PreallocationTest, PreallocatedInputTakesNoHeadBytes) {
  // t0 (1 KiB input) -> t1 (64 B) -> t2 (64 B): t0 dominates the head.
  TModel t = ChainModel({kReshapeCode}, 2, 16);
  t.subgraphs[0].tensors[0].shape = {1, 256};
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(CopyKernel());
  TestArena a1(8192), a2(8192);
  Interpreter plain(l.model, r.resolver, a1.data(), a1.size());
  ASSERT_TRUE(plain.AllocateTensors().ok());
  EXPECT_EQ(plain.head_bytes(), 1024u + 64u);

  alignas(16) static uint8_t input[1024];
  Interpreter it(l.model, r.resolver, a2.data(), a2.size());
  ASSERT_TRUE(it.RegisterPreallocatedTensor(0, input, sizeof(input)).ok());
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  EXPECT_EQ(it.input(0)->data, input);
  EXPECT_EQ(it.head_bytes(), 128u);
  EXPECT_EQ(it.planned_buffer_count(), 2u);
  EXPECT_LT(it.required_arena_bytes(), plain.required_arena_bytes());
  for (int i = 0; i < 16; ++i) reinterpret_cast<float*>(input)[i] = static_cast<float>(i);
  ASSERT_TRUE(it.Invoke().ok());
  EXPECT_EQ(GetFloats(it.output(0))[15], 15.0f);

  // The host helper sees the same saving (with and without a real buffer).
  runtime::Preallocation p[1];
  p[0].tensor_index = 0;
  p[0].bytes = 1024;
  size_t with = 0, without = 0;
  ASSERT_TRUE(runtime::RequiredArenaSize(l.model, r.resolver, InterpreterOptions(),
                                         Span<const runtime::Preallocation>(p, 1), &with)
                  .ok());
  ASSERT_TRUE(runtime::RequiredArenaSize(l.model, r.resolver, InterpreterOptions(),
                                         Span<const runtime::Preallocation>(), &without)
                  .ok());
  EXPECT_EQ(with, it.required_arena_bytes());
  EXPECT_EQ(without, plain.required_arena_bytes());
}

TEST_F(PreallocationTest, PreallocatedVariableTakesNoTailBytes) {
  TModel t = ChainModel({kAddCode}, 1, 4);
  TTensor var = Float({1, 4});
  var.is_variable = true;
  t.subgraphs[0].tensors.push_back(var);
  t.subgraphs[0].ops[0].inputs = {0, 2};
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(NopKernel(kAddCode));
  TestArena arena(4096);
  alignas(16) static uint8_t state[16];
  memset(state, 9, sizeof(state));
  InterpreterOptions o;
  o.recording = true;
  Interpreter it(l.model, r.resolver, arena.data(), arena.size(), o);
  ASSERT_TRUE(it.RegisterPreallocatedTensor(2, state, sizeof(state)).ok());
  ASSERT_TRUE(it.AllocateTensors().ok());
  EXPECT_EQ(it.tensor(0, 2)->data, state);
  EXPECT_EQ(it.recorded(AllocationCategory::kVariableBufferData).count, 0u);
  for (uint8_t b : state) EXPECT_EQ(b, 0);  // Reset() zeroed it
}

TEST_F(PreallocationTest, Errors) {
  TModel t = ChainModel({kReshapeCode}, 3, 4);  // 16 B tensors
  t.subgraphs[0].tensors.push_back(Float({1, 4}));
  t.subgraphs[0].tensors[4].buffer = AddConstBuffer(&t, 16);  // constant t4
  t.subgraphs[0].ops[0].inputs = {0, 4};
  CopyRun run(t, 4096);
  Interpreter& it = *run.it;
  alignas(16) static uint8_t buf[64];

  Status s = it.RegisterPreallocatedTensor(5, buf, 64);
  EXPECT_EQ(s.code(), StatusCode::kOutOfRange);
  EXPECT_STREQ(s.message(),
               "RegisterPreallocatedTensor: tensor 5 out of range (subgraph 0 "
               "has 5 tensors)");
  EXPECT_EQ(it.RegisterPreallocatedTensor(-1, buf, 64).code(), StatusCode::kOutOfRange);
  s = it.RegisterPreallocatedTensor(4, buf, 64);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("is a constant"), std::string::npos);
  s = it.RegisterPreallocatedTensor(1, buf, 15);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(),
               "RegisterPreallocatedTensor: tensor 1 needs 16 bytes, the "
               "buffer has 15");
  s = it.RegisterPreallocatedTensor(1, buf + 4, 32);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("not 16-byte aligned"), std::string::npos);
  EXPECT_EQ(it.RegisterPreallocatedTensor(1, nullptr, 32).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(it.RegisterPreallocatedTensor(1, buf, 16).ok());
  s = it.RegisterPreallocatedTensor(1, buf + 16, 16);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(), "RegisterPreallocatedTensor: tensor 1 is already registered");
  ASSERT_TRUE(it.AllocateTensors().ok());
  s = it.RegisterPreallocatedTensor(2, buf + 16, 16);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_STREQ(s.message(), "RegisterPreallocatedTensor(2): only allowed before AllocateTensors()");
}

TEST_F(PreallocationTest, OfflinePlannedTensorCannotBePreallocated) {
  TModel t = ChainModel({kReshapeCode}, 2, 4);
  AddOfflinePlan(&t, {-1, 0, -1});
  CopyRun run(t, 4096);
  alignas(16) static uint8_t buf[16];
  Status s = run.it->RegisterPreallocatedTensor(1, buf, 16);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_STREQ(s.message(),
               "RegisterPreallocatedTensor: tensor 1 ('') is offline-planned at "
               "offset 0 and cannot be preallocated");
  EXPECT_TRUE(run.it->RegisterPreallocatedTensor(0, buf, 16).ok());
}

TEST_F(PreallocationTest, TableCapacity) {
  TModel t = ChainModel({kReshapeCode}, Interpreter::kMaxPreallocatedTensors + 1, 4);
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  r.Add(CopyKernel());
  TestArena arena(8192);
  alignas(16) static uint8_t bufs[Interpreter::kMaxPreallocatedTensors + 1][16];
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  for (size_t i = 0; i < Interpreter::kMaxPreallocatedTensors; ++i) {
    ASSERT_TRUE(it.RegisterPreallocatedTensor(static_cast<int>(i), bufs[i], 16).ok());
  }
  EXPECT_EQ(it.RegisterPreallocatedTensor(static_cast<int>(Interpreter::kMaxPreallocatedTensors),
                                          bufs[Interpreter::kMaxPreallocatedTensors], 16)
                .code(),
            StatusCode::kOutOfRange);
  ASSERT_TRUE(it.AllocateTensors().ok());
  EXPECT_EQ(it.planned_buffer_count(), 2u);
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
