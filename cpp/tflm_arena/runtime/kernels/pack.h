// PACK: `values_count` tensors of one shape stacked along a new dimension
// `axis` of the output, for FLOAT32, INT8, INT16, INT32 and INT64 (TFLM's
// reference kernel's types). Matches TFLM's pack.cc (it only moves
// elements; quantization parameters are not compared, as in TFLM).
//
// TFLM has no prepare for PACK; here prepare checks what its invoke
// assumes: as many inputs as values_count, all of the output's type and of
// one shape, axis in [-(rank + 1), rank], and the output shape equal to that
// shape with values_count inserted at axis.
//
// Memory per node, as TFLM: no init, no persistent memory; the 8-byte
// options struct (tail).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_PACK_H_
#define TFLM_ARENA_RUNTIME_KERNELS_PACK_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

// PACK's builtin options, laid out like TfLitePackParams.
struct PackOptions {
  int32_t values_count = 0;
  int32_t axis = 0;
};

// The output shape is the piece shape with `count` inserted at `axis` (the
// piece rank + 1 output dimensions; axis may be negative). Used by PACK and
// UNPACK; `op` names the operator in messages.
Status CheckStackedShape(const char* op, int32_t axis, int32_t count, const int32_t* piece_shape,
                         int piece_rank, const int32_t* stacked_shape, int stacked_rank,
                         int* positive_axis);

// outer = product of the stacked shape before axis, inner = after it (in
// bytes): piece i's k-th run of `inner` bytes sits at (k * count + i) *
// inner of the stacked tensor.
void StackCopy(size_t outer, size_t inner, int count, const uint8_t* const* pieces,
               uint8_t* stacked);
void UnstackCopy(size_t outer, size_t inner, int count, const uint8_t* stacked,
                 uint8_t* const* pieces);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_PACK_H_
