#include "tflm_arena/runtime/kernels/signal_filter_bank_spectral_subtraction.h"

namespace tflm_arena {
namespace runtime {

void SignalSpectralSubtraction(const SignalSpectralSubtractionConfig& config, const uint32_t* input,
                               uint32_t* output, uint32_t* noise) {
  const uint32_t bits = config.smoothing_bits;
  const uint32_t shift = config.spectral_subtraction_bits;
  for (int32_t i = 0; i < config.num_channels; ++i) {
    const bool odd = (i & 1) != 0;
    const uint32_t smoothing = odd ? config.alternate_smoothing : config.smoothing;
    const uint32_t one_minus =
        odd ? config.alternate_one_minus_smoothing : config.one_minus_smoothing;
    const uint32_t scaled = input[i] << bits;
    noise[i] = static_cast<uint32_t>(
        (uint64_t{scaled} * smoothing + uint64_t{noise[i]} * one_minus) >> shift);
    uint32_t estimate = noise[i];
    if (estimate > scaled) {
      estimate = scaled;
      if (config.clamping) noise[i] = estimate;
    }
    const uint32_t floor =
        static_cast<uint32_t>((uint64_t{input[i]} * config.min_signal_remaining) >> shift);
    const uint32_t subtracted = (scaled - estimate) >> bits;
    output[i] = subtracted > floor ? subtracted : floor;
  }
}

}  // namespace runtime
}  // namespace tflm_arena
