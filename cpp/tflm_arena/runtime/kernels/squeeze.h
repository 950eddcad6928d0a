// SQUEEZE: the input with size-1 dimensions removed (those listed in
// squeeze_dims, or every one when the list is empty); the data is copied
// unchanged, for every fixed-size type (TFLM's kernel copies bytes and
// refuses only strings). Matches TFLM's squeeze.cc.
//
// Prepare checks (TFLM's): 1 input, 1 output, input rank <= 8, each
// squeeze_dims entry in [-rank, rank) naming a dimension of size 1; and
// ours: the same type and element count in and out (TFLM compares the byte
// lengths at invoke).
//
// Memory per node, as TFLM: no init, no persistent memory; the 36-byte
// options struct (tail).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SQUEEZE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SQUEEZE_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

constexpr int kSqueezeMaxDims = 8;

// SQUEEZE's builtin options, laid out like TfLiteSqueezeParams.
struct SqueezeOptions {
  int32_t squeeze_dims[kSqueezeMaxDims] = {};
  int32_t num_squeeze_dims = 0;
};

// TFLM's squeeze_dims checks against the input shape (kInvalidArgument
// naming SQUEEZE).
Status CheckSqueezeDims(const SqueezeOptions& options, const int32_t* input_shape, int rank);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SQUEEZE_H_
