// DEQUANTIZE math (see dequantize.h).
#include "tflm_arena/runtime/kernels/dequantize.h"

namespace tflm_arena {
namespace runtime {
namespace {

template <typename InT>
void DequantizeTyped(const InT* input, size_t count, double scale, int32_t zero_point,
                     float* output) {
  for (size_t i = 0; i < count; ++i) {
    const int32_t q = static_cast<int32_t>(input[i]);
    output[i] = static_cast<float>(scale * (q - zero_point));
  }
}

}  // namespace

void Dequantize(const int8_t* input, size_t count, double scale, int32_t zero_point,
                float* output) {
  DequantizeTyped(input, count, scale, zero_point, output);
}
void Dequantize(const int16_t* input, size_t count, double scale, int32_t zero_point,
                float* output) {
  DequantizeTyped(input, count, scale, zero_point, output);
}
void Dequantize(const uint8_t* input, size_t count, double scale, int32_t zero_point,
                float* output) {
  DequantizeTyped(input, count, scale, zero_point, output);
}

}  // namespace runtime
}  // namespace tflm_arena
