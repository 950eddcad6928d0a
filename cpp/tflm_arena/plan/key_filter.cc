// KeepLive and KeepPlaced (key_filter.h): a scalar form, and an AVX-512
// form chosen at run time on x86-64 with GCC or Clang.
#include "tflm_arena/plan/key_filter.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TFLM_ARENA_KEY_FILTER_AVX512 1
#include <immintrin.h>
#endif

namespace tflm_arena {
namespace plan_internal {

size_t KeepLiveScalar(const uint64_t* keys, const int32_t* last, size_t n, int32_t live_at,
                      uint64_t* out, size_t at) {
  for (size_t i = 0; i < n; ++i) {
    out[at] = keys[i];
    at += last[i] >= live_at;
  }
  return at;
}

size_t KeepPlacedScalar(const uint64_t* keys, size_t n, uint64_t* out, size_t at) {
  for (size_t i = 0; i < n; ++i) {
    out[at] = keys[i];
    at += keys[i] != kEmptyKey;
  }
  return at;
}

#if defined(TFLM_ARENA_KEY_FILTER_AVX512)

namespace {

// Eight keys at a time: the lanes of `keep` packed to the front of one
// vector, stored whole at out + at (the slack takes the rest).
__attribute__((target("avx512f"))) inline size_t Put(__mmask8 keep, __m512i keys, uint64_t* out,
                                                     size_t at) {
  _mm512_storeu_si512(out + at, _mm512_maskz_compress_epi64(keep, keys));
  return at + static_cast<size_t>(__builtin_popcount(keep));
}

// The first `count` (< 8) lanes.
inline __mmask8 Lanes(size_t count) { return static_cast<__mmask8>((1u << count) - 1); }

}  // namespace

bool Avx512() {
  static const bool has = [] {
    __builtin_cpu_init();  // may run before libgcc's own initializer
    return __builtin_cpu_supports("avx512f") != 0;
  }();
  return has;
}

__attribute__((target("avx512f"))) size_t KeepLiveVector(const uint64_t* keys, const int32_t* last,
                                                         size_t n, int32_t live_at, uint64_t* out,
                                                         size_t at) {
  // last >= live_at as last > live_at - 1: live_at is a rank, >= 0.
  const __m512i below = _mm512_set1_epi32(live_at - 1);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512i l =
        _mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(last + i)));
    const auto keep = static_cast<__mmask8>(_mm512_cmpgt_epi32_mask(l, below));
    at = Put(keep, _mm512_loadu_si512(keys + i), out, at);
  }
  if (i < n) {  // masked loads read only the lanes that exist
    const __mmask8 lanes = Lanes(n - i);
    const __m512i l = _mm512_maskz_loadu_epi32(lanes, last + i);
    const auto keep = static_cast<__mmask8>(_mm512_cmpgt_epi32_mask(l, below) & lanes);
    at = Put(keep, _mm512_maskz_loadu_epi64(lanes, keys + i), out, at);
  }
  return at;
}

__attribute__((target("avx512f"))) size_t KeepPlacedVector(const uint64_t* keys, size_t n,
                                                           uint64_t* out, size_t at) {
  const __m512i empty = _mm512_set1_epi64(static_cast<int64_t>(kEmptyKey));
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512i k = _mm512_loadu_si512(keys + i);
    at = Put(_mm512_cmpneq_epi64_mask(k, empty), k, out, at);
  }
  if (i < n) {  // lanes past n read as empty
    const __m512i k = _mm512_mask_loadu_epi64(empty, Lanes(n - i), keys + i);
    at = Put(_mm512_cmpneq_epi64_mask(k, empty), k, out, at);
  }
  return at;
}

#else

bool Avx512() { return false; }

size_t KeepLiveVector(const uint64_t* keys, const int32_t* last, size_t n, int32_t live_at,
                      uint64_t* out, size_t at) {
  return KeepLiveScalar(keys, last, n, live_at, out, at);
}

size_t KeepPlacedVector(const uint64_t* keys, size_t n, uint64_t* out, size_t at) {
  return KeepPlacedScalar(keys, n, out, at);
}

#endif

size_t KeepLive(const uint64_t* keys, const int32_t* last, size_t n, int32_t live_at, uint64_t* out,
                size_t at) {
  return Avx512() ? KeepLiveVector(keys, last, n, live_at, out, at)
                  : KeepLiveScalar(keys, last, n, live_at, out, at);
}

size_t KeepPlaced(const uint64_t* keys, size_t n, uint64_t* out, size_t at) {
  return Avx512() ? KeepPlacedVector(keys, n, out, at) : KeepPlacedScalar(keys, n, out, at);
}

}  // namespace plan_internal
}  // namespace tflm_arena
