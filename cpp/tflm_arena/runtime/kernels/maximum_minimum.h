// MAXIMUM and MINIMUM: elementwise max / min of two tensors of one type
// (float32, int8, int16, int32, int64), same shapes or numpy-style
// broadcasting, as TFLM's reference kernel (maximum_minimum.cc,
// reference_ops::MaximumMinimumBroadcastSlow).
//
// Facts reproduced:
//  - max = a > b ? a : b, min = a < b ? a : b (so a NaN in the first
//    input yields the second, a NaN in the second yields NaN);
//  - quantized tensors are compared as stored: TFLM reads no scale or zero
//    point (we require nothing of them either);
//  - no options, no init, no prepare in TFLM: no persistent memory, no
//    scratch. Our prepare only checks what invoke relies on.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_MAXIMUM_MINIMUM_H_
#define TFLM_ARENA_RUNTIME_KERNELS_MAXIMUM_MINIMUM_H_

#include <cstddef>

#include "tflm_arena/model/tensor_type.h"
#include "tflm_arena/runtime/kernels/add.h"  // BroadcastDims

namespace tflm_arena {
namespace runtime {

// The types MAXIMUM / MINIMUM run on.
bool MaximumMinimumSupports(model::TensorType type);

// out = max(in1, in2) when `maximum`, else min; all of `type` (one of
// MaximumMinimumSupports). `broadcast` false: same shapes, `n` elements.
void MaximumMinimum(bool maximum, model::TensorType type, bool broadcast, const BroadcastDims& dims,
                    size_t n, const void* in1, const void* in2, void* out);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_MAXIMUM_MINIMUM_H_
