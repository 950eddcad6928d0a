#include "tflm_arena/tflm/build_targets.h"

#include "tflm_arena/tflm/named_rows.h"

namespace tflm_arena {
namespace tflm {
namespace {

constexpr BuildTarget kBuildTargets[] = {
    {"cortex-m", "cortex-m",
     "TFLM Makefile build for a 32-bit ARM core, reference kernels, MicroAllocator",
     AllocatorRule::kPlain},
    {"x86-64", "x86-64",
     "TFLM built for x86-64 as the tflite-micro wheel builds it (compression on), "
     "MicroAllocator",
     AllocatorRule::kPlain},
    {"tflite-micro-wheel", "x86-64",
     "the tflite-micro PyPI wheel's Python interpreter (x86-64, compression on, "
     "RecordingMicroAllocator)",
     AllocatorRule::kWheelInterpreter},
    // TFLM's Makefile with OPTIMIZED_KERNEL_DIR=cmsis_nn, one row per core
    // (cmsis_nn_kernels.h). MVE cannot be run here: those rows say so.
    {"cortex-m0+cmsis-nn", "cortex-m",
     "Cortex-M0 (CMSIS-NN scalar backend): TFLM 90b983c Makefile build, CMSIS-NN kernels "
     "(CMSIS-NN 4ab83cc), GCC, KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, KernelLibrary::kCmsisNn, CmsisNnBackend::kScalar, /*checked=*/true},
    {"cortex-m0plus+cmsis-nn", "cortex-m",
     "Cortex-M0+ (CMSIS-NN scalar backend): TFLM 90b983c Makefile build, CMSIS-NN kernels "
     "(CMSIS-NN 4ab83cc), GCC, KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, KernelLibrary::kCmsisNn, CmsisNnBackend::kScalar, /*checked=*/true},
    {"cortex-m3+cmsis-nn", "cortex-m",
     "Cortex-M3 (CMSIS-NN scalar backend): TFLM 90b983c Makefile build, CMSIS-NN kernels "
     "(CMSIS-NN 4ab83cc), GCC, KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, KernelLibrary::kCmsisNn, CmsisNnBackend::kScalar, /*checked=*/true},
    {"cortex-m4+cmsis-nn", "cortex-m",
     "Cortex-M4 (CMSIS-NN DSP backend): TFLM 90b983c Makefile build, CMSIS-NN kernels "
     "(CMSIS-NN 4ab83cc), GCC, KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, KernelLibrary::kCmsisNn, CmsisNnBackend::kDsp, /*checked=*/true},
    {"cortex-m7+cmsis-nn", "cortex-m",
     "Cortex-M7 (CMSIS-NN DSP backend): TFLM 90b983c Makefile build, CMSIS-NN kernels "
     "(CMSIS-NN 4ab83cc), GCC, KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, KernelLibrary::kCmsisNn, CmsisNnBackend::kDsp, /*checked=*/true},
    {"cortex-m33+cmsis-nn", "cortex-m",
     "Cortex-M33 (CMSIS-NN DSP backend): TFLM 90b983c Makefile build, CMSIS-NN kernels "
     "(CMSIS-NN 4ab83cc), GCC, KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, KernelLibrary::kCmsisNn, CmsisNnBackend::kDsp, /*checked=*/true},
    {"cortex-m55+cmsis-nn", "cortex-m",
     "Cortex-M55 (CMSIS-NN MVE backend): TFLM 90b983c Makefile build, CMSIS-NN kernels "
     "(CMSIS-NN 4ab83cc), GCC, KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator"
     "; figures modelled from TFLM's and CMSIS-NN's source only, not checked against a real "
     "build",
     AllocatorRule::kPlain, KernelLibrary::kCmsisNn, CmsisNnBackend::kMve, /*checked=*/false},
    {"cortex-m85+cmsis-nn", "cortex-m",
     "Cortex-M85 (CMSIS-NN MVE backend): TFLM 90b983c Makefile build, CMSIS-NN kernels "
     "(CMSIS-NN 4ab83cc), GCC, KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator"
     "; figures modelled from TFLM's and CMSIS-NN's source only, not checked against a real "
     "build",
     AllocatorRule::kPlain, KernelLibrary::kCmsisNn, CmsisNnBackend::kMve, /*checked=*/false},
    // TFLM's Makefile with CO_PROCESSOR=ethos_u: the Ethos-U kernel
    // (kernels/ethos_u/ethosu.cc) registered as "ethos-u" (custom_kernels.h).
    // The NPU driver is reached only in Eval, so the arena does not depend
    // on it; checked against a 32-bit ARM build of TFLM 90b983c with the
    // kernel and a driver stub that aborts if called.
    {"cortex-m+ethos-u", "cortex-m",
     "32-bit ARM core with an Arm Ethos-U NPU (U55 or U65; Vela-compiled models): TFLM "
     "90b983c Makefile build, CO_PROCESSOR=ethos_u, reference kernels for the operators left "
     "on the CPU, MicroAllocator",
     AllocatorRule::kPlain, KernelLibrary::kReference, CmsisNnBackend::kDsp, /*checked=*/true,
     EspNnChip::kEsp32, /*ethos_u=*/true},
    {"cortex-m55+ethos-u", "cortex-m",
     "Cortex-M55 with an Arm Ethos-U NPU (Corstone-300, Alif Ensemble, Himax WE2): TFLM 90b983c "
     "Makefile build, CO_PROCESSOR=ethos_u, CMSIS-NN MVE kernels (CMSIS-NN 4ab83cc) for the "
     "operators left on the CPU, MicroAllocator; the ethos-u operator is checked against a "
     "real build, the CPU operators' MVE figures are modelled from source only, not checked",
     AllocatorRule::kPlain, KernelLibrary::kCmsisNn, CmsisNnBackend::kMve, /*checked=*/false,
     EspNnChip::kEsp32, /*ethos_u=*/true},
    // esp-tflite-micro + ESP-NN, one row per ESP-NN size set (esp_nn_kernels.h).
    // The struct layout of Xtensa and RISC-V ILP32 GCC is the 32-bit ARM one.
    {"esp32+esp-nn", "cortex-m",
     "ESP32 with ESP-NN's generic optimized set (also ESP32-S2, C3, C6 and other chips "
     "without their own set): esp-tflite-micro 99f49e1 (TFLM fork) with esp-nn 1.2.3 "
     "(d45b843) kernels, CONFIG_NN_OPTIMIZED, MicroAllocator",
     AllocatorRule::kPlain, KernelLibrary::kEspNn, CmsisNnBackend::kDsp, /*checked=*/true,
     EspNnChip::kEsp32},
    {"esp32s3+esp-nn", "cortex-m",
     "ESP32-S3 with ESP-NN's ESP32-S3 set: esp-tflite-micro 99f49e1 (TFLM fork) with esp-nn "
     "1.2.3 (d45b843) kernels (S3 scratch sizes differ between esp-nn releases), "
     "CONFIG_NN_OPTIMIZED, MicroAllocator",
     AllocatorRule::kPlain, KernelLibrary::kEspNn, CmsisNnBackend::kDsp, /*checked=*/true,
     EspNnChip::kEsp32S3},
    {"esp32p4+esp-nn", "cortex-m",
     "ESP32-P4 with ESP-NN's ESP32-P4 set: esp-tflite-micro 99f49e1 (TFLM fork) with esp-nn "
     "1.2.3 (d45b843) kernels (P4 scratch sizes differ between esp-nn releases), "
     "CONFIG_NN_OPTIMIZED, MicroAllocator",
     AllocatorRule::kPlain, KernelLibrary::kEspNn, CmsisNnBackend::kDsp, /*checked=*/true,
     EspNnChip::kEsp32P4},
    {"esp32+esp-nn-ansi-c", "cortex-m",
     "any ESP chip with ESP-NN's ANSI C set (Kconfig ESP-NN \"ANSI C\", CONFIG_NN_ANSI_C): "
     "esp-tflite-micro 99f49e1 (TFLM fork) with esp-nn 1.2.3 (d45b843) kernels, "
     "MicroAllocator",
     AllocatorRule::kPlain, KernelLibrary::kEspNn, CmsisNnBackend::kDsp, /*checked=*/true,
     EspNnChip::kAnsiC},
};

}  // namespace

Span<const BuildTarget> BuildTargets() {
  return Span<const BuildTarget>(kBuildTargets, sizeof(kBuildTargets) / sizeof(kBuildTargets[0]));
}

Span<const KernelRow> TargetKernels(const BuildTarget& target) {
  switch (target.kernels) {
    case KernelLibrary::kCmsisNn:
      return CmsisNnKernels();
    case KernelLibrary::kEspNn:
      return EspNnKernels();
    case KernelLibrary::kReference:
      break;
  }
  return ReferenceKernels();
}

const BuildTarget& DefaultBuildTarget() { return kBuildTargets[0]; }

const BuildTarget* FindBuildTarget(const char* name) { return FindByName(kBuildTargets, name); }

std::string BuildTargetNames() { return JoinNames(kBuildTargets); }

Status ResolveBuildTarget(const std::string& name, AllocatorChoice choice,
                          const std::string& planner, ResolvedTarget* out) {
  const BuildTarget* target = FindBuildTarget(name.c_str());
  if (target == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "unknown target '%s' (known: %s)",
                         name.c_str(), BuildTargetNames().c_str());
  }
  const TargetAbi* abi = FindTarget(target->abi);
  if (abi == nullptr) {
    return Status::Error(StatusCode::kInternal, "target '%s' names unknown layout '%s'",
                         target->name, target->abi);
  }
  if (planner != "tflm_greedy" && planner != "linear") {
    return Status::Error(StatusCode::kInvalidArgument,
                         "unknown planner '%s' (known: tflm_greedy, linear)", planner.c_str());
  }
  const bool linear = planner == "linear";
  bool recording = choice == AllocatorChoice::kRecording;
  if (target->allocator == AllocatorRule::kWheelInterpreter) {
    const bool wheel_recording = !linear;
    if (choice != AllocatorChoice::kTargetDefault && recording != wheel_recording) {
      return Status::Error(
          StatusCode::kInvalidArgument,
          "the tflite-micro wheel's interpreter creates a RecordingMicroAllocator with the "
          "greedy planner and a plain MicroAllocator only with the linear planner "
          "(kPreserveAllTensors); for another combination use target x86-64");
    }
    recording = wheel_recording;
  }
  if (recording && linear) {
    // RecordingMicroAllocator::Create always builds a GreedyMemoryPlanner.
    return Status::Error(StatusCode::kInvalidArgument,
                         "TFLM's RecordingMicroAllocator always uses the greedy planner; "
                         "the linear planner needs recording=false");
  }
  out->target = target;
  out->abi = abi;
  out->recording = recording;
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
