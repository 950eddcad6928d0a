// SignalFilterBankSpectralSubtraction (TFLM's
// signal/micro/kernels/filter_bank_spectral_subtraction.cc,
// signal/src/filter_bank_spectral_subtraction.cc): per channel, a running
// noise estimate (state kept between invocations, zeroed by Prepare and by
// Reset) subtracted from the signal, never below a floor.
//
// Facts reproduced, per channel i (smoothing and one_minus_smoothing, or
// the alternate pair on odd channels; all uint32, the options' int32
// values converted):
//   s = in[i] << smoothing_bits
//   noise[i] = uint32((uint64(s) * smoothing + uint64(noise[i]) *
//              one_minus_smoothing) >> spectral_subtraction_bits)
//   e = min(noise[i], s); with clamping, noise[i] = e
//   floor = uint32((uint64(in[i]) * min_signal_remaining) >>
//           spectral_subtraction_bits)
//   out[i] = max((s - e) >> smoothing_bits, floor)
// The second output receives a copy of the noise estimate.
// Options (sorted): alternate_one_minus_smoothing 0, alternate_smoothing 1,
// clamping 2 (bool), min_signal_remaining 3, num_channels 4,
// one_minus_smoothing 5, smoothing 6, smoothing_bits 7,
// spectral_subtraction_bits 8. Tensors: uint32 rank 1 in, two uint32 rank 1
// out.
//
// We also require num_channels in [0, 2^24] and at most the input's and
// the output's element counts, the noise output no larger than
// num_channels, smoothing_bits in [0, 31] and spectral_subtraction_bits in
// [0, 63].
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace runtime {

struct SignalSpectralSubtractionConfig {
  int32_t num_channels = 0;
  uint32_t smoothing = 0;
  uint32_t one_minus_smoothing = 0;
  uint32_t min_signal_remaining = 0;
  uint32_t alternate_smoothing = 0;
  uint32_t alternate_one_minus_smoothing = 0;
  uint32_t smoothing_bits = 0;
  uint32_t spectral_subtraction_bits = 0;
  bool clamping = false;
};

struct SignalSpectralSubtractionOpData {
  SignalSpectralSubtractionConfig config;
  uint32_t* noise = nullptr;  // num_channels (persistent state)
};

void SignalSpectralSubtraction(const SignalSpectralSubtractionConfig& config, const uint32_t* input,
                               uint32_t* output, uint32_t* noise);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION_H_
