// The versions of stock TFLM and its kernel libraries users ship, as data.
// A build target (build_targets.h) names the hardware and the kernel
// library; a stack version names which TFLM release and which version of
// that kernel library the build compiles. Users write "TARGET@VERSION"
// ("esp32s3+esp-nn@1.2.0", "cortex-m@zephyr-v4.1"); a target alone takes
// its family's newest modelled version (the first row of the family).
//
// A version is not a copy of the kernels: it is the base tables (the newest
// TFLM's rows, kernel_table.h) plus what differs, as data here:
//  - rows: kernel rows that replace the base row of the same operator;
//  - unregistered: operators that release's resolver has no Add* for
//    (a model using one is refused at registration, as TFLM refuses it);
//  - esp_nn: which of esp-nn's scratch-size formulas the release links
//    (esp_nn_scratch_sizes.h).
// Every difference a row states is checked against a real build of that
// version (docs/tflm_behaviour.md, sections "esp-nn releases" and "TFLM
// releases", list them with the measured models).
#ifndef TFLM_ARENA_TFLM_STACK_VERSIONS_H_
#define TFLM_ARENA_TFLM_STACK_VERSIONS_H_

#include <cstdint>
#include <string>

#include "tflm_arena/core/span.h"
#include "tflm_arena/tflm/esp_nn_scratch_sizes.h"
#include "tflm_arena/tflm/kernel_table.h"

namespace tflm_arena {
namespace tflm {

// Which targets a version applies to: the distributions differ by family.
enum class StackFamily : uint8_t {
  kWheel,     // x86-64 targets: the tflite-micro PyPI wheel's TFLM
  kUpstream,  // 32-bit ARM targets with reference or CMSIS-NN kernels
  kEspNn,     // esp-tflite-micro with ESP-NN
};

struct StackVersion {
  const char* name = nullptr;  // what users write after '@', e.g. "zephyr-v4.1"
  // The TFLM sources, in words: distribution, upstream commit and date.
  const char* tflm = nullptr;
  // The CMSIS-NN this TFLM builds with (the commit its download script
  // pins), or nullptr when CMSIS-NN targets are not modelled at this
  // version (then "cortex-mN+cmsis-nn@VERSION" is an error).
  const char* cmsis_nn = nullptr;
  // kEspNn: the esp-nn release and commit, e.g. "esp-nn 1.2.0 (v1.2.0)".
  const char* esp_nn_release = nullptr;
  // The struct layout (target_abi.h) when this distribution compiles TFLM
  // differently from the target's own (the Arduino library has no
  // TF_LITE_STATIC_MEMORY); nullptr: the target's.
  const char* abi = nullptr;
  // Reference-kernel rows that differ from the newest TFLM's.
  Span<const KernelRow> reference_rows = {};
  // CMSIS-NN rows that differ (used before reference_rows on CMSIS-NN targets).
  Span<const KernelRow> cmsis_nn_rows = {};
  // The operators that have a CMSIS-NN kernel at this version (empty: every
  // one of CmsisNnOwnKernels()); the others run reference kernels.
  Span<const char* const> cmsis_nn_ops = {};
  // Builtin names and custom codes its resolver cannot register.
  Span<const char* const> unregistered = {};
  StackFamily family = StackFamily::kUpstream;
  // kEspNn: which of esp-nn's size functions the release has.
  EspNnVersion esp_nn = EspNnVersion::kV1_2_3;
  // The Ethos-U kernel (CO_PROCESSOR=ethos_u) is modelled at this version.
  bool ethos_u = false;
  // Its CMSIS-NN build is modelled (and checked) for DSP cores only.
  bool cmsis_nn_dsp_only = false;
  // Figures checked against a real build of this version (else the
  // resolved description says "modelled from source only").
  bool checked = true;
};

// Every version, newest first within each family.
Span<const StackVersion> StackVersions();
// The version a target takes when none is named: the family's first row.
const StackVersion& DefaultStackVersion(StackFamily family);
// nullptr for a name the family does not have.
const StackVersion* FindStackVersion(StackFamily family, const char* name);
// "1.2.3, 1.2.2, ..." (for error messages).
std::string StackVersionNames(StackFamily family);

// True when `name` (a builtin name or a custom code) is in `unregistered`
// (a version's list), where an entry ending in '*' stands for every name
// it begins ("Signal*": the Signal library's custom codes).
bool IsUnregisteredAt(Span<const char* const> unregistered, const char* name);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_STACK_VERSIONS_H_
