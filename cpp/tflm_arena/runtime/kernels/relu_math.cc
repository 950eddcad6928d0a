// RELU / RELU6: prepare logic and math (glue in relu.cc and relu6.cc).
#include <cmath>

#include "tflm_arena/runtime/kernels/elementwise_util.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/relu.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

void TypeRange(model::TensorType type, int32_t* lo, int32_t* hi) {
  const bool is16 = type == model::TensorType::kInt16;
  *lo = is16 ? -32768 : -128;
  *hi = is16 ? 32767 : 127;
}

template <typename T>
void ReluQuantized(const ReluOpData& d, size_t n, const T* in, T* out) {
  for (size_t i = 0; i < n; ++i) {
    const int32_t v = WrapAdd(
        d.output_offset,
        MultiplyByQuantizedMultiplier(in[i] - d.input_offset, d.output_multiplier, d.output_shift));
    out[i] = static_cast<T>(Clamp32(v, d.quantized_activation_min, d.quantized_activation_max));
  }
}

template <typename T>
void Relu6Quantized(const Relu6OpData& d, size_t n, const T* in, T* out) {
  const T lower = static_cast<T>(d.zero), upper = static_cast<T>(d.six);
  for (size_t i = 0; i < n; ++i) {
    const T v = in[i];
    out[i] = v > upper ? upper : v < lower ? lower : v;
  }
}

}  // namespace

Status PrepareReluQuantized(model::TensorType type, float input_scale, int32_t input_zero_point,
                            float output_scale, int32_t output_zero_point, ReluOpData* data) {
  ReluOpData d;
  int32_t lo = 0, hi = 0;
  TypeRange(type, &lo, &hi);
  // The ratio is taken in float, then widened (as TFLM).
  const double real = static_cast<double>(input_scale / output_scale);
  int shift = 0;
  TFLM_ARENA_RETURN_IF_ERROR(
      CheckedQuantizeMultiplier("RELU", "output multiplier", real, &d.output_multiplier, &shift));
  d.output_shift = shift;
  // act_min 0 quantizes to the output zero point; act_max is infinite.
  d.quantized_activation_min = output_zero_point > lo ? output_zero_point : lo;
  d.quantized_activation_max = hi;
  d.input_offset = input_zero_point;
  d.output_offset = output_zero_point;
  *data = d;
  return Status::Ok();
}

void PrepareRelu6Quantized(model::TensorType type, float input_scale, int32_t input_zero_point,
                           Relu6OpData* data) {
  int32_t lo = 0, hi = 0;
  TypeRange(type, &lo, &hi);
  // TFLM's FloatToQuantizedType: round(6 / scale) + zero point, clamped to
  // the type (a quotient beyond int32 saturates here; TFLM's cast is
  // undefined there).
  const float q = std::round(6.0f / input_scale);
  int64_t six =
      q >= 4294967296.0f ? (int64_t{1} << 32) : static_cast<int64_t>(q) + input_zero_point;
  six = six < lo ? lo : six > hi ? hi : six;
  data->six = static_cast<int32_t>(six);
  data->zero = input_zero_point;
}

void ReluFloat(size_t n, const float* in, float* out) {
  for (size_t i = 0; i < n; ++i) {
    const float v = in[i];
    out[i] = v < 0.0f ? 0.0f : v;
  }
}

void ReluInt8(const ReluOpData& data, size_t n, const int8_t* in, int8_t* out) {
  ReluQuantized(data, n, in, out);
}

void ReluInt16(const ReluOpData& data, size_t n, const int16_t* in, int16_t* out) {
  ReluQuantized(data, n, in, out);
}

void Relu6Float(size_t n, const float* in, float* out) {
  for (size_t i = 0; i < n; ++i) {
    const float v = in[i];
    out[i] = v > 6.0f ? 6.0f : v < 0.0f ? 0.0f : v;
  }
}

void Relu6Int8(const Relu6OpData& data, size_t n, const int8_t* in, int8_t* out) {
  Relu6Quantized(data, n, in, out);
}

void Relu6Int16(const Relu6OpData& data, size_t n, const int16_t* in, int16_t* out) {
  Relu6Quantized(data, n, in, out);
}

}  // namespace runtime
}  // namespace tflm_arena
