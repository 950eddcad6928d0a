// GATHER: slices of the input along `axis` picked by INT32 positions, with
// optional leading batch dimensions (batch_dims), for FLOAT32 and INT8
// (TFLM's reference kernel's types). Matches TFLM's gather.cc (it only
// moves elements).
//
// Prepare checks (TFLM's): 2 inputs, 1 output, INT32 positions, axis in
// [-rank, rank), batch_dims (negative counts from the positions' rank) in
// [0, rank) and <= axis and <= the positions' rank, equal leading batch
// extents. Ours: the output type is the input's and the output shape is the
// gathered shape (TFLM overwrites the output dims with it; we plan the
// model's shape, so they must agree); every position lies in
// [0, axis extent) — checked in prepare when constant, else at every
// invoke (TFLM only DCHECKs).
//
// Memory per node, as TFLM: no init; in prepare TFLM copies the output
// dims to persistent memory (CreateWritableTensorDimsWithCopy: a
// TfLiteIntArray, 4 + 4 * output rank bytes) — the same request is made
// here; the 8-byte options struct (tail); no scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_GATHER_H_
#define TFLM_ARENA_RUNTIME_KERNELS_GATHER_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

// GATHER's builtin options, laid out like TfLiteGatherParams.
struct GatherOptions {
  int32_t axis = 0;
  int32_t batch_dims = 0;
};

constexpr int kGatherMaxRank = 8;

// Resolved geometry of one GATHER.
struct GatherGeometry {
  int axis = 0;
  int batch_dims = 0;
  size_t batch = 1, outer = 1, inner = 1, coords = 1;
  int32_t axis_size = 0;
};

// TFLM's prepare checks plus the output shape; fills `g`.
Status PrepareGather(const GatherOptions& options, const int32_t* input_shape, int input_rank,
                     const int32_t* coords_shape, int coords_rank, const int32_t* output_shape,
                     int output_rank, GatherGeometry* g);

// Every position within [0, axis_size) (kInvalidArgument naming the first
// one that is not).
Status CheckGatherPositions(const GatherGeometry& g, const int32_t* positions);

// The gather, `element_bytes` per element.
void GatherCopy(const GatherGeometry& g, size_t element_bytes, const uint8_t* input,
                const int32_t* positions, uint8_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_GATHER_H_
