// SignalFilterBankLog (TFLM's signal/micro/kernels/filter_bank_log.cc,
// signal/src/filter_bank_log.cc, signal/src/log.cc): a fixed-point natural
// log of each channel, scaled, as int16.
//
// Facts reproduced: s = in[i] << input_correction_bits; out = 0 for s <= 1,
// else min(Log32(s, output_scale), 32767), where Log32 is TFLM's: the
// integer part msb(s) - 1, the fraction from a 128-segment table (kLogLut,
// 130 entries, in signal_filter_bank_log_math.cc) interpolated, then
// multiplied by 45426 / 2^16 (ln 2) and by output_scale / 2^16, each
// rounded by adding 2^15 before the shift.
// Options (sorted): input_correction_bits 0, output_scale 1. Tensors:
// uint32 rank 1 in, int16 rank 1 out.
//
// We also require the output to hold the input's element count and
// input_correction_bits in [0, 31].
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_LOG_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_LOG_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace runtime {

struct SignalFilterBankLogOpData {
  int32_t input_correction_bits = 0;
  int32_t output_scale = 0;
};

uint32_t SignalLog32(uint32_t x, uint32_t out_scale);
void SignalFilterBankLog(const uint32_t* input, size_t channels, int32_t output_scale,
                         uint32_t correction_bits, int16_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_LOG_H_
