// The Signal operators' options parsing (untrusted flexbuffers: every bad
// input is an error, never a crash; run under the sanitizer build too) and
// stock TFLM's Prepare refusals (hybrid models).
#define FLATBUFFERS_LOCALE_INDEPENDENT 0
#include "tflm_arena/tflm/signal_kernels.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>
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
  EXPECT_EQ(SignalMemory("SignalRfft", S(odd), X86(), &m).code(), StatusCode::kInvalidArgument);
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
  EXPECT_TRUE(IsModelledSignalOp("SignalStacker"));
  EXPECT_FALSE(IsModelledSignalOp("SignalNotAnOperator"));
  EXPECT_EQ(SignalMemory("SignalNotAnOperator", Span<const uint8_t>(), X86(), &m).code(),
            StatusCode::kUnimplemented);
}

TEST(SignalKernels, IrfftStateIsKissFftrsNeedPlusFloatWrapper) {
  const auto i16 = Flex([](flexbuffers::Builder& b) {
    b.Int("T", 7);
    b.Int("fft_length", 64);
  });
  SignalOpMemory m;
  ASSERT_TRUE(SignalMemory("SignalIrfft", S(i16), X86(), &m).ok());
  // 3 pointers + (268 + 4 * 31) + 4 * 48.
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{32, 24 + 268 + 124 + 192}));
  EXPECT_EQ(m.temps.size(), 2u);
  EXPECT_TRUE(m.scratch.empty());
  EXPECT_EQ(m.prepare, SignalPrepareRule::kNone);
  ASSERT_TRUE(SignalMemory("SignalIrfft", S(i16), Arm(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{24, 12 + 268 + 124 + 192}));
  const auto f32 = Flex([](flexbuffers::Builder& b) {
    b.Int("T", 0);
    b.Int("fft_length", 128);
  });
  // IrfftFloatState first, then 3 pointers + (272 + 8 * 63) + 8 * 96.
  ASSERT_TRUE(SignalMemory("SignalIrfft", S(f32), X86(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{32, 16 + 24 + 272 + 504 + 768}));
  ASSERT_TRUE(SignalMemory("SignalIrfft", S(f32), Arm(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{24, 8 + 12 + 272 + 504 + 768}));
}

std::vector<uint8_t> StackerOptions(int64_t channels, int64_t left, int64_t right) {
  return Flex([&](flexbuffers::Builder& b) {
    b.Int("num_channels", channels);
    b.Int("stacker_left_context", left);
    b.Int("stacker_right_context", right);
    b.Int("stacker_step", 1);
  });
}

TEST(SignalKernels, StackerKeepsACircularBufferOfItsContext) {
  SignalOpMemory m;
  const auto opts = StackerOptions(40, 1, 1);
  ASSERT_TRUE(SignalMemory("SignalStacker", S(opts), X86(), &m).ok());
  // CircularBuffer header + 2 * 120 int16 elements.
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{56, 40 + 480}));
  EXPECT_EQ(m.temps.size(), 3u);
  ASSERT_TRUE(SignalMemory("SignalStacker", S(opts), Arm(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{36, 24 + 480}));
  // The element count is an int32 product in TFLM: bounded here.
  const auto huge = StackerOptions(1 << 20, 1 << 10, 0);
  const Status s = SignalMemory("SignalStacker", S(huge), X86(), &m);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::strstr(s.message(), "SignalStacker"), nullptr) << s.message();
  const auto negative = StackerOptions(40, -1, 1);
  EXPECT_EQ(SignalMemory("SignalStacker", S(negative), X86(), &m).code(),
            StatusCode::kInvalidArgument);
}

std::vector<uint8_t> FramerOptions(int64_t size, int64_t step) {
  return Flex([&](flexbuffers::Builder& b) {
    b.Int("frame_size", size);
    b.Int("frame_step", step);
    b.Bool("prefill", true);
  });
}

TEST(SignalKernels, FramerPrepareTakesACircularBufferPerRow) {
  SignalOpMemory m;
  const auto opts = FramerOptions(400, 160);
  const int32_t shape[] = {3, 320};
  std::vector<uint64_t> buffers;
  std::string refusal;
  ASSERT_TRUE(SignalMemory("SignalFramer", S(opts), X86(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{40}));
  ASSERT_TRUE(SignalPrepareBuffers("SignalFramer", m, Span<const int32_t>(shape, 2), X86(),
                                   &buffers, &refusal)
                  .ok());
  EXPECT_TRUE(refusal.empty());
  // Two arrays of 3 pointers, then per row a circular buffer of 400
  // rounded up to 480 samples, held twice over: 4 * 480 bytes.
  EXPECT_EQ(buffers, (std::vector<uint64_t>{24, 24, 40 + 1920, 40 + 1920, 40 + 1920}));
  ASSERT_TRUE(SignalMemory("SignalFramer", S(opts), Arm(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{28}));
  ASSERT_TRUE(SignalPrepareBuffers("SignalFramer", m, Span<const int32_t>(shape, 2), Arm(),
                                   &buffers, &refusal)
                  .ok());
  EXPECT_EQ(buffers, (std::vector<uint64_t>{12, 12, 24 + 1920, 24 + 1920, 24 + 1920}));
  // Shapes TFLM's FramerPrepare refuses: its check, no buffers.
  const int32_t short_input[] = {1, 150};
  ASSERT_TRUE(SignalPrepareBuffers("SignalFramer", m, Span<const int32_t>(short_input, 2), Arm(),
                                   &buffers, &refusal)
                  .ok());
  EXPECT_EQ(refusal, "innermost_dim >= params->frame_step was not true.");
  EXPECT_TRUE(buffers.empty());
  const int32_t uneven[] = {1, 200};
  ASSERT_TRUE(SignalPrepareBuffers("SignalFramer", m, Span<const int32_t>(uneven, 2), Arm(),
                                   &buffers, &refusal)
                  .ok());
  EXPECT_EQ(refusal, "innermost_dim % params->frame_step != 0 (40 != 0)");
  // frame_step 0: TFLM divides by it.
  const auto zero = FramerOptions(400, 0);
  EXPECT_EQ(SignalMemory("SignalFramer", S(zero), X86(), &m).code(), StatusCode::kInvalidArgument);
}

TEST(SignalKernels, DelayAndOverlapAddPrepareBuffersPerTarget) {
  SignalOpMemory m;
  std::vector<uint64_t> buffers;
  std::string refusal;
  const auto delay = Flex([](flexbuffers::Builder& b) { b.Int("delay_length", 7); });
  const int32_t rows2[] = {2, 50};
  ASSERT_TRUE(SignalMemory("SignalDelay", S(delay), X86(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{32}));
  ASSERT_TRUE(SignalPrepareBuffers("SignalDelay", m, Span<const int32_t>(rows2, 2), X86(), &buffers,
                                   &refusal)
                  .ok());
  // Per row a circular buffer of 50 + 7 samples, held twice over.
  EXPECT_EQ(buffers, (std::vector<uint64_t>{16, 16, 40 + 228, 40 + 228}));
  ASSERT_TRUE(SignalMemory("SignalDelay", S(delay), Arm(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{20}));
  ASSERT_TRUE(SignalPrepareBuffers("SignalDelay", m, Span<const int32_t>(rows2, 2), Arm(), &buffers,
                                   &refusal)
                  .ok());
  EXPECT_EQ(buffers, (std::vector<uint64_t>{8, 8, 24 + 228, 24 + 228}));

  const auto ola = Flex([](flexbuffers::Builder& b) {
    b.Int("T", 7);
    b.Int("frame_step", 16);
  });
  const int32_t frames[] = {3, 4, 48};
  ASSERT_TRUE(SignalMemory("SignalOverlapAdd", S(ola), X86(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{32}));
  ASSERT_TRUE(SignalPrepareBuffers("SignalOverlapAdd", m, Span<const int32_t>(frames, 3), X86(),
                                   &buffers, &refusal)
                  .ok());
  // state_buffers, then per row one frame of 48 int16.
  EXPECT_EQ(buffers, (std::vector<uint64_t>{24, 96, 96, 96}));
  ASSERT_TRUE(SignalMemory("SignalOverlapAdd", S(ola), Arm(), &m).ok());
  EXPECT_EQ(m.init_buffers, (std::vector<uint64_t>{24}));
  ASSERT_TRUE(SignalPrepareBuffers("SignalOverlapAdd", m, Span<const int32_t>(frames, 3), Arm(),
                                   &buffers, &refusal)
                  .ok());
  EXPECT_EQ(buffers, (std::vector<uint64_t>{12, 96, 96, 96}));
  const int32_t one_frame[] = {48};
  ASSERT_TRUE(SignalPrepareBuffers("SignalOverlapAdd", m, Span<const int32_t>(one_frame, 1), Arm(),
                                   &buffers, &refusal)
                  .ok());
  EXPECT_EQ(refusal, "input_shape.DimensionsCount() >= 2 was not true.");
}

TEST(SignalKernels, ShapesTflmWouldCrashOnAreErrors) {
  SignalOpMemory m;
  std::vector<uint64_t> buffers;
  std::string refusal;
  const auto delay = Flex([](flexbuffers::Builder& b) { b.Int("delay_length", 7); });
  ASSERT_TRUE(SignalMemory("SignalDelay", S(delay), X86(), &m).ok());
  // A scalar (no innermost dimension), a zero innermost dimension (TFLM
  // divides by it), too many rows.
  EXPECT_EQ(SignalPrepareBuffers("SignalDelay", m, Span<const int32_t>(), X86(), &buffers, &refusal)
                .code(),
            StatusCode::kInvalidArgument);
  const int32_t zero[] = {4, 0};
  EXPECT_EQ(SignalPrepareBuffers("SignalDelay", m, Span<const int32_t>(zero, 2), X86(), &buffers,
                                 &refusal)
                .code(),
            StatusCode::kInvalidArgument);
  const int32_t many[] = {1 << 10, 1 << 10, 1 << 10, 1};
  const Status s = SignalPrepareBuffers("SignalDelay", m, Span<const int32_t>(many, 4), X86(),
                                        &buffers, &refusal);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::strstr(s.message(), "SignalDelay"), nullptr) << s.message();
  EXPECT_TRUE(buffers.empty());
  // The largest modelled count of rows is accepted.
  const int32_t most[] = {static_cast<int32_t>(kMaxSignalOuterRows), 2};
  ASSERT_TRUE(SignalPrepareBuffers("SignalDelay", m, Span<const int32_t>(most, 2), X86(), &buffers,
                                   &refusal)
                  .ok());
  EXPECT_EQ(buffers.size(), kMaxSignalOuterRows + 2);
}

TEST(SignalKernels, WrongTypesOfTheStreamingOperatorsAreErrors) {
  SignalOpMemory m;
  const auto str = Flex([](flexbuffers::Builder& b) {
    b.Int("frame_size", 400);
    b.String("frame_step", "160");
    b.Bool("prefill", true);
  });
  Status s = SignalMemory("SignalFramer", S(str), X86(), &m);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::strstr(s.message(), "'frame_step' is not an integer"), nullptr) << s.message();
  const auto fl = Flex([](flexbuffers::Builder& b) { b.Double("delay_length", 7.0); });
  EXPECT_EQ(SignalMemory("SignalDelay", S(fl), X86(), &m).code(), StatusCode::kInvalidArgument);
  const auto no_t = Flex([](flexbuffers::Builder& b) { b.Int("frame_step", 16); });
  s = SignalMemory("SignalOverlapAdd", S(no_t), X86(), &m);
  EXPECT_NE(std::strstr(s.message(), "option 'T' missing"), nullptr) << s.message();
  const auto int32_ola = Flex([](flexbuffers::Builder& b) {
    b.Int("T", 2);
    b.Int("frame_step", 16);
  });
  EXPECT_EQ(SignalMemory("SignalOverlapAdd", S(int32_ola), X86(), &m).code(),
            StatusCode::kInvalidArgument);
  const auto huge_fft = Flex([](flexbuffers::Builder& b) {
    b.Int("T", 7);
    b.Int("fft_length", INT64_MAX);
  });
  EXPECT_EQ(SignalMemory("SignalIrfft", S(huge_fft), X86(), &m).code(),
            StatusCode::kInvalidArgument);
}

// Every truncation is an error; every bit flip an error or bounded figures
// (the sanitizer build checks the reads).
TEST(SignalKernels, StreamingOptionsSurviveTruncationAndByteFlips) {
  const std::vector<std::pair<const char*, std::vector<uint8_t>>> cases = {
      {"SignalFramer", FramerOptions(400, 160)},
      {"SignalStacker", StackerOptions(40, 2, 2)},
      {"SignalIrfft", Flex([](flexbuffers::Builder& b) {
         b.Int("T", 0);
         b.Int("fft_length", 512);
       })},
      {"SignalOverlapAdd", Flex([](flexbuffers::Builder& b) {
         b.Int("T", 0);
         b.Int("frame_step", 256);
       })},
      {"SignalDelay", Flex([](flexbuffers::Builder& b) { b.Int("delay_length", 3); })},
  };
  const int32_t shape[] = {2, 512};
  for (const auto& c : cases) {
    SignalOpMemory m;
    ASSERT_TRUE(SignalMemory(c.first, S(c.second), X86(), &m).ok()) << c.first;
    for (size_t n = 0; n < c.second.size(); ++n) {
      std::vector<uint8_t> cut(c.second.begin(), c.second.begin() + n);
      EXPECT_FALSE(SignalMemory(c.first, S(cut), X86(), &m).ok()) << c.first << " " << n;
    }
    for (size_t i = 0; i < c.second.size(); ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        std::vector<uint8_t> bad = c.second;
        bad[i] ^= static_cast<uint8_t>(1u << bit);
        if (!SignalMemory(c.first, S(bad), X86(), &m).ok()) continue;
        for (uint64_t bytes : m.init_buffers) EXPECT_LE(bytes, uint64_t{1} << 32) << c.first;
        std::vector<uint64_t> buffers;
        std::string refusal;
        if (SignalPrepareBuffers(c.first, m, Span<const int32_t>(shape, 2), X86(), &buffers,
                                 &refusal)
                .ok()) {
          for (uint64_t bytes : buffers) EXPECT_LE(bytes, uint64_t{1} << 32) << c.first;
        }
      }
    }
  }
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
