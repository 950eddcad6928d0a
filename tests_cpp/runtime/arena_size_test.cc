// Arena sizing: every size from 0 up fails cleanly until exactly
// required_arena_bytes(); the host helper agrees; real models' heads equal
// TFLM's greedy plan of their usage records.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime_test_util.h"
#include "tflm_arena/plan/linear_planner.h"
#include "tflm_arena/runtime/required_arena_size.h"

namespace tflm_arena {
namespace testing {
namespace {

using runtime::Interpreter;
using runtime::InterpreterOptions;

// A model touching every allocation kind: scratch (conv), persistent (fc),
// temp (softmax), a variable, a constant, and options-free ops.
TModel EverythingModel() {
  TModel t = ChainModel({kConvCode, kFcCode, kSoftmaxCode, kReshapeCode}, 6, 12);
  TTensor var = Float({1, 12});
  var.is_variable = true;
  t.subgraphs[0].tensors.push_back(var);  // 7
  TTensor c = Float({1, 12});
  c.buffer = AddConstBuffer(&t, 48);
  t.subgraphs[0].tensors.push_back(c);  // 8
  t.subgraphs[0].ops[1].inputs = {1, 7, 8};
  return t;
}

void AddEverythingKernels(TestResolver* r) {
  r->Add(ScratchKernel());
  r->Add(PersistentKernel());
  r->Add(TempKernel());
  r->Add(CopyKernel());
}

// Runs AllocateTensors (and Invoke) at every size 0..required+16 and checks
// the outcome is OK exactly from `required` on.
void SweepSizes(const model::Model& m, const runtime::OpResolver& resolver,
                const InterpreterOptions& options, size_t required,
                size_t misalign = 0) {
  const size_t slack = (16 - misalign) % 16;
  for (size_t size = 0; size <= required + slack + 16; ++size) {
    TestArena arena(size, misalign);
    Interpreter it(m, resolver, arena.data(), arena.size(), options);
    Status s = it.AllocateTensors();
    const bool should_fit = size >= required + slack;
    ASSERT_EQ(s.ok(), should_fit) << "size " << size << ": " << s.message();
    if (!s.ok()) {
      ASSERT_EQ(s.code(), StatusCode::kArenaTooSmall) << size << ": " << s.message();
      ASSERT_NE(std::string(s.message()).find("arena too small"), std::string::npos)
          << s.message();
      ASSERT_GT(s.needed_bytes(), it.arena_capacity()) << s.message();
      // A lower bound for the whole run, and never below what was given.
      if (misalign == 0) ASSERT_GT(s.needed_bytes(), size) << s.message();
      ASSERT_LE(s.needed_bytes(), required) << s.message();
      ASSERT_EQ(s.needed_bytes() % 16, 0u);
      ASSERT_EQ(it.AllocateTensors().code(), StatusCode::kArenaTooSmall);
      ASSERT_FALSE(it.Invoke().ok());
      ASSERT_EQ(it.input(0), nullptr);
    } else {
      ASSERT_EQ(it.required_arena_bytes(), required);
      ASSERT_TRUE(it.Invoke().ok()) << it.status().message();
    }
    ASSERT_TRUE(arena.GuardIntact()) << "size " << size;
  }
}

// The smallest arena (16-aligned start) with which AllocateTensors()
// succeeds, by doubling then bisection over real runs: an independent
// reference for RequiredArenaSize (which measures in one run).
size_t BisectMinimum(const model::Model& m, const runtime::OpResolver& resolver,
                     const InterpreterOptions& options) {
  auto fits = [&](size_t size) {
    std::vector<uint8_t> storage(size + 16);
    uint8_t* p = storage.data();
    p += (16 - reinterpret_cast<uintptr_t>(p) % 16) % 16;
    Interpreter it(m, resolver, p, size, options);
    return it.AllocateTensors().ok();
  };
  size_t hi = 1024;
  while (!fits(hi)) hi *= 2;
  size_t lo = 0;  // fails (an empty arena holds nothing)
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    (fits(mid) ? hi : lo) = mid;
  }
  return hi;
}

int& PrepareCalls() {
  static int calls = 0;
  return calls;
}

// A copy kernel that counts its prepare calls (one per node per run).
runtime::KernelRegistration CountingKernel() {
  runtime::KernelRegistration k = CopyKernel();
  k.prepare = [](runtime::KernelContext&, runtime::Node&) {
    ++PrepareCalls();
    return Status::Ok();
  };
  return k;
}

class ArenaSizeTest : public ::testing::TestWithParam<int> {
 protected:
  void SetUp() override { Config() = TestKernelConfig(); }
  InterpreterOptions Options() {
    InterpreterOptions o;
    if (GetParam() & 1) o.planner = &linear_;  // else the default greedy
    o.recording = (GetParam() & 2) != 0;
    o.keep_plan = (GetParam() & 4) != 0;
    return o;
  }
  LinearPlanner linear_;
};

TEST_P(ArenaSizeTest, EverySizeFromZeroFailsCleanlyUntilRequired) {
  Loaded l = BuildAndLoad(EverythingModel());
  TestResolver r;
  AddEverythingKernels(&r);
  size_t required = 0;
  Status s = runtime::RequiredArenaSize(l.model, r.resolver, Options(),
                                        Span<const runtime::Preallocation>(), &required);
  ASSERT_TRUE(s.ok()) << s.message();
  SweepSizes(l.model, r.resolver, Options(), required);
}

TEST_P(ArenaSizeTest, UnalignedArenaNeedsTheSlackMore) {
  Loaded l = BuildAndLoad(EverythingModel());
  TestResolver r;
  AddEverythingKernels(&r);
  size_t required = 0;
  ASSERT_TRUE(runtime::RequiredArenaSize(l.model, r.resolver, Options(),
                                         Span<const runtime::Preallocation>(), &required)
                  .ok());
  for (size_t misalign : {1u, 7u, 15u}) {
    for (size_t size : {required + (16 - misalign) - 1, required + (16 - misalign)}) {
      TestArena arena(size, misalign);
      Interpreter it(l.model, r.resolver, arena.data(), arena.size(), Options());
      EXPECT_EQ(it.AllocateTensors().ok(), size == required + (16 - misalign))
          << "misalign " << misalign << " size " << size;
      EXPECT_TRUE(arena.GuardIntact());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Options, ArenaSizeTest, ::testing::Range(0, 8));

TEST(ArenaSizeRequired, SmallModelSweepWithOfflinePlanAndPreallocation) {
  Config() = TestKernelConfig();
  TModel t = EverythingModel();
  AddOfflinePlan(&t, {-1, 0, -1, -1, -1, -1, -1, 48, -1});  // t1 and variable t7
  Loaded l = BuildAndLoad(t);
  TestResolver r;
  AddEverythingKernels(&r);
  size_t required = 0;
  ASSERT_TRUE(runtime::RequiredArenaSize(l.model, r.resolver, InterpreterOptions(),
                                         Span<const runtime::Preallocation>(), &required)
                  .ok());
  SweepSizes(l.model, r.resolver, InterpreterOptions(), required);
}

TEST(ArenaSizeRequired, RequiredIsThePeakNotTheFinalUse) {
  // Planning temp (allocation info + planner scratch) exceeds the final head
  // for a long chain of small tensors: used_bytes() after allocation is not
  // enough (in TFLM the planning temp can exceed the final head), required_arena_bytes() is.
  Config() = TestKernelConfig();
  Loaded l = BuildAndLoad(ChainModel({kReshapeCode}, 40, 1));
  TestResolver r;
  r.Add(CopyKernel());
  TestArena arena(1 << 16);
  Interpreter it(l.model, r.resolver, arena.data(), arena.size());
  ASSERT_TRUE(it.AllocateTensors().ok());
  EXPECT_GT(it.required_arena_bytes(), it.used_bytes());
  TestArena exact(it.used_bytes());
  Interpreter small(l.model, r.resolver, exact.data(), exact.size());
  EXPECT_EQ(small.AllocateTensors().code(), StatusCode::kArenaTooSmall);
}

TEST(ArenaSizeRequired, OneRunMeasuresTheExactSize) {
  // The helper used to grow heap arenas from 16 KiB and confirm with a
  // second run; now a single run in a generous arena gives the exact size.
  Config() = TestKernelConfig();
  Loaded l = BuildAndLoad(ChainModel({kReshapeCode}, 30, 64));
  TestResolver r;
  r.Add(CountingKernel());
  PrepareCalls() = 0;
  size_t required = 0;
  ASSERT_TRUE(runtime::RequiredArenaSize(l.model, r.resolver, InterpreterOptions(),
                                         Span<const runtime::Preallocation>(), &required)
                  .ok());
  EXPECT_EQ(PrepareCalls(), 30);  // one run: each of the 30 nodes prepared once
  EXPECT_EQ(required, BisectMinimum(l.model, r.resolver, InterpreterOptions()));
}

TEST(ArenaSizeRequired, ScratchBeyondTheFirstEstimateStillExact) {
  // Kernel scratch (1 MiB per node) is invisible in the model: the first,
  // model-sized arena is too small and the helper grows; still exact.
  Config() = TestKernelConfig();
  Config().scratch_bytes = size_t{1} << 20;
  Config().scratch_requests = 3;
  Loaded l = BuildAndLoad(ChainModel({kConvCode}, 2, 8));
  TestResolver r;
  r.Add(ScratchKernel());
  size_t required = 0;
  ASSERT_TRUE(runtime::RequiredArenaSize(l.model, r.resolver, InterpreterOptions(),
                                         Span<const runtime::Preallocation>(), &required)
                  .ok());
  EXPECT_GT(required, size_t{3} << 20);
  EXPECT_EQ(required, BisectMinimum(l.model, r.resolver, InterpreterOptions()));
}

TEST_P(ArenaSizeTest, OneRunEqualsBisection) {
  Loaded l = BuildAndLoad(EverythingModel());
  TestResolver r;
  AddEverythingKernels(&r);
  size_t required = 0;
  ASSERT_TRUE(runtime::RequiredArenaSize(l.model, r.resolver, Options(),
                                         Span<const runtime::Preallocation>(), &required)
                  .ok());
  EXPECT_EQ(required, BisectMinimum(l.model, r.resolver, Options()));
}

TEST(ArenaSizeRequired, HelperPassesOtherErrorsThrough) {
  Loaded l = BuildAndLoad(ChainModel({kSvdfCode}, 1, 4));
  TestResolver r;
  size_t bytes = 7;
  Status s = runtime::RequiredArenaSize(l.model, r.resolver, InterpreterOptions(),
                                        Span<const runtime::Preallocation>(), &bytes);
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_EQ(bytes, 0u);
}

// ---- real models (nop kernels: allocation only) ----

struct RealModel {
  const char* file;
  int64_t tflm_head;  // TFLM's head without kernel scratch, -1 = not checked
};

class RealModelTest : public ::testing::TestWithParam<RealModel> {};

TEST_P(RealModelTest, HeadIsGreedyPlanAndRequiredIsExact) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP(GetParam().file, bytes);
  model::Model m = MustLoad(bytes);
  TestResolver r;
  AddNopKernelsFor(m, &r);
  size_t required = 0;
  Status s = runtime::RequiredArenaSize(m, r.resolver, InterpreterOptions(),
                                        Span<const runtime::Preallocation>(), &required);
  ASSERT_TRUE(s.ok()) << s.message();
  TestArena exact(required);
  Interpreter it(m, r.resolver, exact.data(), exact.size());
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  EXPECT_EQ(static_cast<int64_t>(it.head_bytes()), ReferenceGreedyHead(m));
  if (GetParam().tflm_head >= 0) {
    EXPECT_EQ(static_cast<int64_t>(it.head_bytes()), GetParam().tflm_head);
  }
  EXPECT_TRUE(it.Invoke().ok());
  EXPECT_TRUE(exact.GuardIntact());
  TestArena less(required - 1);
  Interpreter fails(m, r.resolver, less.data(), less.size());
  EXPECT_EQ(fails.AllocateTensors().code(), StatusCode::kArenaTooSmall);
  EXPECT_TRUE(less.GuardIntact());
  EXPECT_EQ(required, BisectMinimum(m, r.resolver, InterpreterOptions()));
}

INSTANTIATE_TEST_SUITE_P(
    Shared, RealModelTest,
    ::testing::Values(RealModel{"hello_world_int8.tflite", 32},
                      RealModel{"hello_world_float.tflite", 128},
                      RealModel{"simple_add_model.tflite", -1},
                      RealModel{"keyword_scrambled.tflite", 288},
                      RealModel{"micro_speech_quantized.tflite", -1},
                      RealModel{"person_detect.tflite", -1},
                      RealModel{"kws_ref_model.tflite", -1},
                      RealModel{"vww_96_int8.tflite", -1},
                      RealModel{"pretrainedResnet_quant.tflite", -1},
                      RealModel{"ad01_int8.tflite", -1},
                      RealModel{"trained_lstm_int8.tflite", -1},
                      RealModel{"seanet_conv0.tflite", -1},
                      RealModel{"seanet_add0.tflite", -1}),
    [](const ::testing::TestParamInfo<RealModel>& info) {
      std::string name = info.param.file;
      name = name.substr(0, name.find('.'));
      return name;
    });

// With kernels making TFLM's SVDF scratch requests, the head is TFLM's
// measured 672 bytes over 30 planned buffers (measured with TFLM).
TEST(RealModelTflm, KeywordHeadWithSvdfScratchIsTflms) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("keyword_scrambled.tflite", bytes);
  model::Model m = MustLoad(bytes);
  TestResolver r;
  AddNopKernelsFor(m, &r, /*svdf_scratch=*/true);
  TestArena arena(1 << 16);
  InterpreterOptions o;
  o.keep_plan = true;
  Interpreter it(m, r.resolver, arena.data(), arena.size(), o);
  ASSERT_TRUE(it.AllocateTensors().ok()) << it.status().message();
  EXPECT_EQ(it.head_bytes(), 672u);
  EXPECT_EQ(it.planned_buffer_count(), 30u);
  EXPECT_EQ(it.scratch_buffer_count(), 14u);
  runtime::PlannedBuffer b;
  ASSERT_TRUE(it.planned_buffer(29, &b).ok());
  EXPECT_EQ(b.scratch_index, 13);
  EXPECT_EQ(b.first, b.last);
}

TEST(RealModelSweep, HelloWorldEverySize) {
  std::vector<uint8_t> bytes;
  TFLM_ARENA_LOAD_SHARED_OR_SKIP("hello_world_int8.tflite", bytes);
  model::Model m = MustLoad(bytes);
  TestResolver r;
  AddNopKernelsFor(m, &r);
  size_t required = 0;
  ASSERT_TRUE(runtime::RequiredArenaSize(m, r.resolver, InterpreterOptions(),
                                         Span<const runtime::Preallocation>(), &required)
                  .ok());
  SweepSizes(m, r.resolver, InterpreterOptions(), required);
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
