// GapBuckets: the bucketed gap scans of gap_buckets.h.
#include "tflm_arena/plan/gap_buckets.h"

namespace tflm_arena {
namespace plan_internal {

bool GapBuckets::Begin(int64_t top, int64_t want) {
  const int shift = 63 - __builtin_clzll(static_cast<uint64_t>(want));  // 2^shift <= want
  const size_t last = static_cast<size_t>(top >> shift);
  if (last >= kMaxBuckets) return false;
  want_ = want;
  shift_ = shift;
  last_ = last;
  if (buckets_.size() <= last) {
    buckets_.resize(last + 1, kClear);
    bits_.resize(last / 64 + 1, 0);
  }
  return true;
}

template <typename F>
void GapBuckets::Scan(F&& f) {
  const size_t words = last_ / 64 + 1;
  for (size_t w = 0; w < words; ++w) {
    uint64_t word = bits_[w];
    for (; word != 0; word &= word - 1) {
      if (!f(buckets_[w * 64 + static_cast<size_t>(__builtin_ctzll(word))])) break;
    }
    if (word != 0) break;
  }
  for (size_t w = 0; w < words; ++w) {
    for (uint64_t word = bits_[w]; word != 0; word &= word - 1) {
      buckets_[w * 64 + static_cast<size_t>(__builtin_ctzll(word))] = kClear;
    }
    bits_[w] = 0;
  }
}

int64_t GapBuckets::FirstFit() {
  int64_t end = 0;
  Scan([&](const Bucket& b) {
    if (int64_t{b.min_offset} - end >= want_) return false;  // gap found
    end = std::max<int64_t>(end, b.max_end);
    return true;
  });
  return end;
}

int64_t GapBuckets::BestFit() {
  int64_t end = 0, best_gap = INT64_MAX, best = -1;
  Scan([&](const Bucket& b) {
    const int64_t gap = int64_t{b.min_offset} - end;
    if (gap >= want_ && gap < best_gap) {
      best_gap = gap;
      best = end;
    }
    end = std::max<int64_t>(end, b.max_end);
    return true;
  });
  return best != -1 ? best : end;
}

}  // namespace plan_internal
}  // namespace tflm_arena
