// RESHAPE math (see reshape.h).
#include <cstdint>
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
  // memcpy when the buffers are apart (the usual case: 2 MB copies measured a
  // few percent faster than memmove), memmove only when they overlap (a
  // caller's preallocated buffers may).
  const uintptr_t in = reinterpret_cast<uintptr_t>(input);
  const uintptr_t out = reinterpret_cast<uintptr_t>(output);
  const bool apart = in + bytes <= out || out + bytes <= in;
  if (apart) {
    std::memcpy(output, input, bytes);
  } else {
    std::memmove(output, input, bytes);
  }
}

}  // namespace runtime
}  // namespace tflm_arena
