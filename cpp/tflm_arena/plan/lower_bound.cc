// LowerBound: the largest total size live at any one step.
//
// Each buffer adds its size at first_step and removes it after last_step;
// sorting these 2n events by step and keeping a running total visits every
// step where the total can change, in O(n log n) regardless of how long
// lifetimes are. The total is taken after all events of a step, so a buffer
// ending at s-1 and one starting at s never count together. Sums are kept in
// 128 bits where the compiler has them, so huge sizes cannot overflow.
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
}  // namespace

int64_t LowerBound(Span<const UsageRecord> records) {
  std::vector<std::pair<int64_t, int64_t>> events;  // (step, size change)
  events.reserve(2 * records.size());
  for (const UsageRecord& r : records) {
    if (r.size <= 0 || r.first_step > r.last_step) continue;
    events.emplace_back(r.first_step, r.size);
    events.emplace_back(static_cast<int64_t>(r.last_step) + 1, -r.size);
  }
  std::sort(events.begin(), events.end());
  Wide live = 0;
  Wide best = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    live += events[i].second;
    const bool last_of_step = i + 1 == events.size() || events[i + 1].first != events[i].first;
    if (last_of_step && live > best) best = live;
  }
  return best > static_cast<Wide>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(best);
}

}  // namespace tflm_arena
