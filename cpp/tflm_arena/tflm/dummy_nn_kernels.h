// A throw-away kernel library (shows what adding one touches).
#ifndef TFLM_ARENA_TFLM_DUMMY_NN_KERNELS_H_
#define TFLM_ARENA_TFLM_DUMMY_NN_KERNELS_H_

#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/tflm/kernel_table.h"

namespace tflm_arena {
namespace tflm {

enum class DummyNnVariant : uint8_t { kFast };
const char* DummyNnVariantName(DummyNnVariant variant);
Span<const KernelRow> DummyNnKernels();

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_DUMMY_NN_KERNELS_H_
