// Internal (host): searches over buffers kept in a fixed time order
// (greedy_by_size_objects.cc): which positions are marked, nearest first;
// which positions hold a value above a threshold.
#ifndef TFLM_ARENA_PLAN_ORDER_SEARCH_H_
#define TFLM_ARENA_PLAN_ORDER_SEARCH_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace tflm_arena {
namespace plan_internal {

constexpr size_t kNoPosition = std::numeric_limits<size_t>::max();

// Positions 0..n-1 of a fixed order, some of them marked; finds the nearest
// marked position on either side (a bitmap with one summary bit per word).
class MarkedPositions {
 public:
  explicit MarkedPositions(size_t n) : words_(n / 64 + 1, 0), summary_(words_.size() / 64 + 1, 0) {}

  void Mark(size_t p) {
    words_[p / 64] |= uint64_t{1} << (p % 64);
    summary_[p / 4096] |= uint64_t{1} << (p / 64 % 64);
  }

  // The largest marked position below p, or kNoPosition.
  size_t Below(size_t p) const {
    if (p == 0) return kNoPosition;
    const size_t q = p - 1;
    const uint64_t here = words_[q / 64] & (~uint64_t{0} >> (63 - q % 64));
    if (here != 0) return q / 64 * 64 + static_cast<size_t>(63 - __builtin_clzll(here));
    const size_t w = q / 64;  // look at words below w
    uint64_t s = summary_[w / 64] & ((uint64_t{1} << (w % 64)) - 1);
    for (size_t sw = w / 64;; --sw) {
      if (s != 0) {
        const size_t word = sw * 64 + static_cast<size_t>(63 - __builtin_clzll(s));
        return word * 64 + static_cast<size_t>(63 - __builtin_clzll(words_[word]));
      }
      if (sw == 0) return kNoPosition;
      s = summary_[sw - 1];
    }
  }

  // The smallest marked position at or above p, or kNoPosition.
  size_t AtOrAbove(size_t p) const {
    if (p / 64 >= words_.size()) return kNoPosition;
    const uint64_t here = words_[p / 64] & (~uint64_t{0} << (p % 64));
    if (here != 0) return p / 64 * 64 + static_cast<size_t>(__builtin_ctzll(here));
    const size_t w = p / 64;  // look at words above w
    uint64_t s = w % 64 == 63 ? 0 : summary_[w / 64] & (~uint64_t{0} << (w % 64 + 1));
    for (size_t sw = w / 64;;) {
      if (s != 0) {
        const size_t word = sw * 64 + static_cast<size_t>(__builtin_ctzll(s));
        return word * 64 + static_cast<size_t>(__builtin_ctzll(words_[word]));
      }
      if (++sw == summary_.size()) return kNoPosition;
      s = summary_[sw];
    }
  }

 private:
  std::vector<uint64_t> words_;
  std::vector<uint64_t> summary_;
};

// A value per position; reports the positions of a range whose value is
// above a threshold (a max segment tree, descending only where it pays).
class AboveTree {
 public:
  explicit AboveTree(size_t n) {
    while (leaves_ < n) leaves_ *= 2;
    max_.assign(2 * leaves_, kLow);
  }
  static constexpr int64_t kLow = std::numeric_limits<int64_t>::min();

  void Set(size_t p, int64_t value) {
    p += leaves_;
    max_[p] = value;
    for (p /= 2; p >= 1; p /= 2) {
      const int64_t m = std::max(max_[2 * p], max_[2 * p + 1]);
      if (max_[p] == m) break;  // nothing above changes either
      max_[p] = m;
    }
  }

  // The highest position below `end` whose value is > x, or kNoPosition.
  size_t LastBelow(size_t end, int64_t x) const { return Last(1, 0, leaves_, end, x); }
  // The lowest position at or above `begin` whose value is > x, or kNoPosition.
  size_t FirstFrom(size_t begin, int64_t x) const { return First(1, 0, leaves_, begin, x); }

  // Appends every position in [lo, hi) whose value is > x.
  void Report(size_t lo, size_t hi, int64_t x, std::vector<size_t>* out) const {
    if (lo < hi) Report(1, 0, leaves_, lo, hi, x, out);
  }

 private:
  size_t Last(size_t node, size_t a, size_t b, size_t end, int64_t x) const {
    if (a >= end || max_[node] <= x) return kNoPosition;
    if (b - a == 1) return a;
    const size_t mid = (a + b) / 2;
    const size_t right = Last(2 * node + 1, mid, b, end, x);
    return right != kNoPosition ? right : Last(2 * node, a, mid, end, x);
  }
  size_t First(size_t node, size_t a, size_t b, size_t begin, int64_t x) const {
    if (b <= begin || max_[node] <= x) return kNoPosition;
    if (b - a == 1) return a;
    const size_t mid = (a + b) / 2;
    const size_t left = First(2 * node, a, mid, begin, x);
    return left != kNoPosition ? left : First(2 * node + 1, mid, b, begin, x);
  }
  void Report(size_t node, size_t a, size_t b, size_t lo, size_t hi, int64_t x,
              std::vector<size_t>* out) const {
    if (b <= lo || hi <= a || max_[node] <= x) return;
    if (b - a == 1) {
      out->push_back(a);
      return;
    }
    const size_t mid = (a + b) / 2;
    Report(2 * node, a, mid, lo, hi, x, out);
    Report(2 * node + 1, mid, b, lo, hi, x, out);
  }

  size_t leaves_ = 1;
  std::vector<int64_t> max_;
};

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_ORDER_SEARCH_H_
