// LowerBound: the most bytes that must be occupied at any one step.
//
// At a step, the buffers the planner places (fixed_offset -1) are disjoint
// from each other and from every fixed buffer, while fixed buffers may share
// bytes (deliberate aliases). So the bytes in use are at least the union of
// the live fixed buffers' ranges plus the sizes of the other live buffers,
// and no plan fits in fewer. Without aliases the union is the plain sum.
//
// Each buffer is an event at first_step (added) and last_step + 1 (removed);
// sorting the 2n events by step and keeping a running total visits every
// step where the total can change, in O(n log n) regardless of how long
// lifetimes are. Fixed ranges go into a segment tree over their distinct
// ends that keeps the covered length (the classic union-of-intervals
// measure), O(log F) per event. The total is taken after all events of a
// step, so a buffer ending at s-1 and one starting at s never count
// together. Sums are kept in 128 bits where the compiler has them, so huge
// sizes cannot overflow. Without fixed buffers, over few steps and with a
// total that fits int64, a difference array over the steps gives the same
// maximum in O(n + steps).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace {
#if defined(__SIZEOF_INT128__)
using Wide = __int128;
#else
using Wide = long double;
#endif

// offset + size, saturated.
int64_t FixedEnd(const UsageRecord& r) {
  int64_t end;
  if (__builtin_add_overflow(r.fixed_offset, r.size, &end)) end = INT64_MAX;
  return end;
}

// Length of the union of the ranges added and not yet removed, over the
// elementary segments [xs[i], xs[i + 1]).
class CoverTree {
 public:
  explicit CoverTree(std::vector<int64_t> xs) : xs_(std::move(xs)) {
    const size_t leaves = xs_.size() > 1 ? xs_.size() - 1 : 1;
    count_.assign(4 * leaves, 0);
    covered_.assign(4 * leaves, 0);
    leaves_ = leaves;
  }
  void Add(int64_t lo, int64_t hi, int delta) {
    const size_t a = Index(lo), b = Index(hi);
    if (a < b) Update(1, 0, leaves_, a, b, delta);
  }
  int64_t Covered() const { return covered_[1]; }

 private:
  size_t Index(int64_t x) const {
    return static_cast<size_t>(std::lower_bound(xs_.begin(), xs_.end(), x) - xs_.begin());
  }
  // Node covers elementary segments [l, r); the update is [a, b).
  void Update(size_t node, size_t l, size_t r, size_t a, size_t b, int delta) {
    if (b <= l || r <= a) return;
    if (a <= l && r <= b) {
      count_[node] += delta;
    } else {
      const size_t mid = (l + r) / 2;
      Update(2 * node, l, mid, a, b, delta);
      Update(2 * node + 1, mid, r, a, b, delta);
    }
    if (count_[node] > 0) {
      covered_[node] = xs_[r] - xs_[l];
    } else if (r - l == 1) {
      covered_[node] = 0;
    } else {
      covered_[node] = covered_[2 * node] + covered_[2 * node + 1];
    }
  }
  std::vector<int64_t> xs_;
  std::vector<int32_t> count_;
  std::vector<int64_t> covered_;
  size_t leaves_ = 1;
};

struct Event {
  int64_t step;
  int64_t size_change;  // planner-placed buffers
  int64_t fixed = -1;   // index of a fixed record, else -1
  int delta = 0;        // +1 added, -1 removed (fixed only)
  bool operator<(const Event& o) const { return step < o.step; }
};

// Without fixed buffers, over few distinct steps (at most 4n + 64 from the
// first to the last) and with a total size that fits int64: the running
// total as a difference array over the steps, O(n + steps), no sort. The
// same maximum as the sweep below. False: use the sweep.
bool DenseLowerBound(Span<const UsageRecord> records, int64_t* out) {
  int64_t lo = INT64_MAX, hi = INT64_MIN, total = 0;
  for (const UsageRecord& r : records) {
    if (r.size <= 0 || r.first_step > r.last_step) continue;
    if (r.fixed_offset >= 0 || __builtin_add_overflow(total, r.size, &total)) return false;
    lo = std::min<int64_t>(lo, r.first_step);
    hi = std::max<int64_t>(hi, r.last_step);
  }
  if (total == 0) {
    *out = 0;
    return true;
  }
  const uint64_t steps = static_cast<uint64_t>(hi - lo) + 2;
  if (steps > 4 * static_cast<uint64_t>(records.size()) + 64) return false;
  std::vector<int64_t> change(steps, 0);
  for (const UsageRecord& r : records) {
    if (r.size <= 0 || r.first_step > r.last_step) continue;
    change[static_cast<size_t>(r.first_step - lo)] += r.size;
    change[static_cast<size_t>(r.last_step - lo) + 1] -= r.size;
  }
  int64_t live = 0, best = 0;  // never above total: no overflow
  for (int64_t c : change) {
    live += c;
    best = std::max(best, live);
  }
  *out = best;
  return true;
}

}  // namespace

int64_t LowerBound(Span<const UsageRecord> records) {
  int64_t dense;
  if (DenseLowerBound(records, &dense)) return dense;
  std::vector<Event> events;
  events.reserve(2 * records.size());
  std::vector<int64_t> xs;
  for (size_t i = 0; i < records.size(); ++i) {
    const UsageRecord& r = records[i];
    if (r.size <= 0 || r.first_step > r.last_step) continue;
    const int64_t end_step = static_cast<int64_t>(r.last_step) + 1;
    if (r.fixed_offset >= 0) {
      xs.push_back(r.fixed_offset);
      xs.push_back(FixedEnd(r));
      events.push_back({r.first_step, 0, static_cast<int64_t>(i), +1});
      events.push_back({end_step, 0, static_cast<int64_t>(i), -1});
    } else {
      events.push_back({r.first_step, r.size});
      events.push_back({end_step, -r.size});
    }
  }
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  CoverTree fixed(std::move(xs));
  std::sort(events.begin(), events.end());  // by step; order within a step is free
  Wide live = 0;                            // planner-placed bytes
  Wide best = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    if (e.fixed >= 0) {
      const UsageRecord& r = records[static_cast<size_t>(e.fixed)];
      fixed.Add(r.fixed_offset, FixedEnd(r), e.delta);
    } else {
      live += e.size_change;
    }
    const bool last_of_step = i + 1 == events.size() || events[i + 1].step != e.step;
    if (last_of_step) best = std::max(best, live + static_cast<Wide>(fixed.Covered()));
  }
  return best > static_cast<Wide>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(best);
}

}  // namespace tflm_arena
