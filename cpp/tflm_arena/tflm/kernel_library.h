// The kernel library a stock-TFLM build links, as one value: the reference
// kernels, or an optimized library together with its variant (CMSIS-NN's
// backend, ESP-NN's size set). A build target's row holds it
// (build_targets.h) and the allocation trace takes it as it is
// (allocation_trace.h); nothing copies its parts field by field.
//
// Adding a library: its alternative here and its arm in each function of
// kernel_library.cc, its kernel table (<library>_kernels.{h,cc}: the rows
// and its Prepare-time allocations), its target rows (build_targets.cc),
// and the trace step that asks it for its allocations (allocation_trace.cc).
// Host tool (standard library).
#ifndef TFLM_ARENA_TFLM_KERNEL_LIBRARY_H_
#define TFLM_ARENA_TFLM_KERNEL_LIBRARY_H_

#include <string>
#include <variant>

#include "tflm_arena/core/span.h"
#include "tflm_arena/tflm/cmsis_nn_kernels.h"
#include "tflm_arena/tflm/esp_nn_kernels.h"
#include "tflm_arena/tflm/kernel_table.h"

namespace tflm_arena {
namespace tflm {

// TFLM's own kernels (tensorflow/lite/micro/kernels/*.cc).
struct ReferenceLibrary {
  bool operator==(const ReferenceLibrary&) const { return true; }
};

// OPTIMIZED_KERNEL_DIR=cmsis_nn with the backend the core selects
// (cmsis_nn_kernels.h), or esp-tflite-micro with ESP-NN's size set for the
// chip (esp_nn_kernels.h).
using KernelLibrary = std::variant<ReferenceLibrary, CmsisNnBackend, EspNnChip>;

// What figures print: "reference", "cmsis_nn (DSP backend)",
// "esp_nn (ESP32-S3 set)".
std::string KernelLibraryWords(const KernelLibrary& library);

// The library's kernel table at its newest version (ReferenceKernels(),
// CmsisNnKernels(), EspNnKernels()).
Span<const KernelRow> KernelLibraryTable(const KernelLibrary& library);

inline bool IsCmsisNn(const KernelLibrary& library) {
  return std::holds_alternative<CmsisNnBackend>(library);
}
inline bool IsEspNn(const KernelLibrary& library) {
  return std::holds_alternative<EspNnChip>(library);
}

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_KERNEL_LIBRARY_H_
