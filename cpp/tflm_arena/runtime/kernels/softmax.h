// SOFTMAX over the last dimension: float32, int8 -> int8, int8 -> int16 and
// int16 -> int16, bit-exact with TFLM's reference kernels.
//
// Facts reproduced (TFLM softmax_common.cc, reference softmax, gemmlowp
// fixed-point arithmetic):
//  * float: per row, m = max; e_c = exp((x_c - m) * beta) in float; the
//    row sum is accumulated in float in order; y_c = e_c / sum.
//  * int8 input (int8 or int16 output): prepare turns beta * input_scale
//    into a Q31 multiplier and left shift for a Q5.26 "scaled difference":
//    real = min(beta * scale * 2^26, 2^31 - 1) (double), split by
//    QuantizeMultiplier (must be > 1, i.e. shift >= 0). diff_min =
//    -floor(31 * 2^26 / 2^shift): smaller differences contribute nothing.
//    Per row: d = x - max (int32); for d >= diff_min, the scaled difference
//    is SRDHM(d * 2^shift, multiplier) (Q5.26), exp of it is gemmlowp's
//    exp_on_negative_values (Q0.31), accumulated as Q12.19 after a rounding
//    shift right by 12. The reciprocal of the sum comes from gemmlowp's
//    one_over_one_plus_x_for_x_in_0_1 on the sum normalised to [1, 2)
//    (count-leading-zeros headroom); each output is
//    RoundingDivideByPOT(SRDHM(reciprocal, exp), bits_over_unit + 31 -
//    output_bits) + output_min, clamped; skipped entries give output_min.
//    Output quantization is fixed: int8 scale exactly 1/256, zero point
//    -128; int16 (from int8) scale ~1/65536, zero point -32768.
//  * int16 input: two 513-entry int16 LUTs (exp on [-10, 0] and 1/(1+x) on
//    [0, 1], generated in float by TFLM's gen_lut with midpoint bias
//    correction) in persistent memory; the input difference is scaled by
//    QuantizeMultiplier(input_scale * beta / (10 / 65535)) so [-65535, 0]
//    maps to [-10, 0]; output scale ~1/32768, zero points 0.
//
// Persistent memory per node: TFLM's SoftmaxParams (80 bytes on 64-bit
// hosts; laid out the same way here so 32-bit sizes also match), plus for
// int16 input two LUTs of 513 int16 (1026 bytes each). No scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SOFTMAX_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SOFTMAX_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/model/builtin_options.h"

namespace tflm_arena {
namespace runtime {

// SOFTMAX's builtin options (SoftmaxOptions).
struct SoftmaxOptions {
  float beta = 0.0f;
};

// Parameters of the int8-input fixed-point path.
struct SoftmaxInt8Params {
  int32_t input_multiplier = 0;
  int32_t input_left_shift = 0;
  int32_t diff_min = 0;
};

// Computes the int8-input parameters from beta and the input scale. Returns
// false when beta * input_scale * 2^26 <= 1 (TFLM aborts on a CHECK there).
bool PrepareSoftmaxInt8Params(double beta, double input_scale, SoftmaxInt8Params* params);

// Parameters of the int16-input LUT path.
struct SoftmaxInt16Params {
  int32_t input_multiplier = 0;
  int32_t input_left_shift = 0;                      // signed shift as from QuantizeMultiplier
  const int16_t* exp_lut = nullptr;                  // 513 entries
  const int16_t* one_over_one_plus_x_lut = nullptr;  // 513 entries
};
constexpr int kSoftmaxInt16LutSize = 513;
// Longest int16 row: its int32 sum of exps (each <= 32767) cannot overflow.
constexpr int32_t kSoftmaxInt16MaxDepth = 65536;

void PrepareSoftmaxInt16Multiplier(double beta, double input_scale, SoftmaxInt16Params* params);
// Fills the two 513-entry LUTs exactly as TFLM's prepare does.
void GenerateSoftmaxInt16Luts(int16_t* exp_lut, int16_t* one_over_one_plus_x_lut);

// `outer` rows of `depth` contiguous values each (the last dimension).
void SoftmaxFloat(float beta, int32_t outer, int32_t depth, const float* input, float* output);
void SoftmaxInt8(const SoftmaxInt8Params& params, int32_t outer, int32_t depth, const int8_t* input,
                 int8_t* output);
void SoftmaxInt8ToInt16(const SoftmaxInt8Params& params, int32_t outer, int32_t depth,
                        const int8_t* input, int16_t* output);
void SoftmaxInt16(const SoftmaxInt16Params& params, int32_t outer, int32_t depth,
                  const int16_t* input, int16_t* output);

// Building blocks (exposed for tests): gemmlowp fixed-point functions on raw
// int32 values.
int32_t SoftmaxExpOnNegativeValuesQ5(int32_t a_q5_26);  // -> Q0.31
int32_t SoftmaxExpOnQuarterInterval(int32_t a_q0_31);   // a in [-1/4, 0)
int32_t SoftmaxOneOverOnePlusX(int32_t a_q0_31);        // a in [0, 1) -> Q0.31
// 1 / x for x = raw of a Q(x_integer_bits) value >= 1; returns Q0.31 of
// 1 / (x / 2^bits_over_unit) and the bits over unit.
int32_t SoftmaxReciprocal(int32_t x, int x_integer_bits, int* num_bits_over_unit);
// int16 LUT lookup with linear interpolation (513-entry table).
int16_t SoftmaxLutLookup(int16_t value, const int16_t* lut);

// Per-node persistent state: laid out like TFLM's SoftmaxParams so the
// persistent request has the same size on every platform.
struct SoftmaxOpData {
  double beta;
  int32_t input_multiplier;
  int32_t input_left_shift;
  int32_t unused_reverse_scaling_divisor;
  int32_t unused_reverse_scaling_right_shift;
  int32_t diff_min;
  int32_t zero_point;
  float scale;
  float* unused_table;
  int16_t* exp_lut;
  int16_t* one_over_one_plus_x_lut;
  uint8_t* unused_uint8_table1;
  uint8_t* unused_uint8_table2;
};
constexpr size_t kSoftmaxPersistentBytes = sizeof(SoftmaxOpData);                 // 80 on LP64
constexpr size_t kSoftmaxInt16LutBytes = sizeof(int16_t) * kSoftmaxInt16LutSize;  // each

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SOFTMAX_H_
