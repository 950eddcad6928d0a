// SignalPCAN (TFLM's signal/micro/kernels/pcan.cc,
// signal/src/pcan_argc_fixed.cc): per-channel energy normalisation, a gain
// looked up from the noise estimate, then a compressive "shrink".
//
// Facts reproduced (kPcanSnrBits 12, kPcanOutputBits 6, as TFLM):
//  - gain(x) = lut[x] for x <= 2; else with n = msb(x) (TFLM's
//    MostSignificantBit32), l = lut + 4n - 6 and
//    f = (n < 11 ? x << (11 - n) : x >> (n - 11)) & 0x3FF:
//    r = (l[2] * f) >> 5; r += int32(uint32(l[1]) << 5); r *= f;
//    r = (r + 2^14) >> 15; r += l[0]; gain = int16(r);
//  - snr = uint32((uint64(in[i]) * uint32(gain)) >> snr_shift);
//  - out = snr < 2^13 ? (snr * snr) >> 20 : (snr >> 6) - 64.
// Option: 'snr_shift' element 0. Inputs: signal (uint32), noise estimate
// (uint32), gain table (int16), all rank 1; output uint32 rank 1.
//
// We also require the output to hold the input's element count, the noise
// estimate at least that many, the gain table at least 125 entries (the
// largest index the lookup reaches, 4 * 32 - 6 + 2, plus one) and
// snr_shift in [0, 63].
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_PCAN_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_PCAN_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace runtime {

constexpr size_t kSignalPcanLutEntries = 125;

struct SignalPcanOpData {
  int32_t snr_shift = 0;
};

int16_t SignalPcanGain(uint32_t x, const int16_t* lut);
uint32_t SignalPcanShrink(uint32_t x);
// `output` starts as a copy of the input (as in TFLM) and is transformed in
// place.
void SignalPcan(const int16_t* lut, int32_t snr_shift, const uint32_t* noise, size_t channels,
                uint32_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_PCAN_H_
