// TRANSPOSE: out[i_0, ..., i_n] = in[j] with j[perm[k]] = i_k, for FLOAT32,
// INT8 and INT16 (TFLM's reference kernel's types), rank <= 5. Bit-exact
// with TFLM's transpose.cc / transpose_common.cc and
// reference_ops::Transpose (it only moves elements).
//
// Prepare checks (TFLM's, plus two of ours): a constant INT32 perm of shape
// [rank] with entries in [0, rank); here also no repeated entry and the
// output shape equal to the permuted input shape (TFLM checks neither, and
// either would make the copy leave the input).
//
// Memory per node, as TFLM: nothing (no init, no options struct, no
// scratch).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_TRANSPOSE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_TRANSPOSE_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

constexpr int kTransposeMaxRank = 5;
constexpr size_t kTransposePersistentBytes = 0;

// Checks `perm` (`perm_count` entries) against the shapes; kInvalidArgument
// naming TRANSPOSE otherwise.
Status PrepareTranspose(const int32_t* input_shape, int rank, const int32_t* perm,
                        size_t perm_count, const int32_t* output_shape, int output_rank);

// Writes the transposed input, `element_bytes` (1, 2 or 4) per element.
void TransposeCopy(const int32_t* input_shape, int rank, const int32_t* perm, size_t element_bytes,
                   const uint8_t* input, uint8_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_TRANSPOSE_H_
