// Small helpers shared by the kernels_b set (pooling, softmax, quantize,
// dequantize, reshape): per-tensor quantization as TFLM's TfLiteTensor.params
// sees it. Padding and activation ranges come from padding.h / activation.h,
// shared with the convolution kernels.
//
// Everything is inline and lives in namespace kernels_b_util so it cannot
// clash with helpers other kernel files define.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_POOLING_UTIL_H_
#define TFLM_ARENA_RUNTIME_KERNELS_POOLING_UTIL_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/model/model.h"
#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace runtime {
namespace kernels_b_util {

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
