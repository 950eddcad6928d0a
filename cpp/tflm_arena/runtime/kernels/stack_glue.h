// Glue shared by PACK and UNPACK: both move runs between one stacked tensor
// and `count` pieces of one shape (pack.h).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_STACK_GLUE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_STACK_GLUE_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/runtime/kernel_api.h"

namespace tflm_arena {
namespace runtime {

// Most pieces a PACK / UNPACK node may have here (stack arrays in invoke).
constexpr int kMaxStackPieces = 64;

// outer and inner (bytes) runs of a stacked tensor around `axis`.
inline void StackRuns(const EvalTensor& stacked, int axis, size_t* outer, size_t* inner) {
  size_t o = 1, n = model::ElementByteSize(stacked.type);
  for (int d = 0; d < axis; ++d) o *= static_cast<size_t>(stacked.dims[d]);
  for (int d = axis + 1; d < stacked.rank; ++d) n *= static_cast<size_t>(stacked.dims[d]);
  *outer = o;
  *inner = n;
}

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_STACK_GLUE_H_
