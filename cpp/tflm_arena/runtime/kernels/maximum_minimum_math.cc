// MAXIMUM / MINIMUM math (glue in maximum.cc, minimum.cc and
// maximum_minimum_glue.h).
#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/maximum_minimum.h"

namespace tflm_arena {
namespace runtime {
namespace {

template <typename T>
void Run(bool maximum, bool broadcast, const BroadcastDims& dims, size_t n, const void* in1,
         const void* in2, void* out) {
  const T* a = static_cast<const T*>(in1);
  const T* b = static_cast<const T*>(in2);
  T* y = static_cast<T*>(out);
  if (maximum) {
    RunBinary(broadcast, dims, n, a, b, y, [](T u, T v) { return u > v ? u : v; });
  } else {
    RunBinary(broadcast, dims, n, a, b, y, [](T u, T v) { return u < v ? u : v; });
  }
}

}  // namespace

bool MaximumMinimumSupports(model::TensorType type) {
  using model::TensorType;
  return type == TensorType::kFloat32 || type == TensorType::kInt8 || type == TensorType::kInt16 ||
         type == TensorType::kInt32 || type == TensorType::kInt64;
}

void MaximumMinimum(bool maximum, model::TensorType type, bool broadcast, const BroadcastDims& dims,
                    size_t n, const void* in1, const void* in2, void* out) {
  using model::TensorType;
  switch (type) {
    case TensorType::kFloat32:
      return Run<float>(maximum, broadcast, dims, n, in1, in2, out);
    case TensorType::kInt8:
      return Run<int8_t>(maximum, broadcast, dims, n, in1, in2, out);
    case TensorType::kInt16:
      return Run<int16_t>(maximum, broadcast, dims, n, in1, in2, out);
    case TensorType::kInt32:
      return Run<int32_t>(maximum, broadcast, dims, n, in1, in2, out);
    case TensorType::kInt64:
      return Run<int64_t>(maximum, broadcast, dims, n, in1, in2, out);
    default:
      return;
  }
}

}  // namespace runtime
}  // namespace tflm_arena
