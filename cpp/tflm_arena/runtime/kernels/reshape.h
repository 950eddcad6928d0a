// RESHAPE: the output shape is the output tensor's (static) shape; the data
// is copied when the input and output buffers differ and left alone when
// they are the same buffer (in-place reshape). Matches TFLM's reference
// kernel, which needs no persistent memory and no scratch (it has no init).
//
// Prepare checks (TFLM reshape_common.cc): 1 or 2 inputs, 1 output, same
// element type, same element count. A legacy output shape [0] with a single
// input means a scalar (1 element).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_RESHAPE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_RESHAPE_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"

namespace tflm_arena {
namespace runtime {

// RESHAPE's builtin options (ReshapeOptions).
struct ReshapeOptions {
  bool has_new_shape = false;     // the field may be absent
  Span<const int32_t> new_shape;  // points into the model
};

// Element count of a shape for RESHAPE's check (legacy [0] -> scalar when
// `legacy_scalar_allowed`, i.e. the op has a single input).
int64_t ReshapeElementCount(const int32_t* dims, size_t rank, bool legacy_scalar_allowed);

// Copies `bytes` from input to output unless they are the same buffer.
void ReshapeCopy(const void* input, void* output, size_t bytes);

constexpr size_t kReshapePersistentBytes = 0;

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_RESHAPE_H_
