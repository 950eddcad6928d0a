// RESHAPE math (see reshape.h).
#include <cstring>

#include "tflm_arena/runtime/kernels/reshape.h"

namespace tflm_arena {
namespace runtime {

int64_t ReshapeElementCount(const int32_t* dims, size_t rank, bool legacy_scalar_allowed) {
  if (legacy_scalar_allowed && rank == 1 && dims[0] == 0) return 1;
  int64_t n = 1;
  for (size_t i = 0; i < rank; ++i) n *= dims[i];
  return n;
}

void ReshapeCopy(const void* input, void* output, size_t bytes) {
  if (input == output || bytes == 0) return;
  std::memmove(output, input, bytes);
}

}  // namespace runtime
}  // namespace tflm_arena
