// QUANTIZE: float32 -> int8 / int16 (affine quantization) and integer ->
// integer requantization, bit-exact with TFLM's reference kernel.
//
// Facts reproduced (TFLM quantize_common.cc, reference quantize.h and
// requantize.h):
//  * float -> q: q = clamp((int32) round_half_away(x / (float)scale) +
//    zero_point), where scale is the output scale (kept as a double in the
//    OpData and narrowed back to float for the division).
//  * q -> q': multiplier/shift = QuantizeMultiplier(in_scale / out_scale)
//    (doubles); q' = clamp(MultiplyByQuantizedMultiplier(q - in_zp, m, s) +
//    out_zp). (TFLM's int8<->uint8 "xor 0x80" fast path for equal scales is
//    the same numbers.)
//  * The output must be per-tensor quantized (exactly one scale).
//  * Pairs TFLM runs: float32 -> int8, int16; int8 -> int8, uint8, int16,
//    int32; int16 -> int8, int16, int32; int32 -> int8, int16; uint8 -> int8.
//    Everything else is kUnimplemented.
//
// Persistent memory per node: TFLM's OpDataQuantizeReference (32 bytes on
// 64-bit: {int32 zero point, double scale}, multiplier, shift, input zero
// point); no scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_QUANTIZE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_QUANTIZE_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace runtime {

// Affine quantization of `count` floats with the OUTPUT scale / zero point.
void AffineQuantize(const float* input, size_t count, double scale, int32_t zero_point,
                    int8_t* output);
void AffineQuantize(const float* input, size_t count, double scale, int32_t zero_point,
                    int16_t* output);

// Requantization parameters (multiplier/shift from QuantizeMultiplier of
// input_scale / output_scale).
struct RequantizeParams {
  int32_t multiplier = 0;
  int shift = 0;
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
};
RequantizeParams MakeRequantizeParams(double input_scale, int32_t input_zero_point,
                                      double output_scale, int32_t output_zero_point);

void Requantize(const int8_t* input, size_t count, const RequantizeParams& p, int8_t* output);
void Requantize(const int8_t* input, size_t count, const RequantizeParams& p, uint8_t* output);
void Requantize(const int8_t* input, size_t count, const RequantizeParams& p, int16_t* output);
void Requantize(const int8_t* input, size_t count, const RequantizeParams& p, int32_t* output);
void Requantize(const int16_t* input, size_t count, const RequantizeParams& p, int8_t* output);
void Requantize(const int16_t* input, size_t count, const RequantizeParams& p, int16_t* output);
void Requantize(const int16_t* input, size_t count, const RequantizeParams& p, int32_t* output);
void Requantize(const int32_t* input, size_t count, const RequantizeParams& p, int8_t* output);
void Requantize(const int32_t* input, size_t count, const RequantizeParams& p, int16_t* output);
void Requantize(const uint8_t* input, size_t count, const RequantizeParams& p, int8_t* output);

// Per-node persistent state, laid out like TFLM's OpDataQuantizeReference.
struct QuantizeOpData {
  struct {
    int32_t zero_point;
    double scale;
  } output_params;
  int32_t requantize_multiplier;
  int requantize_shift;
  int32_t input_zero_point;
};
constexpr size_t kQuantizePersistentBytes = sizeof(QuantizeOpData);  // 32 on LP64

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_QUANTIZE_H_
