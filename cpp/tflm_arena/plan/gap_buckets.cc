// GapBuckets: the bucketed gap scans of gap_buckets.h.
#include "tflm_arena/plan/gap_buckets.h"

#include <cstring>

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
    used_.resize((last / 64 + 1) * 64, 0);
  }
  return true;
}

namespace {

// The bits of 8 used_ bytes (each 0 or 1) from `at`: bit i is byte at + i.
// The multiply moves byte i's bit to bit 56 + i, with nothing carried into
// bits 56..63 (each lands at 7 * (i + k) + i for k = 1..8; only k = 8 - i
// reaches 56..63, the other sums stay below 56 or wrap past 64).
inline uint64_t ByteBits(const uint8_t* at) {
  uint64_t word;
  std::memcpy(&word, at, 8);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  word = __builtin_bswap64(word);
#endif
  return (word * 0x0102040810204080u) >> 56;
}

}  // namespace

template <typename F>
void GapBuckets::Scan(F&& f) {
  // 64 buckets at a time: their bytes packed into a bitmap, then its set
  // bits walked as before, and the bytes cleared.
  const size_t groups = last_ / 64 + 1;
  uint8_t* used = used_.data();
  bool scanning = true;
  for (size_t g = 0; g < groups; ++g) {
    uint8_t* at = used + 64 * g;
    uint64_t bits = 0;
    for (size_t i = 0; i < 8; ++i) bits |= ByteBits(at + 8 * i) << (8 * i);
    if (bits == 0) continue;
    std::memset(at, 0, 64);
    for (; bits != 0; bits &= bits - 1) {
      Bucket& b = buckets_[64 * g + static_cast<size_t>(__builtin_ctzll(bits))];
      if (scanning) scanning = f(b);
      b = kClear;
    }
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
