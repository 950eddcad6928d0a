// Recording: TFLM's categories and our runtime's PrintAllocations text,
// compared with the figures real TFLM prints for the same models where our
// structs have TFLM's sizes (TfLiteEvalTensor: 24 B on 64-bit).
#include <gtest/gtest.h>

#include <string>

#include "runtime_test_util.h"

namespace tflm_arena {
namespace testing {
namespace {

using runtime::EvalTensor;
using runtime::Interpreter;
using runtime::InterpreterOptions;
using runtime::Node;

InterpreterOptions Recording() {
  InterpreterOptions o;
  o.recording = true;
  return o;
}

std::string Print(const Interpreter& it) {
  const int n = it.PrintAllocations(nullptr, 0);
  EXPECT_GT(n, 0);
  std::string text(static_cast<size_t>(n) + 1, '\0');
  EXPECT_EQ(it.PrintAllocations(&text[0], text.size()), n);
  text.resize(static_cast<size_t>(n));
  return text;
}

TEST(RecordingTest, HelloWorldCategories) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("hello_world_int8.tflite", bytes);
  model::Model m = MustLoad(bytes);
  TestResolver r;
  AddNopKernelsFor(m, &r);
  TestArena arena(8192);
  Interpreter it(m, r.resolver, arena.data(), arena.size(), Recording());
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  // TFLM: 'TfLiteEvalTensor data' used 240 bytes (requested 240 bytes for 10).
  const RecordedAllocation e = it.recorded(AllocationCategory::kEvalTensorData);
  EXPECT_EQ(e.count, 10u);
  EXPECT_EQ(e.requested_bytes, 10 * sizeof(EvalTensor));
  EXPECT_EQ(e.used_bytes, 10 * sizeof(EvalTensor));
  if (sizeof(void*) == 8) EXPECT_EQ(e.used_bytes, 240u);
  // TFLM: 3 NodeAndRegistration structs (64 B each there; our Node is larger).
  const RecordedAllocation n = it.recorded(AllocationCategory::kNodeAndRegistration);
  EXPECT_EQ(n.count, 3u);
  EXPECT_EQ(n.requested_bytes, 3 * sizeof(Node));
  // Nothing else is attributed (no persistent TfLiteTensors, nop kernels).
  EXPECT_EQ(it.recorded(AllocationCategory::kPersistentTensorData).count, 0u);
  EXPECT_EQ(it.recorded(AllocationCategory::kPersistentBufferData).count, 0u);
  EXPECT_EQ(it.recorded(AllocationCategory::kVariableBufferData).count, 0u);
  EXPECT_EQ(it.recorded(AllocationCategory::kOpData).count, 0u);
  EXPECT_EQ(it.head_bytes(), 32u);  // TFLM: head 32 bytes

  const std::string want =
      "tflm_arena runtime: arena " + std::to_string(it.used_bytes()) +
      " bytes used (head 32, tail " + std::to_string(it.tail_bytes()) +
      "); not stock TFLM's figures\n" +
      "  TfLiteEvalTensor data: " + std::to_string(e.used_bytes) + " bytes used (" +
      std::to_string(e.requested_bytes) + " requested for 10 allocations)\n" +
      "  NodeAndRegistration struct: " + std::to_string(n.used_bytes) + " bytes used (" +
      std::to_string(n.requested_bytes) + " requested for 3 NodeAndRegistration structs)\n";
  EXPECT_EQ(Print(it), want);
}

TEST(RecordingTest, KeywordVariablesAndTensorsMatchTflm) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("keyword_scrambled.tflite", bytes);
  model::Model m = MustLoad(bytes);
  TestResolver r;
  AddNopKernelsFor(m, &r);
  TestArena arena(1 << 16);
  Interpreter it(m, r.resolver, arena.data(), arena.size(), Recording());
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  // TFLM (measured, x86-64 PrintAllocations): EvalTensor 1296/1296 (54); variable 10240/10240 (7);
  // NodeAndRegistration count 15.
  const RecordedAllocation e = it.recorded(AllocationCategory::kEvalTensorData);
  EXPECT_EQ(e.count, 54u);
  if (sizeof(void*) == 8) EXPECT_EQ(e.used_bytes, 1296u);
  const RecordedAllocation v = it.recorded(AllocationCategory::kVariableBufferData);
  EXPECT_EQ(v.count, 7u);
  EXPECT_EQ(v.requested_bytes, 10240u);
  // Each is 16-aligned: only the first can need padding here (TFLM's tail
  // happened to be aligned at that point, so it printed used 10240).
  EXPECT_GE(v.used_bytes, 10240u);
  EXPECT_LT(v.used_bytes, 10240u + 16u);
  EXPECT_EQ(it.recorded(AllocationCategory::kNodeAndRegistration).count, 15u);
  const std::string text = Print(it);
  EXPECT_NE(text.find("  TfLiteTensor variable buffer data: " +
                      std::to_string(v.used_bytes) +
                      " bytes used (10240 requested for 7 allocations)\n"),
            std::string::npos)
      << text;
  // Category lines come in TFLM's order.
  EXPECT_LT(text.find("TfLiteEvalTensor data"), text.find("variable buffer data"));
  EXPECT_LT(text.find("variable buffer data"), text.find("NodeAndRegistration"));
}

TEST(RecordingTest, TotalsAndPersistentBuffers) {
  Config() = TestKernelConfig();
  Config().persistent_bytes = 20;
  Loaded l = BuildAndLoad(ChainModel({kFcCode}, 2, 4));
  TestResolver r;
  r.Add(PersistentKernel());
  TestArena arena(4096);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size(), Recording());
  ASSERT_TRUE(it.AllocateTensors().ok());
  const RecordedAllocation p = it.recorded(AllocationCategory::kPersistentBufferData);
  EXPECT_EQ(p.count, 2u);
  EXPECT_EQ(p.requested_bytes, 40u);
  // 16-aligned: 20 -> 32 each, plus up to 15 B before the first.
  EXPECT_GE(p.used_bytes, 52u);
  EXPECT_LE(p.used_bytes, 64u + 15u);
  const std::string text = Print(it);
  EXPECT_NE(text.find("  Persistent buffer data: " + std::to_string(p.used_bytes) +
                      " bytes used (40 requested for 2 allocations)\n"),
            std::string::npos)
      << text;
  // total = head + tail after a normal allocation.
  EXPECT_EQ(it.used_bytes(), it.head_bytes() + it.tail_bytes());
  EXPECT_EQ(text.rfind("tflm_arena runtime: arena " + std::to_string(it.used_bytes()) +
                       " bytes used (head " + std::to_string(it.head_bytes()) + ", tail " +
                       std::to_string(it.tail_bytes()) + "); not stock TFLM's figures\n",
                       0),
            0u);
}

TEST(RecordingTest, OffByDefault) {
  Loaded l = BuildAndLoad(ChainModel({kReshapeCode}, 2, 4));
  TestResolver r;
  r.Add(CopyKernel());
  TestArena a1(4096), a2(4096);
  Interpreter plain(l.model, r.resolver, a1.data(), a1.size());
  Interpreter rec(l.model, r.resolver, a2.data(), a2.size(), Recording());
  ASSERT_TRUE(plain.AllocateTensors().ok());
  ASSERT_TRUE(rec.AllocateTensors().ok());
  char buf[8] = "x";
  EXPECT_EQ(plain.PrintAllocations(buf, sizeof(buf)), -1);
  EXPECT_STREQ(buf, "");
  EXPECT_EQ(plain.recorded(AllocationCategory::kEvalTensorData).count, 0u);
  // Recording costs no arena bytes.
  EXPECT_EQ(plain.used_bytes(), rec.used_bytes());
  EXPECT_EQ(plain.required_arena_bytes(), rec.required_arena_bytes());
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
