// SignalFilterBankSquareRoot (TFLM's
// signal/micro/kernels/filter_bank_square_root.cc,
// signal/src/filter_bank_square_root.cc, square_root_32.cc,
// square_root_64.cc): the integer square root of each uint64 channel
// energy, shifted right by a runtime scale (FftAutoScale's shift).
//
// Facts reproduced: Sqrt64 / Sqrt32 are TFLM's bit-by-bit integer square
// roots, rounded up when the remainder exceeds the root (and the root is
// below 0xFFFF / 0xFFFFFFFF); a value below 2^32 takes Sqrt32.
// out = uint32(Sqrt64(in)) >> scale_bits.
// Inputs: uint64 rank 1, int32 scalar; output uint32 rank 1. We also
// require as many outputs as inputs and, in Invoke, scale_bits in [0, 31].
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_SQUARE_ROOT_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_SQUARE_ROOT_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace runtime {

uint16_t SignalSqrt32(uint32_t num);
uint32_t SignalSqrt64(uint64_t num);

void SignalFilterBankSqrt(const uint64_t* input, size_t channels, int scale_bits, uint32_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_SQUARE_ROOT_H_
