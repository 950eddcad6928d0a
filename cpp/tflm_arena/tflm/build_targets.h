// The builds of stock TFLM whose arena we model, by the names users give
// them. A build target names the struct layout (target_abi.h) and the
// allocator the application creates; one ABI can serve several targets.
//
//  - "tflite-micro-wheel": the tflite-micro PyPI wheel as its Python
//    interpreter runs a model. Its default configuration
//    (InterpreterConfig::kAllocationRecording) creates a
//    RecordingMicroAllocator, whose Create always builds a greedy planner;
//    kPreserveAllTensors creates a plain MicroAllocator with a linear
//    planner. So the planner decides the allocator: greedy -> recording,
//    linear -> plain. Layout: x86-64 (LP64), USE_TFLM_COMPRESSION on.
//  - "x86-64": TFLM compiled as the wheel compiles it, linked into an
//    application that creates a plain MicroAllocator (a
//    RecordingMicroAllocator when asked).
//  - "cortex-m": TFLM built with its Makefile for a 32-bit ARM core,
//    reference kernels, compression off; plain MicroAllocator unless asked.
//  - "cortex-mN+cmsis-nn": the same build with OPTIMIZED_KERNEL_DIR=cmsis_nn
//    for one core; the core decides CMSIS-NN's backend (cmsis_nn_kernels.h).
//    Scalar and DSP figures are checked against real TFLM + CMSIS-NN built
//    for 32-bit ARM; MVE cores cannot be run here, so their figures are
//    modelled from source only and their description says so.
//  - "CHIP+esp-nn": TFLM as Espressif ships it (esp-tflite-micro with the
//    ESP-NN kernels) for one chip's ESP-NN size set, and
//    "esp32+esp-nn-ansi-c" for ESP-NN's ANSI C set (Kconfig "ANSI C",
//    CONFIG_NN_ANSI_C, any chip); 32-bit layout (esp_nn_kernels.h). Checked
//    against esp-tflite-micro + esp-nn built for 32-bit ARM with each set.
#ifndef TFLM_ARENA_TFLM_BUILD_TARGETS_H_
#define TFLM_ARENA_TFLM_BUILD_TARGETS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/tflm/allocation_trace.h"
#include "tflm_arena/tflm/cmsis_nn_kernels.h"
#include "tflm_arena/tflm/esp_nn_kernels.h"
#include "tflm_arena/tflm/kernel_library.h"
#include "tflm_arena/tflm/kernel_table.h"
#include "tflm_arena/tflm/stack_versions.h"
#include "tflm_arena/tflm/target_abi.h"

namespace tflm_arena {
namespace tflm {

// Which allocator a target's application creates when the caller does not say.
enum class AllocatorRule : uint8_t {
  kPlain,             // MicroAllocator; RecordingMicroAllocator only when asked
  kWheelInterpreter,  // the wheel: recording with greedy, plain with linear, fixed
};

struct BuildTarget {
  const char* name;  // what users type, e.g. "cortex-m"
  const char* abi;   // TargetAbi name (struct sizes, compression)
  // One line, printed with every figure. An unchecked target says so here.
  const char* description;
  AllocatorRule allocator;
  KernelLibrary kernels = ReferenceLibrary{};  // the kernels the build links
  // The figures were checked against a real build of this configuration.
  bool checked = true;
  // Built with the Ethos-U kernel (kernels/ethos_u/ethosu.cc): "ethos-u"
  // is registered (custom_kernels.h).
  bool ethos_u = false;
};

// The kernel table of a target's build at its family's newest version.
Span<const KernelRow> TargetKernels(const BuildTarget& target);
// The kernel table of a target's build at `version`: the version's rows
// (stack_versions.h), then the newest rows of every other operator.
Span<const KernelRow> TargetKernels(const BuildTarget& target, const StackVersion& version);
// Which stack versions a target can be built at.
StackFamily TargetFamily(const BuildTarget& target);

// Every build target, in the order users see them (the default first).
Span<const BuildTarget> BuildTargets();
// The default target of every API and command that takes one.
const BuildTarget& DefaultBuildTarget();
// nullptr for an unknown name.
const BuildTarget* FindBuildTarget(const char* name);
// "cortex-m, x86-64, tflite-micro-wheel" (for error messages).
std::string BuildTargetNames();

// The allocator choice of a request: the target's own, or an explicit one.
enum class AllocatorChoice : uint8_t { kTargetDefault, kMicroAllocator, kRecording };

struct ResolvedTarget {
  const BuildTarget* target = nullptr;
  const TargetAbi* abi = nullptr;
  const StackVersion* version = nullptr;
  bool recording = false;
  std::string name;         // "TARGET@VERSION", the version always named
  std::string description;  // the target's line, then the versions it assumes
  bool checked = false;     // target and version checked against real builds
  Span<const KernelRow> kernels;
};

// "TFLM: upstream TFLM 90b983c (2026-08-20); kernels: CMSIS-NN 4ab83cc ..."
// for `target` built at `version` (what every figure names).
std::string VersionWords(const BuildTarget& target, const StackVersion& version);

// The trace options of a resolved target (allocator, planner and resource
// variables left at their defaults).
TraceOptions TraceOptionsFor(const ResolvedTarget& resolved);

// Ok when `version` is a build of `target` this model covers; else why not
// (another family, a CMSIS-NN or Ethos-U build the version does not model).
Status CheckVersionFor(const BuildTarget& target, const StackVersion& version);

// Resolves `name` ("TARGET" or "TARGET@VERSION"; an unknown target or a
// version the target's family lacks is kInvalidArgument listing the known
// ones) with an allocator choice and the planner ("tflm_greedy" or
// "linear"); kInvalidArgument names what is unknown or contradictory (the
// wheel with an allocator it never creates for that planner, a recording
// allocator with the linear planner).
Status ResolveBuildTarget(const std::string& name, AllocatorChoice choice,
                          const std::string& planner, ResolvedTarget* out);

// The planner stock TFLM is built with, by its name in the strategy
// registry (plan/strategy_list.h: the runtime-planner entries, "tflm_greedy"
// and "linear"); kInvalidArgument listing them for any other name.
Status FindTflmPlanner(const std::string& name, PlannerKind* out);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_BUILD_TARGETS_H_
