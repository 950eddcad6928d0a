// STRIDED_SLICE: out = in[begin:end:stride] per axis, for FLOAT32, INT8,
// INT16, INT32 and BOOL (TFLM's reference kernel's types), input rank <= 4.
// Bit-exact with TFLM's strided_slice.cc / strided_slice_common.cc and
// reference_ops::StridedSlice (it only moves elements).
//
// Facts reproduced:
//  - begin, end and strides are constant INT32 tensors with one entry per
//    input dimension; prepare copies them into the OpData;
//  - begin_mask, end_mask and shrink_axis_mask are honoured; TFLM sets
//    ellipsis_mask and new_axis_mask to 0 and never copies `offset`, so
//    those options are ignored here too;
//  - prepare checks the output shape with StartForAxis / StopForAxis
//    (ceil((stop - start) / stride), at least 0, shrunk axes dropped);
//  - invoke pads the indices to 5 dimensions (leading axes: 0..1 step 1,
//    both masks set) and walks StridedSliceStartForAxis / EndForAxis; a
//    shrunk axis whose start is at the end, or whose stride is negative,
//    yields no element (TFLM's loop condition).
//
// Memory per node, as TFLM: StridedSliceParams (84 bytes on 64-bit,
// persistent, in init), the 24-byte options struct (tail); no scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_STRIDED_SLICE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_STRIDED_SLICE_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

// STRIDED_SLICE's builtin options, laid out like TfLiteStridedSliceParams.
struct StridedSliceOptions {
  int32_t begin_mask = 0;
  int32_t end_mask = 0;
  int32_t ellipsis_mask = 0;
  int32_t new_axis_mask = 0;
  int32_t shrink_axis_mask = 0;
  bool offset = false;
};

constexpr int kStridedSliceMaxDims = 5;       // the reference loop's rank
constexpr int kStridedSliceMaxInputRank = 4;  // TFLM's prepare limit

// Laid out like TFLM's StridedSliceParams (84 bytes).
struct StridedSliceOpData {
  int8_t start_indices_count = 0;
  int32_t start_indices[kStridedSliceMaxDims] = {};
  int8_t stop_indices_count = 0;
  int32_t stop_indices[kStridedSliceMaxDims] = {};
  int8_t strides_count = 0;
  int32_t strides[kStridedSliceMaxDims] = {};
  uint16_t begin_mask = 0;
  uint16_t ellipsis_mask = 0;
  uint16_t end_mask = 0;
  uint16_t new_axis_mask = 0;
  uint16_t shrink_axis_mask = 0;
  bool offset = false;
};
constexpr size_t kStridedSlicePersistentBytes = sizeof(StridedSliceOpData);  // 84

// Fills `data` from the index tensors (each `rank` entries) and the masks,
// then checks as TFLM does that the output shape matches (every stride
// non-zero) and, for safety, that invoke writes at most `output_count`
// elements. Messages name STRIDED_SLICE.
Status PrepareStridedSlice(const int32_t* input_shape, int rank, const int32_t* begin,
                           const int32_t* end, const int32_t* strides,
                           const StridedSliceOptions& options, const int32_t* output_shape,
                           int output_rank, uint64_t output_count, StridedSliceOpData* data);

// Copies the slice, `element_bytes` per element. Returns the number of
// elements written.
size_t StridedSliceCopy(const StridedSliceOpData& data, const int32_t* input_shape, int rank,
                        size_t element_bytes, const uint8_t* input, uint8_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_STRIDED_SLICE_H_
