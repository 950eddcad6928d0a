// DEQUANTIZE: int8 / int16 / uint8 -> float32, bit-exact with TFLM's
// reference kernel.
//
// Fact reproduced (TFLM dequantize_common.cc, reference dequantize.h): the
// input scale is held as a double, and y = (float)(scale * (q - zero_point))
// with the product formed in double and rounded once to float.
//
// Persistent memory per node: TFLM's DequantizeOpData (32 bytes on 64-bit:
// {double scale, int32 zero point}, output multiplier, shift, output zero
// point); no scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_DEQUANTIZE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_DEQUANTIZE_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace runtime {

void Dequantize(const int8_t* input, size_t count, double scale, int32_t zero_point, float* output);
void Dequantize(const int16_t* input, size_t count, double scale, int32_t zero_point,
                float* output);
void Dequantize(const uint8_t* input, size_t count, double scale, int32_t zero_point,
                float* output);

// Per-node persistent state, laid out like TFLM's DequantizeOpData.
struct DequantizeOpData {
  struct {
    double scale;
    int32_t zero_point;
  } input_params;
  int32_t unused_output_multiplier;
  int unused_output_shift;
  int32_t output_zero_point;
};
constexpr size_t kDequantizePersistentBytes = sizeof(DequantizeOpData);  // 32 on LP64

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_DEQUANTIZE_H_
