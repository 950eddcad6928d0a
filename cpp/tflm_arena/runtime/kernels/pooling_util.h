// Small helpers shared by the kernels_b set (pooling, softmax, quantize,
// dequantize, reshape): output-size / padding arithmetic for 2-D windows and
// fused-activation clamp ranges, with TFLM's exact integer and float rules.
//
// Facts reproduced (TFLM kernels/padding.h, kernels/kernel_util.cc):
//  * output size: SAME = ceil(in / stride) computed as (in + stride - 1) /
//    stride; VALID = (in + stride - effective_filter) / stride, with
//    effective_filter = (filter - 1) * dilation + 1; stride 0 gives 0.
//  * padding: total = max(0, (out - 1) * stride + effective_filter - in);
//    the leading (top / left) padding is total / 2, the remainder total % 2
//    is the "offset" added on the trailing side. The padding is derived from
//    the COMPUTED output size, not from the output tensor's shape.
//  * quantized activation range: start from the output type's range; RELU
//    raises the minimum to quantize(0), RELU6 also lowers the maximum to
//    quantize(6), RELU_N1_TO_1 uses quantize(-1) / quantize(1), where
//    quantize(f) = zero_point + (int32) round_half_away(f / scale) computed in
//    float. Every other activation leaves the full range.
//  * float activation range: RELU [0, max], RELU6 [0, 6], RELU_N1_TO_1
//    [-1, 1], otherwise [lowest, max].
//
// Everything is inline and lives in namespace kernels_b_util so it cannot
// clash with helpers other kernel files define.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_POOLING_UTIL_H_
#define TFLM_ARENA_RUNTIME_KERNELS_POOLING_UTIL_H_

#include <cmath>
#include <cstdint>
#include <limits>

#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace runtime {
namespace kernels_b_util {

// Leading padding and the extra trailing padding (0 or 1) per spatial axis.
struct Padding2D {
  int32_t width = 0;
  int32_t height = 0;
  int32_t width_offset = 0;
  int32_t height_offset = 0;
};

inline int32_t EffectiveFilterSize(int32_t filter, int32_t dilation) {
  return (filter - 1) * dilation + 1;
}

inline int32_t ComputeOutputSize(model::Padding padding, int32_t in_size, int32_t filter,
                                 int32_t stride, int32_t dilation = 1) {
  if (stride == 0) return 0;
  const int32_t effective = EffectiveFilterSize(filter, dilation);
  if (padding == model::Padding::kSame) return (in_size + stride - 1) / stride;
  if (padding == model::Padding::kValid) return (in_size + stride - effective) / stride;
  return 0;
}

// Leading padding for one axis; *offset receives the odd remainder.
inline int32_t ComputePaddingWithOffset(int32_t stride, int32_t dilation, int32_t in_size,
                                        int32_t filter, int32_t out_size, int32_t* offset) {
  const int32_t effective = EffectiveFilterSize(filter, dilation);
  int32_t total = (out_size - 1) * stride + effective - in_size;
  if (total < 0) total = 0;
  *offset = total % 2;
  return total / 2;
}

// Output size and padding of a 2-D window op (TFLM's rule, see above).
inline Padding2D ComputePadding2D(model::Padding padding, int32_t stride_h, int32_t stride_w,
                                  int32_t dilation_h, int32_t dilation_w, int32_t in_h,
                                  int32_t in_w, int32_t filter_h, int32_t filter_w,
                                  int32_t* out_h, int32_t* out_w) {
  *out_w = ComputeOutputSize(padding, in_w, filter_w, stride_w, dilation_w);
  *out_h = ComputeOutputSize(padding, in_h, filter_h, stride_h, dilation_h);
  Padding2D p;
  p.height = ComputePaddingWithOffset(stride_h, dilation_h, in_h, filter_h, *out_h,
                                      &p.height_offset);
  p.width = ComputePaddingWithOffset(stride_w, dilation_w, in_w, filter_w, *out_w,
                                     &p.width_offset);
  return p;
}

inline void FloatActivationRange(model::Activation activation, float* act_min, float* act_max) {
  switch (activation) {
    case model::Activation::kRelu:
      *act_min = 0.0f;
      *act_max = std::numeric_limits<float>::max();
      return;
    case model::Activation::kRelu6:
      *act_min = 0.0f;
      *act_max = 6.0f;
      return;
    case model::Activation::kReluN1To1:
      *act_min = -1.0f;
      *act_max = 1.0f;
      return;
    default:
      *act_min = std::numeric_limits<float>::lowest();
      *act_max = std::numeric_limits<float>::max();
      return;
  }
}

// zero_point + round_half_away(f / scale), in float as TFLM does.
inline int32_t QuantizeForActivation(float f, float scale, int32_t zero_point) {
  return zero_point + static_cast<int32_t>(std::round(f / scale));
}

// Clamp range for a quantized output of range [qmin, qmax].
inline void QuantizedActivationRange(model::Activation activation, float scale,
                                     int32_t zero_point, int32_t qmin, int32_t qmax,
                                     int32_t* act_min, int32_t* act_max) {
  auto at_least = [](int32_t a, int32_t b) { return a > b ? a : b; };
  auto at_most = [](int32_t a, int32_t b) { return a < b ? a : b; };
  switch (activation) {
    case model::Activation::kRelu:
      *act_min = at_least(qmin, QuantizeForActivation(0.0f, scale, zero_point));
      *act_max = qmax;
      return;
    case model::Activation::kRelu6:
      *act_min = at_least(qmin, QuantizeForActivation(0.0f, scale, zero_point));
      *act_max = at_most(qmax, QuantizeForActivation(6.0f, scale, zero_point));
      return;
    case model::Activation::kReluN1To1:
      *act_min = at_least(qmin, QuantizeForActivation(-1.0f, scale, zero_point));
      *act_max = at_most(qmax, QuantizeForActivation(1.0f, scale, zero_point));
      return;
    default:
      *act_min = qmin;
      *act_max = qmax;
      return;
  }
}

// Per-tensor quantization as TFLM's TfLiteTensor.params sees it: the first
// scale / zero point, or 0 / 0 when the tensor is not quantized.
struct TensorQuant {
  float scale = 0.0f;
  int32_t zero_point = 0;
  size_t num_scales = 0;
};

inline TensorQuant QuantOf(const model::TensorInfo& info) {
  TensorQuant q;
  q.num_scales = info.scale.size();
  if (!info.scale.empty()) q.scale = info.scale[0];
  if (!info.zero_point.empty()) q.zero_point = static_cast<int32_t>(info.zero_point[0]);
  return q;
}

inline const char* TypeName(model::TensorType t) { return model::TensorTypeName(t); }

}  // namespace kernels_b_util
}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_POOLING_UTIL_H_
