// LOGISTIC and TANH: float32, int8 and int16, bit-exact with TFLM's
// reference kernels (logistic.cc / logistic_common.cc, tanh.cc,
// reference_ops::Logistic / Tanh, reference_integer_ops::Logistic / Tanh).
//
// Facts reproduced:
//  - float LOGISTIC: 1 for x > 16.619047164916992188, exp(x) for x < -9,
//    else 1 / (1 + exp(-x)), in float; float TANH: std::tanh;
//  - int8: the input is rescaled to Q4.27 by M = in_scale * 2^27 (frexp:
//    mantissa rounded to Q31, exponent = left shift); inputs at or beyond
//    +-radius = floor(15 * 2^27 / 2^shift) saturate; otherwise gemmlowp's
//    fixed-point logistic / tanh of the Q4.27 value (Q0.31 result), then
//    LOGISTIC: RoundingDivideByPOT(r, 23) - 128, TANH:
//    RoundingDivideByPOT(r, 24), clamped. LOGISTIC requires the output zero
//    point -128 (TFLM's check); the output scale is assumed 1/256 (TANH:
//    1/128, zero point 0) and not checked, as in TFLM;
//  - int16: zero points 0, output scale 2^-15 (log2 within 1e-3, TFLM's
//    CheckedLog2); a power-of-two input scale 2^-12 (TANH also 2^-11) uses
//    multiplier 3 << shift, others multiplier = int(in_scale * 12288 *
//    2^k) with the smallest k making it > 16383.5; then linear
//    interpolation in TFLM's 256-entry sigmoid table (tanh(x) =
//    2 sigmoid(2x) - 1).
//
// Memory per node, as TFLM: the 16-byte OpData (persistent, in init); no
// scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGMOID_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGMOID_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace runtime {

// TFLM's OpDataLogistic / tanh OpData (same layout), 16 bytes.
struct SigmoidOpData {
  int32_t input_zero_point = 0;
  int32_t input_range_radius = 0;
  int32_t input_multiplier = 0;
  int32_t input_left_shift = 0;
};
constexpr size_t kSigmoidPersistentBytes = sizeof(SigmoidOpData);  // 16

enum class SigmoidKind { kLogistic, kTanh };

// Checks input / output (types equal and FLOAT32, INT8 or INT16, the
// quantization rules above) and fills `data`. `op` names the operator.
Status PrepareSigmoid(const char* op, SigmoidKind kind, const model::TensorInfo& input,
                      const model::TensorInfo& output, SigmoidOpData* data);

void LogisticFloat(size_t n, const float* in, float* out);
void LogisticInt8(const SigmoidOpData& data, size_t n, const int8_t* in, int8_t* out);
void LogisticInt16(const SigmoidOpData& data, size_t n, const int16_t* in, int16_t* out);
void TanhFloat(size_t n, const float* in, float* out);
void TanhInt8(const SigmoidOpData& data, size_t n, const int8_t* in, int8_t* out);
void TanhInt16(const SigmoidOpData& data, size_t n, const int16_t* in, int16_t* out);

// gemmlowp's fixed-point functions on raw int32 values (exposed for tests):
// `a` is Q(integer_bits).(31 - integer_bits), results Q0.31.
int32_t FixedPointExpOnNegativeValues(int32_t a, int integer_bits);
int32_t FixedPointLogistic(int32_t a, int integer_bits);
int32_t FixedPointTanh(int32_t a, int integer_bits);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGMOID_H_
