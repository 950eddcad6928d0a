// SignalRfft (TFLM's signal/micro/kernels/rfft.cc, signal/src/rfft_int16.cc,
// rfft_int32.cc, rfft_float.cc): the real FFT of each row, zero-padded to
// fft_length, as complex bins (fft_length / 2 + 1 of them, interleaved re, im).
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
// KISS FFT in 32-bit fixed point (FIXED_POINT 32) and in float is the same
// code with other scalars: int32 samples, products in int64, sround(x) =
// (x + 2^30) >> 31, divisions by sround(x * (2147483647 / k)), twiddles
// floor(0.5 + 2147483647 cos); float: no divisions, twiddles float(cos),
// HALF_OF(x) = x * 0.5f (TFLM's patch). Sums wrap as the C code's do: int16
// sums are formed in int (HALF_OF shifts the exact sum), int32 sums wrap in
// 32 bits.
//
// Options: 'T' (looked up by name; the type: 7 INT16, 2 INT32, 0 FLOAT32)
// and 'fft_length' element 1 of the sorted keys. Input and output of type
// T and of the same rank; the output's last dimension is fft_length + 2.
//
// Our runtime refuses what TFLM would crash on or silently mishandle:
// fft_length odd, below 4 or above 2^20, or a half length with a prime
// factor above 5 (kiss's generic butterfly needs a heap buffer, which
// TFLM's build makes null); a row longer than fft_length (TFLM copies it
// past its work area); an empty row; outputs that are not fft_length + 2
// per row; a T other than INT16, INT32 and FLOAT32 (TFLM's Init returns no
// OpData for it).
//
// Memory: the OpData, the twiddles (n), super twiddles (n / 2) and kiss's
// temporary spectrum (n), persistent; fft_length samples of scratch (TFLM's
// work area).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_RFFT_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_RFFT_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

template <typename T>
struct SignalComplex {
  T r = 0;
  T i = 0;
};
using SignalComplex16 = SignalComplex<int16_t>;

constexpr int32_t kSignalRfftMaxLength = int32_t{1} << 20;
// Stages of a length up to 2^19 (n): at most 19, two ints each.
constexpr size_t kSignalRfftMaxFactors = size_t{2} * 20;

// The FFT's sample type (T): INT16, INT32 or FLOAT32.
enum class SignalRfftType : uint8_t { kInt16, kInt32, kFloat32 };

struct SignalRfftPlan {
  int32_t fft_length = 0;
  int32_t n = 0;                                // fft_length / 2
  int32_t factors[kSignalRfftMaxFactors] = {};  // (radix, remaining) pairs
  SignalRfftType type = SignalRfftType::kInt16;
  // SignalComplex<T> arrays, persistent:
  void* twiddles = nullptr;        // n
  void* super_twiddles = nullptr;  // n / 2
  void* spectrum = nullptr;        // n (kiss's tmpbuf)
};

struct SignalRfftOpData {
  SignalRfftPlan plan;
  int32_t input_length = 0;  // samples per row
  int32_t rows = 0;
  int32_t output_length = 0;  // values per output row
  int scratch_index = -1;
};

// Bytes of one sample of `type`.
size_t SignalRfftSampleBytes(SignalRfftType type);

// kInvalidArgument unless fft_length is even, in [4, 2^20], and its half
// factors into 2, 3, 4 and 5 (then `factors` holds kiss's stages).
Status SignalRfftFactor(const char* op, int32_t fft_length, int32_t* factors);
// Fills the twiddles of a plan whose arrays are allocated.
void SignalRfftTwiddles(SignalRfftPlan* plan);
// One row: `time` holds fft_length samples of the plan's type (read as n
// complex pairs), `bins` receives n + 1 complex values.
void SignalRfftRow(const SignalRfftPlan& plan, const void* time, void* bins);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_RFFT_H_
