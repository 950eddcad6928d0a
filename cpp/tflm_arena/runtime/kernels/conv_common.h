// Pieces shared by the CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED
// kernels: NHWC shapes, convolution parameters, per-tensor quantization
// lookups and TFLM's per-channel multiplier derivation.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_CONV_COMMON_H_
#define TFLM_ARENA_RUNTIME_KERNELS_CONV_COMMON_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernels/padding.h"

namespace tflm_arena {
namespace runtime {

// A rank-4 NHWC shape. For CONV_2D filters the four extents are
// [output channels, height, width, input channels per group]; for
// DEPTHWISE_CONV_2D filters [1, height, width, output channels].
struct Shape4 {
  int32_t batch = 0;
  int32_t height = 0;
  int32_t width = 0;
  int32_t depth = 0;
};

// From a dims array of exactly four entries.
inline Shape4 MakeShape4(const int32_t* dims) {
  Shape4 s;
  s.batch = dims[0];
  s.height = dims[1];
  s.width = dims[2];
  s.depth = dims[3];
  return s;
}

// Flat index of (b, y, x, c) in a row-major NHWC tensor.
inline size_t Offset4(const Shape4& s, int32_t b, int32_t y, int32_t x, int32_t c) {
  return ((static_cast<size_t>(b) * static_cast<size_t>(s.height) + static_cast<size_t>(y)) *
              static_cast<size_t>(s.width) +
          static_cast<size_t>(x)) *
             static_cast<size_t>(s.depth) +
         static_cast<size_t>(c);
}

// int32 addition with two's-complement wrap-around: what TFLM's int32
// accumulators do in practice on overflow, without undefined behaviour.
inline int32_t WrappingAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

// acc + term with the accumulator's overflow behaviour: int32 wraps (see
// WrappingAdd), int64 cannot overflow for any tensor we accept.
inline int32_t Accumulate(int32_t acc, int32_t term) { return WrappingAdd(acc, term); }
inline int64_t Accumulate(int64_t acc, int64_t term) { return acc + term; }

// Everything a convolution needs besides the tensors (TFLM's ConvParams /
// DepthwiseParams, reduced to the fields the reference kernels read).
struct ConvParams {
  int32_t padding_width = 0;        // leading padding (ComputePaddingHeightWidth)
  int32_t padding_height = 0;
  int32_t stride_width = 1;
  int32_t stride_height = 1;
  int32_t dilation_width = 1;
  int32_t dilation_height = 1;
  int32_t depth_multiplier = 1;     // DEPTHWISE_CONV_2D only
  int32_t input_offset = 0;         // int8: -input zero point (0 for int16)
  int32_t output_offset = 0;        // int8: output zero point (0 for int16)
  int32_t quantized_activation_min = -128;
  int32_t quantized_activation_max = 127;
  float float_activation_min = 0.0f;
  float float_activation_max = 0.0f;
  // CONV_2D int16x8 only: accumulate in int32 (INT32 bias) instead of int64.
  bool int32_accumulator = false;
};

// Per-tensor quantization as TFLM's TfLiteTensor::params sees it: the first
// scale / zero point, or 0 when the tensor has none.
inline float TensorScale(const model::TensorInfo& t) {
  return t.scale.empty() ? 0.0f : t.scale[0];
}
inline int32_t TensorZeroPoint(const model::TensorInfo& t) {
  return t.zero_point.empty() ? 0 : static_cast<int32_t>(t.zero_point[0]);
}

// TFLM's per-channel (or broadcast per-tensor) requantization: for channel i,
// M_i = double(input_scale) * double(filter_scale_i) / double(output_scale)
// (left to right), split by QuantizeMultiplier. A single filter scale is used
// for every channel. `multipliers` and `shifts` hold `num_channels` entries;
// `filter_scales` must have 1 or `num_channels` entries.
void PerChannelMultipliers(float input_scale, Span<const float> filter_scales,
                           float output_scale, int32_t num_channels, int32_t* multipliers,
                           int32_t* shifts);

// Checks shared by the convolution prepares: stride and dilation at least 1.
Status CheckWindow(const char* op, int32_t stride_w, int32_t stride_h, int32_t dilation_w,
                   int32_t dilation_h);

// The tensor is affine-quantized (has at least one scale) — kInvalidArgument
// naming `op` and `role` otherwise.
Status RequireQuantized(const char* op, const char* role, const model::TensorInfo& t);

// TFLite's 64-bit-accumulator requantization (used with INT64 biases):
// the multiplier is first rounded to 16 bits,
//   m16 = m < 0x7FFF0000 ? (m + 2^15) >> 16 : 0x7FFF,
// then result = (x * m16 + 2^(14 - shift)) >> (15 - shift) (arithmetic
// shift), truncated to int32. TFLite assumes shift in [-31, 7]; the shift
// amount is clamped to [1, 62] so other values stay defined.
inline int32_t MultiplyByQuantizedMultiplier64(int64_t x, int32_t quantized_multiplier,
                                               int32_t shift) {
  const int64_t reduced = quantized_multiplier < 0x7FFF0000
                              ? (static_cast<int64_t>(quantized_multiplier) + (1 << 15)) >> 16
                              : 0x7FFF;
  int32_t total_shift = 15 - shift;
  if (total_shift < 1) total_shift = 1;
  if (total_shift > 62) total_shift = 62;
  const int64_t rounded = x * reduced + (static_cast<int64_t>(1) << (total_shift - 1));
  return static_cast<int32_t>(rounded >> total_shift);
}

// The tensor has exactly `rank` dimensions — kInvalidArgument otherwise.
Status RequireRank(const char* op, const char* role, const model::TensorInfo& t, size_t rank);

// The (input, weights, output) type combinations the CONV_2D,
// DEPTHWISE_CONV_2D and FULLY_CONNECTED kernels run.
enum class WeightedKind : uint8_t {
  kFloat32,  // all FLOAT32
  kInt8,     // all INT8
  kInt16,    // INT16 activations, INT8 weights (only where `allow_int16`)
};

// Classifies the types; everything else is kUnimplemented naming the op and
// the types (INT4 weights and hybrid float/int8, which TFLM partly runs,
// included).
Status ClassifyWeightedTypes(const char* op, const model::TensorInfo& input,
                             const model::TensorInfo& weights,
                             const model::TensorInfo& output, bool allow_int16,
                             WeightedKind* kind);

// An optional bias: FLOAT32 for float, INT32 for int8, INT32 or INT64 for
// int16 activations; exactly `channels` elements. Null passes.
Status CheckBias(const char* op, const model::TensorInfo* bias, WeightedKind kind,
                 int64_t channels);

// Filter scales of a quantized weighted op: 1 (per tensor) or `channels` (per
// channel, along `expected_dimension`, whose extent must be `channels`).
Status CheckFilterScales(const char* op, const model::TensorInfo& filter, int32_t channels,
                         int32_t expected_dimension);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_CONV_COMMON_H_
