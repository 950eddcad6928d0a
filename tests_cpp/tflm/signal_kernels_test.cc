// The Signal operators' options parsing (untrusted flexbuffers: every bad
// input is an error, never a crash; run under the sanitizer build too) and
// stock TFLM's Prepare refusals (hybrid models).
#define FLATBUFFERS_LOCALE_INDEPENDENT 0
#include "tflm_arena/tflm/signal_kernels.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "flatbuffers/flexbuffers.h"
#include "test_builder.h"
#include "tflm_arena/tflm/kernel_refusals.h"
#include "tflm_arena/tflm/target_abi.h"
#include "tflm_arena/tflm/tflm_arena_size.h"

namespace tflm_arena {
namespace tflm {
namespace {

template <typename F>
std::vector<uint8_t> Flex(F fill) {
  flexbuffers::Builder fbb;
  fbb.Map([&] { fill(fbb); });
  fbb.Finish();
  return fbb.GetBuffer();
}

Span<const uint8_t> S(const std::vector<uint8_t>& v) {
  return Span<const uint8_t>(v.data(), v.size());
}

const TargetAbi& X86() { return *FindTarget("x86-64"); }
const TargetAbi& Arm() { return *FindTarget("cortex-m"); }

TEST(SignalKernels, FilterBankBuffersPerTarget) {
  const auto opts = Flex([](flexbuffers::Builder& b) { b.Int("num_channels", 40); });
  SignalOpMemory m;
  ASSERT_TRUE(SignalMemory("SignalFilterBank", S(opts), X86(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{64, 41 * 8}));
  EXPECT_EQ(m.temps.size(), 7u);
  ASSERT_TRUE(SignalMemory("SignalFilterBank", S(opts), Arm(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{36, 41 * 8}));
}

TEST(SignalKernels, RfftStateIsKissFftrsNeed) {
  const auto opts = Flex([](flexbuffers::Builder& b) {
    b.Int("T", 7);  // INT16
    b.Int("fft_length", 512);
  });
  SignalOpMemory m;
  ASSERT_TRUE(SignalMemory("SignalRfft", S(opts), X86(), &m).ok());
  // 3 pointers + (268 + 4 * 255) + 4 * 384 on LP64.
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{48, 24 + 268 + 1020 + 1536}));
  EXPECT_EQ(m.scratch, (std::vector<uint64_t>{1024}));
  ASSERT_TRUE(SignalMemory("SignalRfft", S(opts), Arm(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{32, 12 + 268 + 1020 + 1536}));
}

TEST(SignalKernels, OptionReadByPositionMustCarryItsKey) {
  // An extra key sorted before 'num_channels' moves it: TFLM would read
  // the wrong value, we name the problem.
  const auto opts = Flex([](flexbuffers::Builder& b) {
    b.Int("a_extra", 1);
    b.Int("num_channels", 40);
  });
  SignalOpMemory m;
  const Status s = SignalMemory("SignalFilterBank", S(opts), X86(), &m);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::strstr(s.message(), "'num_channels' missing"), nullptr) << s.message();
}

TEST(SignalKernels, WrongTypesAndHugeSizesAreErrors) {
  SignalOpMemory m;
  const auto str = Flex([](flexbuffers::Builder& b) { b.String("num_channels", "40"); });
  EXPECT_EQ(SignalMemory("SignalFilterBank", S(str), X86(), &m).code(),
            StatusCode::kInvalidArgument);
  const auto huge = Flex([](flexbuffers::Builder& b) { b.Int("num_channels", INT64_MAX); });
  EXPECT_EQ(SignalMemory("SignalFilterBank", S(huge), X86(), &m).code(),
            StatusCode::kInvalidArgument);
  const auto neg = Flex([](flexbuffers::Builder& b) { b.Int("num_channels", -1); });
  EXPECT_EQ(SignalMemory("SignalFilterBank", S(neg), X86(), &m).code(),
            StatusCode::kInvalidArgument);
  const auto odd = Flex([](flexbuffers::Builder& b) {
    b.Int("T", 7);
    b.Int("fft_length", 511);
  });
  EXPECT_EQ(SignalMemory("SignalRfft", S(odd), X86(), &m).code(),
            StatusCode::kInvalidArgument);
  // A vector root, not a map.
  flexbuffers::Builder vb;
  vb.Vector([&] { vb.Int(40); });
  vb.Finish();
  EXPECT_EQ(SignalMemory("SignalFilterBank", S(vb.GetBuffer()), X86(), &m).code(),
            StatusCode::kInvalidArgument);
}

TEST(SignalKernels, EveryTruncationAndByteFlipIsAnErrorOrAValue) {
  const auto good = Flex([](flexbuffers::Builder& b) {
    b.Int("alternate_one_minus_smoothing", 15401);
    b.Int("alternate_smoothing", 983);
    b.Bool("clamping", false);
    b.Int("min_signal_remaining", 819);
    b.Int("num_channels", 40);
    b.Int("one_minus_smoothing", 15975);
    b.Int("smoothing", 409);
    b.Int("smoothing_bits", 10);
    b.Int("spectral_subtraction_bits", 14);
  });
  SignalOpMemory m;
  ASSERT_TRUE(SignalMemory("SignalFilterBankSpectralSubtraction", S(good), X86(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{56, 160}));
  for (size_t n = 0; n < good.size(); ++n) {
    std::vector<uint8_t> cut(good.begin(), good.begin() + n);
    const Status s = SignalMemory("SignalFilterBankSpectralSubtraction", S(cut), X86(), &m);
    EXPECT_FALSE(s.ok()) << n;
  }
  for (size_t i = 0; i < good.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<uint8_t> bad = good;
      bad[i] ^= static_cast<uint8_t>(1u << bit);
      // Either a clear error or figures; never a crash (the sanitizer
      // build checks reads).
      const Status s = SignalMemory("SignalFilterBankSpectralSubtraction", S(bad), X86(), &m);
      if (s.ok()) {
        ASSERT_EQ(m.init_buffers.size(), 2u);
        EXPECT_LE(m.init_buffers[1], (uint64_t{1} << 28) * 4);
      }
    }
  }
}

TEST(SignalKernels, OperatorsWithoutInitNeedNoOptions) {
  SignalOpMemory m;
  EXPECT_TRUE(SignalMemory("SignalFftAutoScale", Span<const uint8_t>(), X86(), &m).ok());
  EXPECT_TRUE(m.init_buffers.empty());
  EXPECT_EQ(m.temps.size(), 3u);
  EXPECT_FALSE(IsModelledSignalOp("SignalStacker"));
  EXPECT_EQ(SignalMemory("SignalStacker", Span<const uint8_t>(), X86(), &m).code(),
            StatusCode::kUnimplemented);
}

// FULLY_CONNECTED with a float32 input and int8 weights.
TEST(KernelRefusals, HybridFullyConnectedIsRefusedWithTflmsReason) {
  testing::TModel tm;
  tm.opcodes.push_back(testing::Builtin(9));  // FULLY_CONNECTED
  testing::TSubgraph sg;
  testing::TTensor x, w, y;
  x.shape = {1, 8};
  w.shape = {4, 8};
  w.type = 9;  // INT8
  w.scale = {0.1f};
  w.zero_point = {0};
  w.buffer = testing::AddConstBuffer(&tm, 32);
  y.shape = {1, 4};
  sg.tensors = {x, w, y};
  sg.inputs = {0};
  sg.outputs = {2};
  testing::TOp op;
  op.inputs = {0, 1, -1};
  op.outputs = {2};
  sg.ops = {op};
  tm.subgraphs = {sg};
  testing::Loaded l = testing::BuildAndLoad(tm);
  for (const char* target : {"x86-64", "cortex-m"}) {
    TflmArenaOptions o;
    o.target = target;
    TflmArenaSize r;
    Refusal refusal;
    const Status s = ComputeTflmArenaSize(l.model, o, &r, &refusal);
    EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
    ASSERT_TRUE(refusal.refused);
    EXPECT_EQ(refusal.reason, "Input type: FLOAT32 with filter type: INT8 not supported.");
    EXPECT_EQ(refusal.op_name, "FULLY_CONNECTED");
    EXPECT_EQ(refusal.op_index, 0u);
    EXPECT_EQ(refusal.subgraph, 0u);
  }
  // The float twin is accepted.
  tm.subgraphs[0].tensors[1].type = 0;
  tm.subgraphs[0].tensors[1].scale.clear();
  tm.subgraphs[0].tensors[1].zero_point.clear();
  tm.buffers[w.buffer].data.resize(128);
  testing::Loaded f = testing::BuildAndLoad(tm);
  TflmArenaSize r;
  Refusal refusal;
  EXPECT_TRUE(ComputeTflmArenaSize(f.model, TflmArenaOptions(), &r, &refusal).ok());
  EXPECT_FALSE(refusal.refused);
}

}  // namespace
}  // namespace tflm
}  // namespace tflm_arena
