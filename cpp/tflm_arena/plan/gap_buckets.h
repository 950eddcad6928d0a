// Internal (host): the gap scans of the greedy offset planners without
// sorting the placed buffers by offset.
//
// Both scans walk the buffers meeting a new one in offset order, keeping
// `end`, the highest end seen so far, and look at the gap between `end` and
// each next offset; a gap is only of use if it is at least `want` bytes
// (the new buffer's size, > 0). Cut the offsets into buckets of 2^s <= want
// bytes. Inside one bucket, once its lowest-offset buffer has been seen,
// end >= that offset >= the bucket's start, and every later offset in it is
// below the bucket's end, so every later gap is below 2^s <= want: of no use.
// So a bucket is summed up by its lowest offset (the one gap that matters)
// and its highest end (what it does to `end`), in any order of arrival:
// O(1) per buffer and O(buckets / 8) per scan (a byte per bucket, packed
// into a bitmap 64 at a time, skips empty buckets), instead of sorting them. Equal offsets may
// arrive in any order: after the first of them every gap is 0 < want.
//
// TFLM's first fit stops at the first gap that fits and returns `end` there;
// the GPU delegate's best fit takes the smallest gap that fits (the first of
// equal ones), else the end of everything. Offsets and ends fit in uint32.
#ifndef TFLM_ARENA_PLAN_GAP_BUCKETS_H_
#define TFLM_ARENA_PLAN_GAP_BUCKETS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tflm_arena {
namespace plan_internal {

class GapBuckets {
 public:
  // More buckets than this (a small `want` under a high `top`) cost more to
  // scan than sorting: Begin then refuses.
  static constexpr size_t kMaxBuckets = size_t{1} << 15;

  // Starts a scan for a buffer of `want` > 0 bytes among buffers whose
  // offsets are at most `top`. False (nothing started) when that takes more
  // than kMaxBuckets buckets.
  bool Begin(int64_t top, int64_t want);

  // A buffer meeting the new one, at [offset, end) (end >= offset).
  void Add(uint32_t offset, uint32_t end) {
    const uint32_t at = offset >> shift_;
    Bucket& b = buckets_[at];
    b.min_offset = std::min(b.min_offset, offset);
    b.max_end = std::max(b.max_end, end);
    used_[at] = 1;
  }

  // TFLM's first fit over what was added: the lowest `end` followed by a gap
  // of at least `want` (or by nothing). Ends the scan.
  int64_t FirstFit();

  // The GPU delegate's best fit: the `end` before the smallest gap of at
  // least `want` (the lowest of equal ones), else the end of everything.
  // Ends the scan.
  int64_t BestFit();

 private:
  struct Bucket {
    uint32_t min_offset;
    uint32_t max_end;
  };
  static constexpr Bucket kClear = {UINT32_MAX, 0};

  // Calls f(bucket) for every bucket used, in offset order, until f returns
  // false; then clears every bucket and bit for the next scan.
  template <typename F>
  void Scan(F&& f);

  int64_t want_ = 0;
  int shift_ = 0;
  size_t last_ = 0;              // highest bucket in use
  std::vector<Bucket> buckets_;  // kClear between scans
  // One byte per bucket, 1 if in use, 0 between scans; padded to groups of
  // 64. A plain store per Add: a bitmap's read-modify-write of a
  // few shared words made every Add wait for the one before.
  std::vector<uint8_t> used_;
};

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_GAP_BUCKETS_H_
