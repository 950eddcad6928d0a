// Internal (host): the filters IntervalIndex::Gather runs over its runs of
// (offset << 32 | end) keys, copying the ones it keeps to `out` from `at`
// on, in order, and returning the new end:
//  - KeepLive: keys[i] whose last[i] >= live_at (a placed buffer still live
//    at a query's first step; unplaced slots hold last -1);
//  - KeepPlaced: keys[i] that are not kEmptyKey (a placed buffer).
// Gather reads ~440 keys per query at 1M buffers with ~250 live, so these
// loops are most of its time once the keys are in the caches. On x86-64
// with AVX-512 (checked at run time) they keep 8 keys per instruction, a
// masked compress; elsewhere, one key per step without a branch. Both write
// whole vectors: `out` must have room for kFilterSlack keys past the last
// one kept.
#ifndef TFLM_ARENA_PLAN_KEY_FILTER_H_
#define TFLM_ARENA_PLAN_KEY_FILTER_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace plan_internal {

constexpr uint64_t kEmptyKey = ~uint64_t{0};
constexpr size_t kFilterSlack = 8;

size_t KeepLive(const uint64_t* keys, const int32_t* last, size_t n, int32_t live_at, uint64_t* out,
                size_t at);
size_t KeepPlaced(const uint64_t* keys, size_t n, uint64_t* out, size_t at);

// The two forms, for tests: scalar always; vector only where Avx512() is
// true (else they are the scalar ones).
bool Avx512();
size_t KeepLiveScalar(const uint64_t* keys, const int32_t* last, size_t n, int32_t live_at,
                      uint64_t* out, size_t at);
size_t KeepPlacedScalar(const uint64_t* keys, size_t n, uint64_t* out, size_t at);
size_t KeepLiveVector(const uint64_t* keys, const int32_t* last, size_t n, int32_t live_at,
                      uint64_t* out, size_t at);
size_t KeepPlacedVector(const uint64_t* keys, size_t n, uint64_t* out, size_t at);

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_KEY_FILTER_H_
