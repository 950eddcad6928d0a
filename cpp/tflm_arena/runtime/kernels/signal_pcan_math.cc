#include "tflm_arena/runtime/kernels/signal_fft_auto_scale.h"
#include "tflm_arena/runtime/kernels/signal_pcan.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr uint32_t kSnrBits = 12;
constexpr uint32_t kOutputBits = 6;

}  // namespace

int16_t SignalPcanGain(uint32_t x, const int16_t* lut) {
  if (x <= 2) return lut[x];
  const int32_t n = static_cast<int16_t>(SignalMostSignificantBit32(x));
  const int16_t* l = lut + (4 * n - 6);
  const uint32_t shifted = n < 11 ? x << (11 - n) : x >> (n - 11);
  const int32_t f = static_cast<int16_t>(shifted & 0x3FF);
  // int32 arithmetic as TFLM's, with the products wrapped as uint32 (the
  // same bits, without signed overflow).
  int32_t r =
      static_cast<int32_t>(static_cast<uint32_t>(int32_t{l[2]}) * static_cast<uint32_t>(f)) >> 5;
  r = static_cast<int32_t>(static_cast<uint32_t>(r) +
                           (static_cast<uint32_t>(static_cast<int32_t>(l[1])) << 5));
  r = static_cast<int32_t>(static_cast<uint32_t>(r) * static_cast<uint32_t>(f));
  r = static_cast<int32_t>(static_cast<uint32_t>(r) + (1u << 14)) >> 15;
  r = static_cast<int32_t>(static_cast<uint32_t>(r) + static_cast<uint32_t>(int32_t{l[0]}));
  return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint32_t>(r)));
}

uint32_t SignalPcanShrink(uint32_t x) {
  if (x < (2u << kSnrBits)) return (x * x) >> (2 + 2 * kSnrBits - kOutputBits);
  return (x >> (kSnrBits - kOutputBits)) - (1u << kOutputBits);
}

void SignalPcan(const int16_t* lut, int32_t snr_shift, const uint32_t* noise, size_t channels,
                uint32_t* output) {
  for (size_t i = 0; i < channels; ++i) {
    const uint32_t gain =
        static_cast<uint32_t>(static_cast<int32_t>(SignalPcanGain(noise[i], lut)));
    const uint32_t snr = static_cast<uint32_t>((uint64_t{output[i]} * gain) >> snr_shift);
    output[i] = SignalPcanShrink(snr);
  }
}

}  // namespace runtime
}  // namespace tflm_arena
