// SPLIT: the input (input 1) cut into as many equal parts along `axis` (a
// constant INT32 input 0) as the node has outputs, for FLOAT32, INT8, INT16
// and INT32 (TFLM's reference kernel's types). Matches TFLM's split.cc (it
// only moves elements; num_splits is parsed but unused, as in TFLM).
//
// Prepare checks (TFLM's): a constant axis; ours: INT32 with one element,
// in [-rank, rank), every output of the input's type and of the input's
// shape with the axis extent divided by the output count (TFLM sizes every
// part from output 0's dims and checks nothing).
//
// Memory per node, as TFLM: no init, no persistent memory; the 4-byte
// options struct (tail).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SPLIT_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SPLIT_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

// SPLIT's builtin options, laid out like TfLiteSplitParams.
struct SplitOptions {
  int32_t num_splits = 0;
};

// Axis (may be negative) resolved against the input rank, and the output
// shape checked: the input's with the axis extent / `count`.
Status CheckSplitOutput(int32_t axis, int count, const int32_t* input_shape, int rank,
                        const int32_t* output_shape, int output_rank, int* positive_axis);

// Copies run k of part i (each part `part_bytes` per outer step) out of the
// input: outer steps of count * part_bytes.
void SplitCopy(size_t outer, size_t part_bytes, int count, const uint8_t* input,
               uint8_t* const* outputs);
// SPLIT_V's copy: part i is part_bytes[i] per outer step.
void SplitCopyParts(size_t outer, const size_t* part_bytes, int count, const uint8_t* input,
                    uint8_t* const* outputs);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SPLIT_H_
