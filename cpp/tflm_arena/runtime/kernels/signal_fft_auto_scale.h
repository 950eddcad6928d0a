// SignalFftAutoScale (TFLM's signal/micro/kernels/fft_auto_scale_kernel.cc,
// signal/src/fft_auto_scale.cc, max_abs.cc, msb_32.cc): shifts an int16
// frame left so its largest magnitude uses the whole int16 range, and
// outputs the shift.
//
// Facts reproduced, exactly as TFLM's generic C++ computes them:
//  - the maximum magnitude m starts at 0 and for each value v becomes v when
//    v > m, else -v when -v > m, stored as int16 (so -32768 stays -32768);
//  - msb(x) = 32 - clz(x) for x != 0, and 32 for x == 0 (TFLM's GCC path),
//    on m converted to uint32 (a negative m is 0xFFFF8000, msb 32);
//  - shift = max(0, 16 - msb(m) - 1); out = in * 2^shift, stored as int16;
//  - the element count is the output's dimension 0.
//
// Inputs: int16 rank 1; outputs: int16 rank 1 and an int32 scalar. We
// also require both frames to hold the same number of elements.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FFT_AUTO_SCALE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FFT_AUTO_SCALE_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace runtime {

// TFLM's MostSignificantBit32 (GCC path): 32 - clz(x), 32 for 0.
uint32_t SignalMostSignificantBit32(uint32_t x);
// TFLM's MostSignificantBit64 (GCC path): 64 - clzll(x), 64 for 0.
uint32_t SignalMostSignificantBit64(uint64_t x);

// Writes the scaled frame and returns the shift.
int32_t SignalFftAutoScale(const int16_t* input, size_t size, int16_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FFT_AUTO_SCALE_H_
