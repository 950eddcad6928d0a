#include "tflm_arena/tflm/build_targets.h"

#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "tflm_arena/plan/strategies.h"
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
     "Cortex-M0 (CMSIS-NN scalar backend): TFLM Makefile build, CMSIS-NN kernels, GCC, "
     "KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, CmsisNnBackend::kScalar, /*checked=*/true},
    {"cortex-m0plus+cmsis-nn", "cortex-m",
     "Cortex-M0+ (CMSIS-NN scalar backend): TFLM Makefile build, CMSIS-NN kernels, GCC, "
     "KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, CmsisNnBackend::kScalar, /*checked=*/true},
    {"cortex-m3+cmsis-nn", "cortex-m",
     "Cortex-M3 (CMSIS-NN scalar backend): TFLM Makefile build, CMSIS-NN kernels, GCC, "
     "KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, CmsisNnBackend::kScalar, /*checked=*/true},
    {"cortex-m4+cmsis-nn", "cortex-m",
     "Cortex-M4 (CMSIS-NN DSP backend): TFLM Makefile build, CMSIS-NN kernels, GCC, "
     "KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, CmsisNnBackend::kDsp, /*checked=*/true},
    {"cortex-m7+cmsis-nn", "cortex-m",
     "Cortex-M7 (CMSIS-NN DSP backend): TFLM Makefile build, CMSIS-NN kernels, GCC, "
     "KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, CmsisNnBackend::kDsp, /*checked=*/true},
    {"cortex-m33+cmsis-nn", "cortex-m",
     "Cortex-M33 (CMSIS-NN DSP backend): TFLM Makefile build, CMSIS-NN kernels, GCC, "
     "KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator",
     AllocatorRule::kPlain, CmsisNnBackend::kDsp, /*checked=*/true},
    {"cortex-m55+cmsis-nn", "cortex-m",
     "Cortex-M55 (CMSIS-NN MVE backend): TFLM Makefile build, CMSIS-NN kernels, GCC, "
     "KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator"
     "; figures modelled from TFLM's and CMSIS-NN's source only, not checked against a real "
     "build",
     AllocatorRule::kPlain, CmsisNnBackend::kMve, /*checked=*/false},
    {"cortex-m85+cmsis-nn", "cortex-m",
     "Cortex-M85 (CMSIS-NN MVE backend): TFLM Makefile build, CMSIS-NN kernels, GCC, "
     "KERNELS_OPTIMIZED_FOR_SPEED, compression off, MicroAllocator"
     "; figures modelled from TFLM's and CMSIS-NN's source only, not checked against a real "
     "build",
     AllocatorRule::kPlain, CmsisNnBackend::kMve, /*checked=*/false},
    // TFLM's Makefile with CO_PROCESSOR=ethos_u: the Ethos-U kernel
    // (kernels/ethos_u/ethosu.cc) registered as "ethos-u" (custom_kernels.h).
    // The NPU driver is reached only in Eval, so the arena does not depend
    // on it; checked against a 32-bit ARM build of TFLM 90b983c with the
    // kernel and a driver stub that aborts if called.
    {"cortex-m+ethos-u", "cortex-m",
     "32-bit ARM core with an Arm Ethos-U NPU (U55 or U65; Vela-compiled models): TFLM "
     "Makefile build, CO_PROCESSOR=ethos_u, reference kernels for the operators left "
     "on the CPU, MicroAllocator",
     AllocatorRule::kPlain, ReferenceLibrary{}, /*checked=*/true, /*ethos_u=*/true},
    {"cortex-m55+ethos-u", "cortex-m",
     "Cortex-M55 with an Arm Ethos-U NPU (Corstone-300, Alif Ensemble, Himax WE2): TFLM "
     "Makefile build, CO_PROCESSOR=ethos_u, CMSIS-NN MVE kernels for the "
     "operators left on the CPU, MicroAllocator; the ethos-u operator is checked against a "
     "real build, the CPU operators' MVE figures are modelled from source only, not checked",
     AllocatorRule::kPlain, CmsisNnBackend::kMve, /*checked=*/false, /*ethos_u=*/true},
    // esp-tflite-micro + ESP-NN, one row per ESP-NN size set (esp_nn_kernels.h).
    // The struct layout of Xtensa and RISC-V ILP32 GCC is the 32-bit ARM one.
    {"esp32+esp-nn", "cortex-m",
     "ESP32 with ESP-NN's generic optimized set (also ESP32-S2, C3, C6 and other chips "
     "without their own set): esp-tflite-micro (TFLM fork) with esp-nn "
     "kernels, CONFIG_NN_OPTIMIZED, MicroAllocator",
     AllocatorRule::kPlain, EspNnChip::kEsp32, /*checked=*/true},
    {"esp32s3+esp-nn", "cortex-m",
     "ESP32-S3 with ESP-NN's ESP32-S3 set: esp-tflite-micro (TFLM fork) with esp-nn "
     "kernels (S3 scratch sizes differ between esp-nn releases), "
     "CONFIG_NN_OPTIMIZED, MicroAllocator",
     AllocatorRule::kPlain, EspNnChip::kEsp32S3, /*checked=*/true},
    {"esp32p4+esp-nn", "cortex-m",
     "ESP32-P4 with ESP-NN's ESP32-P4 set: esp-tflite-micro (TFLM fork) with esp-nn "
     "kernels (P4 scratch sizes differ between esp-nn releases), "
     "CONFIG_NN_OPTIMIZED, MicroAllocator",
     AllocatorRule::kPlain, EspNnChip::kEsp32P4, /*checked=*/true},
    {"esp32+esp-nn-ansi-c", "cortex-m",
     "any ESP chip with ESP-NN's ANSI C set (Kconfig ESP-NN \"ANSI C\", CONFIG_NN_ANSI_C): "
     "esp-tflite-micro (TFLM fork) with esp-nn kernels, MicroAllocator",
     AllocatorRule::kPlain, EspNnChip::kAnsiC, /*checked=*/true},
};

// The versions CMSIS-NN targets can be built at (for error messages).
std::string CmsisNnVersionNames() {
  std::string s;
  for (const StackVersion& v : StackVersions()) {
    if (v.family != StackFamily::kUpstream || v.cmsis_nn == nullptr) continue;
    if (!s.empty()) s += ", ";
    s += v.name;
  }
  return s;
}

}  // namespace

Span<const BuildTarget> BuildTargets() {
  return Span<const BuildTarget>(kBuildTargets, sizeof(kBuildTargets) / sizeof(kBuildTargets[0]));
}

Span<const KernelRow> TargetKernels(const BuildTarget& target) {
  return KernelLibraryTable(target.kernels);
}

StackFamily TargetFamily(const BuildTarget& target) {
  if (IsEspNn(target.kernels)) return StackFamily::kEspNn;
  if (std::string(target.abi) == "x86-64") return StackFamily::kWheel;
  return StackFamily::kUpstream;
}

Span<const KernelRow> TargetKernels(const BuildTarget& target, const StackVersion& version) {
  const Span<const KernelRow> base = TargetKernels(target);
  const bool cmsis_nn = IsCmsisNn(target.kernels);
  const Span<const KernelRow> own_rows = cmsis_nn ? version.cmsis_nn_rows : Span<const KernelRow>();
  // An older CMSIS-NN integration has kernels for fewer operators.
  const bool fewer_own = cmsis_nn && !version.cmsis_nn_ops.empty();
  if (own_rows.empty() && version.reference_rows.empty() && !fewer_own) return base;
  // Built once per (target, version) and kept for the process.
  static std::mutex mu;
  static std::map<std::pair<const BuildTarget*, const StackVersion*>,
                  std::vector<KernelRow>>* const tables =
      new std::map<std::pair<const BuildTarget*, const StackVersion*>, std::vector<KernelRow>>();
  const std::lock_guard<std::mutex> lock(mu);
  std::vector<KernelRow>& table = (*tables)[{&target, &version}];
  if (table.empty()) {
    auto add = [&table](const KernelRow& row) {
      if (FindKernel(Span<const KernelRow>(table.data(), table.size()), row.op) == nullptr) {
        table.push_back(row);
      }
    };
    const Span<const KernelRow> own = cmsis_nn ? CmsisNnOwnKernels() : Span<const KernelRow>();
    // True when the library runs its own kernel for `op` at this version.
    auto has_own = [&](const char* op) {
      if (FindKernel(own, op) == nullptr) return false;
      if (!fewer_own) return true;
      for (const char* name : version.cmsis_nn_ops) {
        if (std::strcmp(name, op) == 0) return true;
      }
      return false;
    };
    for (const KernelRow& row : own_rows) add(row);
    // A reference row that differs does not replace the library's own kernel.
    for (const KernelRow& row : version.reference_rows) {
      if (!has_own(row.op)) add(row);
    }
    for (const KernelRow& row : base) {
      if (FindKernel(own, row.op) != nullptr && !has_own(row.op)) continue;
      add(row);
    }
    // The reference rows of operators whose library kernel came later.
    if (fewer_own) {
      for (const KernelRow& row : ReferenceKernels()) add(row);
    }
  }
  return Span<const KernelRow>(table.data(), table.size());
}

std::string VersionWords(const BuildTarget& target, const StackVersion& version) {
  std::string s = std::string("versions: ") + version.tflm;
  if (IsCmsisNn(target.kernels) && version.cmsis_nn != nullptr) {
    s += std::string(", ") + version.cmsis_nn;
  } else if (IsEspNn(target.kernels) && version.esp_nn_release != nullptr) {
    s += std::string(", ") + version.esp_nn_release;
  }
  if (!version.checked) {
    s += "; this version's figures are modelled from source only, not checked against a real "
         "build";
  }
  return s;
}

TraceOptions TraceOptionsFor(const ResolvedTarget& resolved) {
  TraceOptions options;
  options.target = resolved.abi;
  options.kernels = resolved.kernels;
  options.library = resolved.target->kernels;
  options.esp_nn_version = resolved.version->esp_nn;
  options.unregistered = resolved.version->unregistered;
  options.ethos_u = resolved.target->ethos_u;
  options.recording = resolved.recording;
  return options;
}

const BuildTarget& DefaultBuildTarget() { return kBuildTargets[0]; }

const BuildTarget* FindBuildTarget(const char* name) { return FindByName(kBuildTargets, name); }

std::string BuildTargetNames() { return JoinNames(kBuildTargets); }

Status CheckVersionFor(const BuildTarget& target, const StackVersion& version) {
  if (TargetFamily(target) != version.family) {
    return Status::Error(StatusCode::kInvalidArgument, "target %s has no version %s", target.name,
                         version.name);
  }
  if (IsCmsisNn(target.kernels) && version.cmsis_nn == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "target %s: CMSIS-NN builds of %s are not modelled (CMSIS-NN targets "
                         "know: %s)",
                         target.name, version.name, CmsisNnVersionNames().c_str());
  }
  const CmsisNnBackend* backend = std::get_if<CmsisNnBackend>(&target.kernels);
  if (backend != nullptr && version.cmsis_nn_dsp_only && *backend != CmsisNnBackend::kDsp) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "target %s: the CMSIS-NN build of %s is modelled for cores with the DSP "
                         "extension only (cortex-m4, cortex-m7, cortex-m33+cmsis-nn), the cores "
                         "it was checked on",
                         target.name, version.name);
  }
  if (target.ethos_u && !version.ethos_u) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "target %s: the Ethos-U kernel of %s is not modelled", target.name,
                         version.name);
  }
  return Status::Ok();
}

Status ResolveBuildTarget(const std::string& name, AllocatorChoice choice,
                          const std::string& planner, ResolvedTarget* out) {
  const size_t at = name.find('@');
  const std::string target_name = name.substr(0, at);
  const BuildTarget* target = FindBuildTarget(target_name.c_str());
  if (target == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "unknown target '%s' (known: %s)",
                         target_name.c_str(), BuildTargetNames().c_str());
  }
  const StackFamily family = TargetFamily(*target);
  const StackVersion* version = &DefaultStackVersion(family);
  if (at != std::string::npos) {
    const std::string version_name = name.substr(at + 1);
    version = FindStackVersion(family, version_name.c_str());
    if (version == nullptr) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "unknown version '%s' of target %s (known: %s)", version_name.c_str(),
                           target->name, StackVersionNames(family).c_str());
    }
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckVersionFor(*target, *version));
  const char* abi_name = version->abi != nullptr ? version->abi : target->abi;
  const TargetAbi* abi = FindTarget(abi_name);
  if (abi == nullptr) {
    return Status::Error(StatusCode::kInternal, "target '%s' names unknown layout '%s'",
                         target->name, abi_name);
  }
  PlannerKind planner_kind = PlannerKind::kGreedy;
  TFLM_ARENA_RETURN_IF_ERROR(FindTflmPlanner(planner, &planner_kind));
  const bool linear = planner_kind == PlannerKind::kLinear;
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
  out->version = version;
  out->recording = recording;
  out->name = std::string(target->name) + "@" + version->name;
  out->description = std::string(target->description) + "; " + VersionWords(*target, *version);
  out->checked = target->checked && version->checked;
  out->kernels = TargetKernels(*target, *version);
  return Status::Ok();
}

Status FindTflmPlanner(const std::string& name, PlannerKind* out) {
  const StrategyInfo* s = FindStrategy(name);
  if (s == nullptr || s->kind != StrategyKind::kRuntimePlanner) {
    return Status::Error(StatusCode::kInvalidArgument, "unknown planner '%s' (known: %s)",
                         name.c_str(), StrategyNames(StrategyKind::kRuntimePlanner).c_str());
  }
  *out = s->runtime == RuntimePlanner::kLinear ? PlannerKind::kLinear : PlannerKind::kGreedy;
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
