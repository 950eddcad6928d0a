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

}  // namespace
}  // namespace tflm
}  // namespace tflm_arena
