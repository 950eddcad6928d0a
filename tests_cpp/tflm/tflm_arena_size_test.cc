// The stock-TFLM arena model on real models, against measured figures:
//  - x86-64, RecordingMicroAllocator: byte-exact minima bisected on the
//    tflite-micro wheel and what the wheel prints at that size;
//  - cortex-m, plain MicroAllocator: a 32-bit ARM build of TFLM, bisected
//    under qemu-arm (docs/tflm_behaviour.md, section "Measured minimum
//    arenas").
#include "tflm_arena/tflm/tflm_arena_size.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "test_builder.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/tflm/kernel_table.h"
#include "tflm_arena/tflm/registered_ops.h"
#include "tflm_arena/tflm/scratch_requests.h"

namespace tflm_arena {
namespace tflm {
namespace {

struct Loaded {
  std::vector<uint8_t> bytes;
  model::Model model;
};

const CategoryFigures& Cat(const TflmArenaSize& r, Category c) {
  return r.categories[static_cast<size_t>(c)];
}

TflmArenaSize MustSize(const model::Model& m, const char* target, bool recording,
                       const char* planner = "tflm_greedy") {
  TflmArenaOptions o;
  o.target = target;
  o.recording = recording;
  o.planner = planner;
  TflmArenaSize r;
  const Status s = ComputeTflmArenaSize(m, o, &r);
  EXPECT_TRUE(s.ok()) << s.message();
  return r;
}

#define LOAD(name, var)                                                       \
  std::vector<uint8_t> var##_bytes;                                           \
  TFLM_ARENA_LOAD_SHARED_OR_SKIP(std::string(name) + ".tflite", var##_bytes); \
  model::Model var = testing::MustLoad(var##_bytes)

struct Expected {
  const char* model;
  uint64_t min;
};

// Byte-exact bisection of the wheel (recording allocator).
constexpr Expected kWheelMinima[] = {
    {"person_detect", 85264},
    {"vww_96_int8", 103672},
    {"kws_ref_model", 24272},
    {"micro_speech_quantized", 7584},
    {"keyword_scrambled", 18056},
    {"hello_world_int8", 1936},
    {"ad01_int8", 4632},
    {"simple_add_model", 50168},
    {"pretrainedResnet_quant", 55984},
    {"seanet_transpose_conv4", 58128},
    {"trained_lstm_int8", 4208},
};

TEST(TflmArenaSize, X86_64RecordingMatchesTheWheelsBisectedMinimum) {
  for (const Expected& e : kWheelMinima) {
    LOAD(e.model, m);
    const TflmArenaSize r = MustSize(m, "x86-64", true);
    EXPECT_EQ(r.min_arena_bytes, e.min) << e.model;
    EXPECT_EQ(r.min_arena_bytes_16, (e.min + 15) / 16 * 16) << e.model;
  }
}

TEST(TflmArenaSize, HelloWorldFiguresEqualWhatTheWheelPrintsAtTheMinimum) {
  LOAD("hello_world_int8", m);
  const TflmArenaSize r = MustSize(m, "x86-64", true);
  // print_allocations() of the wheel at 1936 bytes.
  EXPECT_EQ(r.head, 32u);
  EXPECT_EQ(r.tail, 1472u);
  EXPECT_EQ(Cat(r, Category::kEvalTensorData).used, 240u);
  EXPECT_EQ(Cat(r, Category::kEvalTensorData).count, 10u);
  EXPECT_EQ(Cat(r, Category::kPersistentTensorData).used, 128u);
  EXPECT_EQ(Cat(r, Category::kPersistentTensorData).count, 2u);
  EXPECT_EQ(Cat(r, Category::kPersistentQuantizationData).used, 64u);
  EXPECT_EQ(Cat(r, Category::kPersistentQuantizationData).count, 4u);
  EXPECT_EQ(Cat(r, Category::kPersistentBufferData).used, 264u);
  EXPECT_EQ(Cat(r, Category::kPersistentBufferData).requested, 232u);
  EXPECT_EQ(Cat(r, Category::kPersistentBufferData).count, 5u);
  EXPECT_EQ(Cat(r, Category::kNodeAndRegistration).used, 192u);
  EXPECT_EQ(Cat(r, Category::kNodeAndRegistration).count, 3u);
  // Planning temp memory sets the minimum, not the final head + tail
  // (docs/tflm_behaviour.md, section "Temp during planning").
  EXPECT_GT(r.min_arena_bytes, r.head + r.tail);
  EXPECT_EQ(r.limited_by, "memory planner scratch");
}

TEST(TflmArenaSize, KeywordVariablesAndScratchMatchTheWheel) {
  LOAD("keyword_scrambled", m);
  const TflmArenaSize r = MustSize(m, "x86-64", true);
  EXPECT_EQ(r.head, 672u);
  EXPECT_EQ(r.tail, 14472u);
  EXPECT_EQ(Cat(r, Category::kVariableBufferData).used, 10240u);
  EXPECT_EQ(Cat(r, Category::kVariableBufferData).count, 7u);
  EXPECT_EQ(Cat(r, Category::kPersistentBufferData).used, 916u);
  EXPECT_EQ(Cat(r, Category::kPersistentBufferData).requested, 772u);
  EXPECT_EQ(r.scratch_requests, 14u);
  EXPECT_EQ(r.planned_buffers, 30u);
}

struct ArmExpected {
  const char* model;
  uint64_t min, head, tail;  // head/tail 0: not measured
};

// 32-bit ARM, plain allocator, measured (section "Measured minimum arenas").
constexpr ArmExpected kArm[] = {
    {"ad01_int8", 2808, 768, 1604},
    {"hello_world_int8", 1100, 32, 680},
    {"keyword_scrambled", 15588, 0, 0},
    {"kws_ref_model", 22780, 16000, 6776},
    {"micro_speech_quantized", 6808, 5968, 836},
    {"person_detect", 82296, 55296, 26996},
    {"pretrainedResnet_quant", 54360, 0, 0},
    {"simple_add_model", 49628, 0, 0},
    {"trained_lstm_int8", 3232, 0, 0},
    {"vww_96_int8", 100668, 73728, 26936},
};

TEST(TflmArenaSize, CortexMPlainMatchesTheArmBuild) {
  for (const ArmExpected& e : kArm) {
    LOAD(e.model, m);
    const TflmArenaSize r = MustSize(m, "cortex-m", false);
    EXPECT_EQ(r.min_arena_bytes, e.min) << e.model;
    if (e.head != 0) {
      EXPECT_EQ(r.head, e.head) << e.model;
      EXPECT_EQ(r.tail, e.tail) << e.model;
    }
  }
}

TEST(TflmArenaSize, RecordingCostsExactlyTheRecordingObjects) {
  // cortex-m: RecordingMicroAllocator 124 vs 36, recording single-arena
  // allocator 52 vs 36 (docs/tflm_behaviour.md, section "Struct sizes per
  // target"): +104, every model.
  for (const ArmExpected& e : kArm) {
    LOAD(e.model, m);
    const TflmArenaSize plain = MustSize(m, "cortex-m", false);
    const TflmArenaSize rec = MustSize(m, "cortex-m", true);
    EXPECT_EQ(rec.min_arena_bytes - plain.min_arena_bytes, 104u) << e.model;
    EXPECT_EQ(rec.tail - plain.tail, 104u) << e.model;
  }
}

TEST(TflmArenaSize, LinearPlannerHeadIsTheSumOfPlannedBuffers) {
  LOAD("hello_world_int8", m);
  const TflmArenaSize g = MustSize(m, "x86-64", false, "tflm_greedy");
  const TflmArenaSize l = MustSize(m, "x86-64", false, "linear");
  EXPECT_EQ(g.head, 32u);
  EXPECT_EQ(l.head, 64u);  // four 16-byte buffers, no reuse
  // Measured on the wheel (kPreserveAllTensors): 9,736 bytes; the 8,216-byte
  // linear planner object lives in the tail.
  EXPECT_EQ(l.min_arena_bytes, 9736u);
}

// A one-operator model using `op` on float tensors.
testing::TModel OneOpModel(const char* op) {
  model::BuiltinCode code = 0;
  EXPECT_TRUE(model::BuiltinCodeFromName(op, &code)) << op;
  testing::TModel m;
  m.opcodes = {testing::Builtin(code)};
  testing::TSubgraph sg;
  sg.tensors.resize(2);
  sg.inputs = {0};
  sg.outputs = {1};
  testing::TOp o;
  o.inputs = {0};
  o.outputs = {1};
  sg.ops = {o};
  m.subgraphs = {sg};
  return m;
}

TEST(TflmArenaSize, AnOperatorTflmHasNoKernelForIsItsRegistrationRefusal) {
  // Every operator TFLM registers has a row; one it does not register is
  // refused as TFLM refuses it, named, never guessed.
  ASSERT_EQ(FindKernel(ReferenceKernels(), "LSH_PROJECTION"), nullptr);
  ASSERT_FALSE(IsTflmRegisteredBuiltin("LSH_PROJECTION"));
  for (const char* op : TflmRegisteredBuiltins()) {
    EXPECT_NE(FindKernel(ReferenceKernels(), op), nullptr) << op;
  }
  const testing::Loaded l = testing::BuildAndLoad(OneOpModel("LSH_PROJECTION"));
  TflmArenaOptions o;
  TflmArenaSize r;
  Refusal refusal;
  const Status s = ComputeTflmArenaSize(l.model, o, &r, &refusal);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_TRUE(refusal.refused);
  EXPECT_EQ(refusal.reason, "Didn't find op for builtin opcode 'LSH_PROJECTION'");
  EXPECT_NE(std::strstr(s.message(), "LSH_PROJECTION"), nullptr) << s.message();
}

TEST(TflmArenaSize, ACodePastTheSchemasEnumIsTflmsRefusalOnEveryTarget) {
  // The reader keeps codes newer than its table; TFLM's
  // GetRegistrationFromOpCode refuses them at any arena size. Used to look
  // a null name up in the kernel tables (a segfault).
  for (const int32_t code : {model::kNumNamedBuiltinCodes, 65581, INT32_MAX}) {
    testing::TModel tm = OneOpModel("LEAKY_RELU");
    tm.opcodes[0].builtin_code = code;
    const testing::Loaded l = testing::BuildAndLoad(tm);
    ASSERT_EQ(model::BuiltinCodeName(code), nullptr);
    for (const BuildTarget& t : BuildTargets()) {
      TflmArenaOptions o;
      o.target = t.name;
      TflmArenaSize r;
      Refusal refusal;
      const Status s = ComputeTflmArenaSize(l.model, o, &r, &refusal);
      EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition) << t.name << ": " << s.message();
      ASSERT_TRUE(refusal.refused) << t.name;
      EXPECT_EQ(refusal.reason, "Op builtin_code out of range: " + std::to_string(code) + ".");
      EXPECT_EQ(refusal.op_name, "builtin code " + std::to_string(code));
      EXPECT_EQ(refusal.subgraph, 0u);
      EXPECT_EQ(refusal.op_index, 0u);
      EXPECT_NE(std::strstr(s.message(), "(subgraph 0, operator 0)"), nullptr) << s.message();
      std::vector<model::ScratchRequest> scratch;
      EXPECT_EQ(TflmScratchRequests(l.model, t.name, &scratch).code(),
                StatusCode::kFailedPrecondition);
    }
  }
  EXPECT_EQ(FindKernel(ReferenceKernels(), nullptr), nullptr);
}

TEST(TflmArenaSize, AKernelVariantIsAnotherTableNotNewCode) {
  // A variant (e.g. CMSIS-NN) differs only in its rows: here LEAKY_RELU's
  // OpData grows by 40 bytes, and the tail grows by 40 give or take the
  // 16-byte alignment of the neighbouring allocations; no code changes.
  const testing::Loaded l = testing::BuildAndLoad(OneOpModel("LEAKY_RELU"));
  std::vector<KernelRow> variant(ReferenceKernels().size());
  for (size_t i = 0; i < variant.size(); ++i) variant[i] = ReferenceKernels()[i];
  KernelRow* row = nullptr;
  for (KernelRow& r : variant) {
    if (std::strcmp(r.op, "LEAKY_RELU") == 0) row = &r;
  }
  ASSERT_NE(row, nullptr);
  row->opdata[static_cast<size_t>(AbiId::kCortexM)] += 40;  // 24 -> 64

  TraceOptions o;
  o.target = FindTarget("cortex-m");
  o.kernels = ReferenceKernels();
  Trace ref, var;
  ASSERT_TRUE(BuildTrace(l.model, o, &ref).ok());
  o.kernels = Span<const KernelRow>(variant.data(), variant.size());
  ASSERT_TRUE(BuildTrace(l.model, o, &var).ok());
  const ReplayResult a = Replay(ref, 4096), b = Replay(var, 4096);
  ASSERT_TRUE(a.ok && b.ok);
  EXPECT_GE(b.tail - a.tail, 40u - 15u);
  EXPECT_LE(b.tail - a.tail, 40u + 15u);
  EXPECT_EQ(var.events.size(), ref.events.size());
}

TEST(TflmArenaSize, ModelledOperatorOnASyntheticModelSucceeds) {
  const testing::Loaded l = testing::BuildAndLoad(OneOpModel("LEAKY_RELU"));
  const TflmArenaSize r = MustSize(l.model, "cortex-m", false);
  EXPECT_EQ(r.head, 32u);  // input [0,1] and output [1,1] share step 1
}

TEST(TflmArenaSize, UnknownTargetAndPlannerAreInvalidArguments) {
  const testing::Loaded l = testing::BuildAndLoad(OneOpModel("LEAKY_RELU"));
  TflmArenaOptions o;
  TflmArenaSize r;
  o.target = "riscv";
  EXPECT_EQ(ComputeTflmArenaSize(l.model, o, &r).code(), StatusCode::kInvalidArgument);
  o.target = "x86-64";
  o.planner = "optimal";
  EXPECT_EQ(ComputeTflmArenaSize(l.model, o, &r).code(), StatusCode::kInvalidArgument);
  // RecordingMicroAllocator has no linear-planner variant in TFLM.
  o.planner = "linear";
  o.recording = true;
  EXPECT_EQ(ComputeTflmArenaSize(l.model, o, &r).code(), StatusCode::kInvalidArgument);
  o.recording = false;
  EXPECT_TRUE(ComputeTflmArenaSize(l.model, o, &r).ok());
}

TEST(TflmArenaSize, LinearPlannerWithAnOfflinePlanFailsAsInTflm) {
  testing::TModel m = OneOpModel("LEAKY_RELU");
  testing::AddOfflinePlan(&m, {0, 16});
  const testing::Loaded l = testing::BuildAndLoad(m);
  TflmArenaOptions o;
  o.planner = "linear";
  TflmArenaSize r;
  EXPECT_EQ(ComputeTflmArenaSize(l.model, o, &r).code(), StatusCode::kUnimplemented);
  // The greedy planner honours it: buffers at 0 and 16 -> head 32.
  o.planner = "tflm_greedy";
  ASSERT_TRUE(ComputeTflmArenaSize(l.model, o, &r).ok());
  EXPECT_EQ(r.head, 32u);
}

}  // namespace
}  // namespace tflm
}  // namespace tflm_arena
