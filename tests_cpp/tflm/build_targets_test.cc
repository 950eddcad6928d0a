// Build targets: each name resolves to one layout and one allocator, and
// contradictory requests are refused with a reason.
#include "tflm_arena/tflm/build_targets.h"

#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

namespace tflm_arena {
namespace tflm {
namespace {

ResolvedTarget MustResolve(const char* name, AllocatorChoice choice, const char* planner) {
  ResolvedTarget r;
  const Status s = ResolveBuildTarget(name, choice, planner, &r);
  EXPECT_TRUE(s.ok()) << s.message();
  return r;
}

TEST(BuildTargets, NamesAreUniqueAndEachNamesAKnownLayout) {
  std::set<std::string> names;
  for (const BuildTarget& t : BuildTargets()) {
    EXPECT_TRUE(names.insert(t.name).second) << t.name;
    EXPECT_NE(FindTarget(t.abi), nullptr) << t.abi;
    EXPECT_EQ(FindBuildTarget(t.name), &t);
    EXPECT_GT(std::strlen(t.description), 20u) << t.name;
  }
  EXPECT_STREQ(DefaultBuildTarget().name, "cortex-m");
  EXPECT_EQ(BuildTargetNames(),
            "cortex-m, x86-64, tflite-micro-wheel, cortex-m0+cmsis-nn, cortex-m0plus+cmsis-nn, "
            "cortex-m3+cmsis-nn, cortex-m4+cmsis-nn, cortex-m7+cmsis-nn, cortex-m33+cmsis-nn, "
            "cortex-m55+cmsis-nn, cortex-m85+cmsis-nn, cortex-m+ethos-u, cortex-m55+ethos-u, "
            "esp32+esp-nn, esp32s3+esp-nn, "
            "esp32p4+esp-nn, esp32+esp-nn-ansi-c");
  EXPECT_EQ(FindBuildTarget("riscv"), nullptr);
  EXPECT_EQ(FindBuildTarget(nullptr), nullptr);
}

TEST(BuildTargets, PlainTargetsUseMicroAllocatorUnlessAsked) {
  for (const char* name : {"cortex-m", "x86-64"}) {
    EXPECT_FALSE(MustResolve(name, AllocatorChoice::kTargetDefault, "tflm_greedy").recording);
    EXPECT_FALSE(MustResolve(name, AllocatorChoice::kMicroAllocator, "linear").recording);
    EXPECT_TRUE(MustResolve(name, AllocatorChoice::kRecording, "tflm_greedy").recording);
  }
  EXPECT_EQ(
      MustResolve("cortex-m", AllocatorChoice::kTargetDefault, "tflm_greedy").abi->pointer_bytes,
      4u);
}

TEST(BuildTargets, TheWheelsPlannerDecidesItsAllocator) {
  const ResolvedTarget greedy =
      MustResolve("tflite-micro-wheel", AllocatorChoice::kTargetDefault, "tflm_greedy");
  EXPECT_TRUE(greedy.recording);
  EXPECT_STREQ(greedy.abi->name, "x86-64");
  EXPECT_TRUE(greedy.abi->compression);
  EXPECT_FALSE(
      MustResolve("tflite-micro-wheel", AllocatorChoice::kTargetDefault, "linear").recording);
  EXPECT_TRUE(
      MustResolve("tflite-micro-wheel", AllocatorChoice::kRecording, "tflm_greedy").recording);

  ResolvedTarget r;
  EXPECT_EQ(
      ResolveBuildTarget("tflite-micro-wheel", AllocatorChoice::kMicroAllocator, "tflm_greedy", &r)
          .code(),
      StatusCode::kInvalidArgument);
  EXPECT_EQ(
      ResolveBuildTarget("tflite-micro-wheel", AllocatorChoice::kRecording, "linear", &r).code(),
      StatusCode::kInvalidArgument);
}

// The Arduino library compiles TFLM without TF_LITE_STATIC_MEMORY: its
// version carries its own struct layout; others keep the target's.
TEST(BuildTargets, AVersionMayCarryItsOwnLayout) {
  const ResolvedTarget arduino =
      MustResolve("cortex-m@arduino", AllocatorChoice::kTargetDefault, "tflm_greedy");
  EXPECT_STREQ(arduino.abi->name, "cortex-m-arduino");
  EXPECT_EQ(arduino.abi->tflite_tensor.size, 64u);
  EXPECT_EQ(arduino.abi->node_and_registration.size, 44u);
  for (const char* name : {"cortex-m", "cortex-m@zephyr-v4.1", "cortex-m4+cmsis-nn"}) {
    const ResolvedTarget r = MustResolve(name, AllocatorChoice::kTargetDefault, "tflm_greedy");
    EXPECT_STREQ(r.abi->name, "cortex-m") << name;
    EXPECT_EQ(r.abi->tflite_tensor.size, 40u) << name;  // TF_LITE_STATIC_MEMORY
  }
}

// An older CMSIS-NN integration has kernels for fewer operators: the others
// take that version's reference rows (or the base reference row).
TEST(BuildTargets, OperatorsWithoutAnOldCmsisNnKernelRunReferenceKernels) {
  const ResolvedTarget now =
      MustResolve("cortex-m4+cmsis-nn", AllocatorChoice::kTargetDefault, "tflm_greedy");
  const ResolvedTarget old =
      MustResolve("cortex-m4+cmsis-nn@arduino", AllocatorChoice::kTargetDefault, "tflm_greedy");
  auto source = [](const ResolvedTarget& r, const char* op) {
    const KernelRow* row = FindKernel(r.kernels, op);
    return row == nullptr ? std::string("none") : std::string(row->source);
  };
  EXPECT_EQ(source(now, "PAD").rfind("cmsis_nn/", 0), 0u);
  EXPECT_EQ(source(old, "PAD").rfind("cmsis_nn/", 0), std::string::npos) << source(old, "PAD");
  EXPECT_EQ(source(old, "TRANSPOSE_CONV"), "transpose_conv.cpp");
  EXPECT_EQ(source(old, "CONV_2D"), "cmsis_nn/conv.cpp conv_common.cpp");
  EXPECT_EQ(source(old, "SVDF"), "cmsis_nn/svdf.cpp svdf_common.cpp");
  EXPECT_EQ(source(old, "UNIDIRECTIONAL_SEQUENCE_LSTM").rfind("cmsis_nn/", 0), std::string::npos);
  // Every operator of the current table has a row at the old version too.
  for (const KernelRow& row : now.kernels) {
    EXPECT_NE(FindKernel(old.kernels, row.op), nullptr) << row.op;
  }
  EXPECT_EQ(old.kernels.size(), now.kernels.size());
}

TEST(BuildTargets, UnknownNamesAndPlannersAreRefusedWithTheKnownOnes) {
  ResolvedTarget r;
  const Status s = ResolveBuildTarget("esp32", AllocatorChoice::kTargetDefault, "tflm_greedy", &r);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("cortex-m, x86-64, tflite-micro-wheel"),
            std::string::npos);
  EXPECT_EQ(ResolveBuildTarget("x86-64", AllocatorChoice::kTargetDefault, "optimal", &r).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(ResolveBuildTarget("x86-64", AllocatorChoice::kRecording, "linear", &r).code(),
            StatusCode::kInvalidArgument);
}

// TFLM's planners are the strategy registry's runtime-planner entries.
TEST(BuildTargets, PlannersComeFromTheStrategyRegistry) {
  PlannerKind kind = PlannerKind::kLinear;
  ASSERT_TRUE(FindTflmPlanner("tflm_greedy", &kind).ok());
  EXPECT_EQ(kind, PlannerKind::kGreedy);
  ASSERT_TRUE(FindTflmPlanner("linear", &kind).ok());
  EXPECT_EQ(kind, PlannerKind::kLinear);
  for (const char* other : {"tflm_greedy_runtime", "greedy_by_size", "optimal", "greedy", ""}) {
    const Status s = FindTflmPlanner(other, &kind);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << other;
    EXPECT_EQ(std::string(s.message()),
              std::string("unknown planner '") + other + "' (known: tflm_greedy, linear)");
  }
}

}  // namespace
}  // namespace tflm
}  // namespace tflm_arena
