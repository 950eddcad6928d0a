// CONCATENATION: the inputs joined along `axis`, for FLOAT32, INT8, INT16,
// INT32, INT64 and BOOL (TFLM's reference kernel's types), 1 to 10 inputs of
// rank <= 6. Bit-exact with TFLM's concatenation.cc and
// reference_ops::Concatenation: no requantization — INT8 inputs must have
// the output's scale and zero point, INT16 zero points must be 0 — and no
// fused activation (TFLM refuses any but NONE).
//
// TFLM's prepare does not compare the shapes; here every input must have
// the output's rank and extents except along `axis`, whose extents sum to
// the output's (otherwise the copy would run past a tensor).
//
// Memory per node, as TFLM on 64-bit with compression (the wheel):
// ConcatenationParams + 10 decompression scratch indices (80 bytes,
// persistent, in init), the 8-byte options struct (tail); no scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_CONCATENATION_H_
#define TFLM_ARENA_RUNTIME_KERNELS_CONCATENATION_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

// CONCATENATION's builtin options, laid out like TfLiteConcatenationParams.
struct ConcatenationOptions {
  int32_t axis = 0;
  int32_t activation = 0;  // model::Activation value
};

constexpr int kConcatenationMaxInputs = 10;  // TFLM's kMaxInputNum
constexpr int kConcatenationMaxRank = 6;     // RuntimeShape::kMaxSmallSize

// Laid out like TFLM's OpData {ConcatenationParams params; int
// scratch_indices[10];} (80 bytes on 64-bit). Only axis and inputs_count
// are used (TFLM leaves the rest unset as well).
struct ConcatenationOpData {
  int8_t axis = 0;
  const int32_t* input_zeropoint = nullptr;
  const float* input_scale = nullptr;
  uint16_t inputs_count = 0;
  int32_t output_zeropoint = 0;
  float output_scale = 0.0f;
  int32_t scratch_indices[kConcatenationMaxInputs] = {};
};
constexpr size_t kConcatenationPersistentBytes = sizeof(ConcatenationOpData);  // 80

// The axis counted from 0 after checking that it lies in [-rank, rank),
// and that the shapes join along it (same rank, same extents elsewhere,
// axis extents summing to the output's). kInvalidArgument otherwise.
Status PrepareConcatenation(int32_t axis, const int32_t* const* input_shapes, int num_inputs,
                            const int32_t* output_shape, int rank, int* positive_axis);

// Copies the inputs into the output, `element_bytes` per element.
void ConcatenationCopy(int axis, const int32_t* const* input_shapes, const uint8_t* const* inputs,
                       int num_inputs, const int32_t* output_shape, int rank, size_t element_bytes,
                       uint8_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_CONCATENATION_H_
