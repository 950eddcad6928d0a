#include "tflm_arena/runtime/kernels/signal_fft_auto_scale.h"
#include "tflm_arena/runtime/kernels/signal_filter_bank_square_root.h"

namespace tflm_arena {
namespace runtime {

namespace {

// TFLM's bit-by-bit root of a nonzero `num` whose top set bit is bit
// msb - 1 (U: uint32_t or uint64_t; `max` the largest root, 0xFFFF or
// 0xFFFFFFFF, past which it is not rounded up).
template <typename U>
U BitwiseRoot(U num, int msb, U max) {
  constexpr int kBits = static_cast<int>(sizeof(U) * 8);
  U res = 0;
  const int top = (kBits - msb) | 1;
  U bit = U{1} << (kBits - 1 - top);
  for (int iterations = (kBits - 1 - top) / 2 + 1; iterations > 0; --iterations) {
    if (num >= res + bit) {
      num -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  if (num > res && res != max) ++res;
  return res;
}

}  // namespace

uint16_t SignalSqrt32(uint32_t num) {
  if (num == 0) return 0;
  return static_cast<uint16_t>(
      BitwiseRoot<uint32_t>(num, static_cast<int>(SignalMostSignificantBit32(num)), 0xFFFFu));
}

uint32_t SignalSqrt64(uint64_t num) {
  if ((num >> 32) == 0) return SignalSqrt32(static_cast<uint32_t>(num));
  return static_cast<uint32_t>(
      BitwiseRoot<uint64_t>(num, static_cast<int>(SignalMostSignificantBit64(num)), 0xFFFFFFFFu));
}

void SignalFilterBankSqrt(const uint64_t* input, size_t channels, int scale_bits,
                          uint32_t* output) {
  for (size_t i = 0; i < channels; ++i) output[i] = SignalSqrt64(input[i]) >> scale_bits;
}

}  // namespace runtime
}  // namespace tflm_arena
