#include "tflm_arena/tflm/stack_versions.h"

#include <cstring>

namespace tflm_arena {
namespace tflm {
namespace {

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
constexpr StackVersion EspNn(const char* name, const char* release, EspNnVersion version,
                             bool checked) {
  StackVersion v;
  v.name = name;
  v.family = StackFamily::kEspNn;
  v.tflm = kEspTfliteMicro140;
  v.esp_nn_release = release;
  v.esp_nn = version;
  v.checked = checked;
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
    // esp-tflite-micro 1.4.0 (99f49e1) is upstream TFLM 0965635 with
    // Espressif's directories; its idf_component.yml accepts esp-nn >= 1.1.1,
    // so the esp-nn release is whatever the application's lock file holds.
    EspNn("1.2.3", "esp-nn 1.2.3 (5f0a807)", EspNnVersion::kV1_2_3, /*checked=*/true),
    EspNn("1.2.2", "esp-nn 1.2.2 (def4d7a)", EspNnVersion::kV1_2_2,
          /*checked=*/false),
    EspNn("1.2.1", "esp-nn 1.2.1 (79d59ae)", EspNnVersion::kV1_2_1,
          /*checked=*/false),
    EspNn("1.2.0", "esp-nn 1.2.0 (tag v1.2.0)", EspNnVersion::kV1_2_0,
          /*checked=*/false),
    EspNn("1.1.2", "esp-nn 1.1.2 (tag v1.1.2)", EspNnVersion::kV1_1_2,
          /*checked=*/false),
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
