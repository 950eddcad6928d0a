#include "tflm_arena/plan/overlap_sweep.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <queue>
#include <set>
#include <utility>

namespace tflm_arena {
namespace plan_internal {
namespace {

struct Active {
  int64_t offset;
  int64_t end;  // saturated offset + size
  size_t id;
  bool operator<(const Active& o) const {
    return offset != o.offset ? offset < o.offset : id < o.id;
  }
};

int64_t SaturatedEnd(int64_t offset, int64_t size) {
  int64_t end;
  if (__builtin_add_overflow(offset, size, &end)) end = INT64_MAX;
  return end;
}

Status Report(Span<const UsageRecord> records, Span<const ByteOffset> offsets, size_t a, size_t b,
              const char* what) {
  if (b < a) std::swap(a, b);
  const UsageRecord& ra = records[a];
  const UsageRecord& rb = records[b];
  return Status::Error(StatusCode::kInvalidArgument,
                       "%s %zu and %zu overlap: buffer %zu holds [%lld, %lld) at steps %d..%d, "
                       "buffer %zu holds [%lld, %lld) at steps %d..%d",
                       what, a, b, a, static_cast<long long>(offsets[a]),
                       static_cast<long long>(SaturatedEnd(offsets[a], ra.size)), ra.first_step,
                       ra.last_step, b, static_cast<long long>(offsets[b]),
                       static_cast<long long>(SaturatedEnd(offsets[b], rb.size)), rb.first_step,
                       rb.last_step);
}

}  // namespace

Status FindMemoryOverlap(Span<const UsageRecord> records, Span<const ByteOffset> offsets,
                         const std::vector<size_t>& ids, const char* what) {
  std::vector<size_t> order;
  order.reserve(ids.size());
  for (size_t id : ids) {
    if (records[id].size > 0) order.push_back(id);
  }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return records[a].first_step != records[b].first_step
               ? records[a].first_step < records[b].first_step
               : a < b;
  });

  std::set<Active> active;
  // Min-heap of (last_step, id): who leaves next.
  using Leaving = std::pair<Step, size_t>;
  std::priority_queue<Leaving, std::vector<Leaving>, std::greater<Leaving>> leaving;
  for (size_t id : order) {
    const UsageRecord& r = records[id];
    while (!leaving.empty() && leaving.top().first < r.first_step) {
      const size_t gone = leaving.top().second;
      active.erase(Active{offsets[gone], 0, gone});
      leaving.pop();
    }
    const Active me{offsets[id], SaturatedEnd(offsets[id], r.size), id};
    auto above = active.lower_bound(Active{me.offset, 0, 0});
    if (above != active.end() && above->offset < me.end) {
      return Report(records, offsets, id, above->id, what);
    }
    if (above != active.begin()) {
      auto below = std::prev(above);
      if (below->end > me.offset) return Report(records, offsets, id, below->id, what);
    }
    active.insert(me);
    leaving.push({r.last_step, id});
  }
  return Status::Ok();
}

}  // namespace plan_internal
}  // namespace tflm_arena
