// AVERAGE_POOL_2D and MAX_POOL_2D: float32, int8 and int16, NHWC.
//
// Math (pooling_math.cc) is plain functions on pointers and a geometry
// struct, testable without an interpreter; pooling.cc is the kernel glue.
//
// Facts reproduced from TFLM's reference kernels:
//  * For each output (b, y, x, c) the window origin is (y * stride_h -
//    pad_h, x * stride_w - pad_w); the window is clipped to the input, so
//    padded positions are simply not visited (no zero padding).
//  * Average, float: sum in float over the clipped window (rows outer,
//    columns inner), divide by the float count, clamp to the activation range.
//  * Average, integer: int32 sum, then rounded to nearest with ties away
//    from zero: (sum > 0 ? sum + n/2 : sum - n/2) / n with C++ truncating
//    division, then clamped to the quantized activation range. An empty
//    window (possible only with odd geometry) makes TFLM's reference return
//    "false"; we return false too and the kernel reports an error.
//  * Max: start from the type's lowest value, take the max over the clipped
//    window, clamp to the activation range.
//  * Input and output must share scale (|difference| <= 1e-6) and zero point
//    for quantized types (checked in prepare, as TFLM does).
//
// Persistent memory per node: one OpData of TFLM's OpDataPooling size (32
// bytes: 4 int padding values, 2 int32 and 2 float clamp bounds); no scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_POOLING_H_
#define TFLM_ARENA_RUNTIME_KERNELS_POOLING_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/model/builtin_options.h"

namespace tflm_arena {
namespace runtime {

// AVERAGE_POOL_2D / MAX_POOL_2D builtin options (Pool2DOptions).
struct PoolOptions {
  model::Padding padding = model::Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  int32_t filter_w = 0, filter_h = 0;
  model::Activation activation = model::Activation::kNone;
};

// Shapes, window and padding of one pooling op (NHWC). pad_h / pad_w are
// the leading (top / left) padding.
struct PoolGeometry {
  int32_t batches = 0;
  int32_t input_height = 0;
  int32_t input_width = 0;
  int32_t depth = 0;
  int32_t output_height = 0;
  int32_t output_width = 0;
  int32_t stride_height = 1;
  int32_t stride_width = 1;
  int32_t filter_height = 1;
  int32_t filter_width = 1;
  int32_t pad_height = 0;
  int32_t pad_width = 0;
};

// Returns false when some output position has an empty window (nothing is
// written for it and later ones); true otherwise.
bool AveragePoolFloat(const PoolGeometry& g, float act_min, float act_max, const float* input,
                      float* output);
bool AveragePoolInt8(const PoolGeometry& g, int32_t act_min, int32_t act_max, const int8_t* input,
                     int8_t* output);
bool AveragePoolInt16(const PoolGeometry& g, int32_t act_min, int32_t act_max, const int16_t* input,
                      int16_t* output);

void MaxPoolFloat(const PoolGeometry& g, float act_min, float act_max, const float* input,
                  float* output);
void MaxPoolInt8(const PoolGeometry& g, int32_t act_min, int32_t act_max, const int8_t* input,
                 int8_t* output);
void MaxPoolInt16(const PoolGeometry& g, int32_t act_min, int32_t act_max, const int16_t* input,
                  int16_t* output);

// The integer average's rounding: sum / count to nearest, ties away from 0
// (count > 0). The +/- count / 2 wraps as TFLM's int32 arithmetic does in
// practice, without undefined behaviour.
inline int32_t RoundedAverage(int32_t sum, int32_t count) {
  const uint32_t half = static_cast<uint32_t>(count / 2);
  const uint32_t u = static_cast<uint32_t>(sum);
  return static_cast<int32_t>(sum > 0 ? u + half : u - half) / count;
}

// Per-node persistent state (what prepare computes). Same size as TFLM's
// OpDataPooling, so the arena tail matches TFLM byte for byte.
struct PoolingOpData {
  int32_t padding_width;
  int32_t padding_height;
  int32_t padding_width_offset;
  int32_t padding_height_offset;
  int32_t activation_min;
  int32_t activation_max;
  float activation_min_f32;
  float activation_max_f32;
};
constexpr size_t kPoolingPersistentBytes = 32;  // TFLM sizeof(OpDataPooling)
static_assert(sizeof(PoolingOpData) == kPoolingPersistentBytes, "OpData size");

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_POOLING_H_
