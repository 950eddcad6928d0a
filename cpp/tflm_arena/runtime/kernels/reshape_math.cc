// RESHAPE math (see reshape.h).
#include <cstring>

#include "tflm_arena/runtime/kernels/reshape.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {

int64_t ReshapeElementCount(const int32_t* dims, size_t rank, bool legacy_scalar_allowed) {
  if (legacy_scalar_allowed && rank == 1 && dims[0] == 0) return 1;
  return SafeElementCount(dims, rank);  // no overflow on hostile extents
}

void ReshapeCopy(const void* input, void* output, size_t bytes) {
  if (input == output || bytes == 0) return;
  std::memmove(output, input, bytes);
}

}  // namespace runtime
}  // namespace tflm_arena
