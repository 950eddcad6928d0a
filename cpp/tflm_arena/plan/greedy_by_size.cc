// PlanOffsetsGreedyBySize: the GPU delegate's offset planner (best fit).
// Buffers largest first (stable). Placed buffers are kept ordered by offset;
// for a new buffer, walk the placed ones that share a step with it, tracking
// the aligned end of everything seen so far: a gap between that end and the
// next one's offset that fits the buffer is a candidate, the smallest
// candidate wins; none fits: place it at the aligned end of the highest.
// O(n^2).
#include <algorithm>
#include <limits>
#include <vector>

#include "tflm_arena/plan/shared_objects.h"

namespace tflm_arena {
namespace {

int64_t AlignUp(int64_t v, int64_t alignment) {
  if (alignment <= 1) return v;
  return (v + alignment - 1) / alignment * alignment;
}

}  // namespace

Status PlanOffsetsGreedyBySize(Span<const UsageRecord> records, int64_t alignment,
                               PlanResult* out) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckSharedObjectRecords(records));
  if (alignment < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "alignment %lld is negative",
                         static_cast<long long>(alignment));
  }
  const size_t n = records.size();
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return records[a].size > records[b].size; });
  out->offsets.assign(n, 0);
  out->arena_bytes = 0;
  std::vector<size_t> by_offset;  // placed buffers, by offset (stable)
  for (size_t i : order) {
    const UsageRecord& r = records[i];
    constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
    int64_t best_gap = kNone, best_offset = kNone, end = 0;
    for (size_t j : by_offset) {
      if (!LifetimesOverlap(records[j], r)) continue;
      const int64_t offset = out->offsets[j];
      if (offset >= end) {
        const int64_t gap = offset - end;
        if (gap >= r.size && gap < best_gap) {
          best_gap = gap;
          best_offset = end;
        }
      }
      end = std::max(end, AlignUp(offset + records[j].size, alignment));
    }
    if (best_offset == kNone) best_offset = end;
    auto pos = by_offset.begin();
    while (pos != by_offset.end() && out->offsets[*pos] <= best_offset) ++pos;
    by_offset.insert(pos, i);
    out->offsets[i] = best_offset;
    out->arena_bytes = std::max(out->arena_bytes, best_offset + r.size);
  }
  return Status::Ok();
}

}  // namespace tflm_arena
