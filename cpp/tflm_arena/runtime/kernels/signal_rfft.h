// SignalRfft (TFLM's signal/micro/kernels/rfft.cc, signal/src/rfft_int16.cc):
// the real FFT of each int16 row, zero-padded to fft_length, as int16
// complex bins (fft_length / 2 + 1 of them, interleaved re, im).
//
// TFLM computes it with KISS FFT v130 in 16-bit fixed point (kiss_fft.c,
// tools/kiss_fftr.c with FIXED_POINT 16, TFLM's patch: no heap). We
// reproduce that arithmetic exactly (signal_rfft_math.cc):
//  - a complex FFT of n = fft_length / 2 points on the row read as n
//    (re, im) pairs, then the real-FFT split with "super twiddles";
//  - n factored as kiss does: 4s first, then 2s, then odd primes from 3;
//    each stage a radix-2, 3, 4 or 5 butterfly (decimation in time,
//    recursive, as kf_work), each input divided by the radix first;
//  - products rounded: sround(x) = (x + 2^14) >> 15; a division by k is
//    sround(x * (32767 / k)); sums stored back to int16 wrap;
//  - twiddles floor(0.5 + 32767 * cos(phase)), floor(0.5 + 32767 *
//    sin(phase)) with phase = -2 pi i / n; super twiddles with phase
//    -pi ((i + 1) / n + 0.5), i < n / 2 (computed in double, libm cos/sin).
//
// Options: 'T' (looked up by name; the type: 7 is INT16) and 'fft_length'
// element 1 of the sorted keys. Input and output int16 of the same rank;
// the output's last dimension is fft_length + 2.
//
// Our runtime refuses what TFLM would crash on or silently mishandle:
// fft_length odd, below 4 or above 2^20, or a half length with a prime
// factor above 5 (kiss's generic butterfly needs a heap buffer, which
// TFLM's build makes null); a row longer than fft_length (TFLM copies it
// past its work area); an empty row; outputs that are not fft_length + 2
// per row. T INT32 and FLOAT32 (which the wheel also runs) are not
// implemented here and are a named kUnimplemented error.
//
// Memory: the OpData, the twiddles (n), super twiddles (n / 2) and kiss's
// temporary spectrum (n), persistent; fft_length int16 of scratch (TFLM's
// work area).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_RFFT_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_RFFT_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

struct SignalComplex16 {
  int16_t r = 0;
  int16_t i = 0;
};

constexpr int32_t kSignalRfftMaxLength = int32_t{1} << 20;
// Stages of a length up to 2^19 (n): at most 19, two ints each.
constexpr size_t kSignalRfftMaxFactors = 2 * 20;

struct SignalRfftInt16Plan {
  int32_t fft_length = 0;
  int32_t n = 0;                                // fft_length / 2
  int32_t factors[kSignalRfftMaxFactors] = {};  // (radix, remaining) pairs
  SignalComplex16* twiddles = nullptr;          // n
  SignalComplex16* super_twiddles = nullptr;    // n / 2
  SignalComplex16* spectrum = nullptr;          // n (kiss's tmpbuf)
};

struct SignalRfftOpData {
  SignalRfftInt16Plan plan;
  int32_t input_length = 0;  // samples per row
  int32_t rows = 0;
  int32_t output_length = 0;  // int16 values per output row
  int scratch_index = -1;
};

// kInvalidArgument unless fft_length is even, in [4, 2^20], and its half
// factors into 2, 3, 4 and 5 (then `factors` holds kiss's stages).
Status SignalRfftFactor(const char* op, int32_t fft_length, int32_t* factors);
// Fills the twiddles of a plan whose arrays are allocated.
void SignalRfftTwiddles(SignalRfftInt16Plan* plan);
// One row: `time` holds fft_length samples (read as n complex pairs),
// `bins` receives n + 1 complex values.
void SignalRfftInt16(const SignalRfftInt16Plan& plan, const int16_t* time, SignalComplex16* bins);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_RFFT_H_
