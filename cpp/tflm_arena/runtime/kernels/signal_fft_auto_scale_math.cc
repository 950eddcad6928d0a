#include "tflm_arena/runtime/kernels/signal_fft_auto_scale.h"

namespace tflm_arena {
namespace runtime {

uint32_t SignalMostSignificantBit32(uint32_t x) {
  return x != 0 ? 32u - static_cast<uint32_t>(__builtin_clz(x)) : 32u;
}

uint32_t SignalMostSignificantBit64(uint64_t x) {
  return x != 0 ? 64u - static_cast<uint32_t>(__builtin_clzll(x)) : 64u;
}

int32_t SignalFftAutoScale(const int16_t* input, size_t size, int16_t* output) {
  int16_t max = 0;
  for (size_t i = 0; i < size; ++i) {
    const int32_t v = input[i];
    if (v > max) {
      max = static_cast<int16_t>(v);
    } else if (-v > max) {
      max = static_cast<int16_t>(static_cast<uint16_t>(-v));  // -(-32768) wraps, as in TFLM
    }
  }
  const uint32_t msb = SignalMostSignificantBit32(static_cast<uint32_t>(static_cast<int32_t>(max)));
  int32_t shift = 16 - static_cast<int32_t>(msb) - 1;
  if (shift <= 0) shift = 0;
  for (size_t i = 0; i < size; ++i) {
    output[i] = static_cast<int16_t>(static_cast<uint16_t>(input[i] * (1 << shift)));
  }
  return shift;
}

}  // namespace runtime
}  // namespace tflm_arena
