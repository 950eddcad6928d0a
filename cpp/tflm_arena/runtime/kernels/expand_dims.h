// EXPAND_DIMS: the input with a size-1 dimension inserted at `axis` (a
// constant INT32 scalar or 1-element tensor; negative counts from the end,
// -1 appends); the data is copied unchanged, for FLOAT32, INT8 and INT16
// (TFLM's kernel's types). Matches TFLM's expand_dims.cc, whose prepare
// checks the output shape exactly (input rank + 1, the 1 at `axis`).
//
// Memory per node, as TFLM: nothing (no init, no options struct, no
// scratch).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_EXPAND_DIMS_H_
#define TFLM_ARENA_RUNTIME_KERNELS_EXPAND_DIMS_H_

#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

// TFLM's VerifyTensorDim: the output shape is the input's with a 1 at
// `axis` (kInvalidArgument naming EXPAND_DIMS otherwise).
Status CheckExpandDims(int32_t axis, const int32_t* input_shape, int rank,
                       const int32_t* output_shape, int output_rank);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_EXPAND_DIMS_H_
