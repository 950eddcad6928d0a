#include "tflm_arena/tflm/stack_versions.h"

#include <cstring>

namespace tflm_arena {
namespace tflm {
namespace {

// Zephyr v4.1's TFLM (upstream ef645912, 2025-02-07) before the reduce
// kernels' scratch buffers (upstream 0efdd51, 2026-01-16): MEAN and SUM
// request only the int8/int16 accumulator, their OpDataReduce has no
// input-iterator index (40 bytes, not 44). Every other reference row and
// every struct the arena holds is 90b983c's.
using steps::IfInt8;
using steps::In;
using steps::Out;
using steps::Scratch;
constexpr KernelRow kZephyr41Rows[] = {
    {"MEAN",
     "reduce.cc reduce_common.cc at ef645912",
     {{1, 1}, {1, 1}},
     {40, 40},
     {In(0), Out(0), In(1), Scratch(ScratchRule::kMeanOrSumAccumulatorOnly), In(0), In(1),
      IfInt8(Out(0), 0)}},
    {"SUM",
     "reduce.cc reduce_common.cc at ef645912",
     {{1, 1}, {1, 1}},
     {40, 40},
     {In(0), Out(0), In(1), Scratch(ScratchRule::kMeanOrSumAccumulatorOnly), In(0), In(1),
      IfInt8(Out(0), 0)}},
};
// The Add* functions ef645912's MicroMutableOpResolver does not have yet.
constexpr const char* kZephyr41Unregistered[] = {"TFLM_DECODE", "DYNAMIC_UPDATE_SLICE",
                                                 "REDUCE_ALL", "REDUCE_MIN", "REVERSE_V2"};

constexpr char kEspTfliteMicro140[] =
    "esp-tflite-micro 1.4.0 (99f49e1 = upstream TFLM 0965635, 2026-07-13)";

// Row makers, one per family.
constexpr StackVersion Wheel(const char* name, const char* tflm) {
  StackVersion v;
  v.name = name;
  v.family = StackFamily::kWheel;
  v.tflm = tflm;
  return v;
}
constexpr StackVersion Upstream(const char* name, const char* tflm, const char* cmsis_nn,
                                Span<const KernelRow> reference_rows,
                                Span<const KernelRow> cmsis_nn_rows,
                                Span<const char* const> unregistered, bool ethos_u) {
  StackVersion v;
  v.name = name;
  v.family = StackFamily::kUpstream;
  v.tflm = tflm;
  v.cmsis_nn = cmsis_nn;
  v.reference_rows = reference_rows;
  v.cmsis_nn_rows = cmsis_nn_rows;
  v.unregistered = unregistered;
  v.ethos_u = ethos_u;
  return v;
}
constexpr StackVersion EspNn(const char* name, const char* release, EspNnVersion version) {
  StackVersion v;
  v.name = name;
  v.family = StackFamily::kEspNn;
  v.tflm = kEspTfliteMicro140;
  v.esp_nn_release = release;
  v.esp_nn = version;
  return v;
}

// One version a row, newest first within each family.
constexpr StackVersion kVersions[] = {
    // The tflite-micro wheel pinned by this project (.ci/requirements.txt).
    Wheel("0.dev20261023182759",
          "tflite-micro PyPI wheel 0.dev20261023182759 (upstream TFLM 8f6596d, 2026-10-23)"),
    Upstream("90b983c", "upstream TFLM 90b983c (2026-08-20)",
             "CMSIS-NN 4ab83cc (as TFLM's cmsis_nn_download.sh pins it)", {}, {}, {},
             /*ethos_u=*/true),
    // Zephyr's tflite-micro module. v4.4: the allocation code, kernels'
    // Init/Prepare and resolver of 90b983c (only Eval code differs).
    Upstream("zephyr-v4.4", "Zephyr v4.4's module: upstream TFLM f2b2b3f5 (2026-02-12)", nullptr,
             {}, {}, {}, /*ethos_u=*/false),
    Upstream("zephyr-v4.1", "Zephyr v4.1's module: upstream TFLM ef645912 (2025-02-07)", nullptr,
             Span<const KernelRow>(kZephyr41Rows, sizeof(kZephyr41Rows) / sizeof(kZephyr41Rows[0])),
             {},
             Span<const char* const>(kZephyr41Unregistered, sizeof(kZephyr41Unregistered) /
                                                                sizeof(kZephyr41Unregistered[0])),
             /*ethos_u=*/false),
    // esp-tflite-micro 1.4.0 (99f49e1) is upstream TFLM 0965635 with
    // Espressif's directories; its idf_component.yml accepts esp-nn >= 1.1.1,
    // so the esp-nn release is whatever the application's lock file holds.
    EspNn("1.2.3", "esp-nn 1.2.3 (5f0a807)", EspNnVersion::kV1_2_3),
    EspNn("1.2.2", "esp-nn 1.2.2 (def4d7a)", EspNnVersion::kV1_2_2),
    EspNn("1.2.1", "esp-nn 1.2.1 (79d59ae)", EspNnVersion::kV1_2_1),
    EspNn("1.2.0", "esp-nn 1.2.0 (tag v1.2.0)", EspNnVersion::kV1_2_0),
    EspNn("1.1.2", "esp-nn 1.1.2 (tag v1.1.2)", EspNnVersion::kV1_1_2),
};

}  // namespace

Span<const StackVersion> StackVersions() {
  return Span<const StackVersion>(kVersions, sizeof(kVersions) / sizeof(kVersions[0]));
}

const StackVersion& DefaultStackVersion(StackFamily family) {
  for (const StackVersion& v : kVersions) {
    if (v.family == family) return v;
  }
  return kVersions[0];  // every family has a row (tests_cpp check it)
}

const StackVersion* FindStackVersion(StackFamily family, const char* name) {
  if (name == nullptr) return nullptr;
  for (const StackVersion& v : kVersions) {
    if (v.family == family && std::strcmp(v.name, name) == 0) return &v;
  }
  return nullptr;
}

std::string StackVersionNames(StackFamily family) {
  std::string s;
  for (const StackVersion& v : kVersions) {
    if (v.family != family) continue;
    if (!s.empty()) s += ", ";
    s += v.name;
  }
  return s;
}

bool IsUnregisteredAt(Span<const char* const> unregistered, const char* name) {
  if (name == nullptr) return false;
  for (const char* n : unregistered) {
    if (std::strcmp(n, name) == 0) return true;
  }
  return false;
}

}  // namespace tflm
}  // namespace tflm_arena
