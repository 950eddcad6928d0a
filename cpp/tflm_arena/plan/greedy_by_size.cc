// PlanOffsetsGreedyBySize: the GPU delegate's offset planner (best fit).
// Buffers largest first (stable). For a new buffer, take the placed ones that
// share a step with it in offset order (equal offsets: in placement order),
// tracking the aligned end of everything seen so far: a gap between that end
// and the next one's offset that fits the buffer is a candidate, the smallest
// candidate (the first of equal ones) wins; none fits: place it at the
// aligned end of the highest.
//
// The placed buffers sharing a step with the new one come from an interval
// index (interval_index.h) instead of a walk over every placed buffer (k of
// them). The smallest fitting gap among them is found without sorting them:
// GapBuckets (gap_buckets.h) sums them up per bucket of offsets no wider than
// the new buffer, O(1) per buffer, which leaves the same gaps in the same
// order. Zero-size buffers (where gaps of 0 fit and equal offsets' order
// matters), a small buffer under a high arena (too many buckets) and plans
// whose offsets may pass int32 sort them by (offset, placement order)
// instead. O(n log n + sum of k), at most O(sum of k log k).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "tflm_arena/plan/gap_buckets.h"
#include "tflm_arena/plan/interval_index.h"
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
  if (n > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return Status::Error(StatusCode::kInvalidArgument, "%zu buffers, more than %d", n,
                         std::numeric_limits<int32_t>::max());
  }
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return records[a].size > records[b].size; });
  out->offsets.assign(n, 0);
  out->arena_bytes = 0;
  // While every aligned end placed so far fits in int32, the index's keys
  // are (offset << 32 | placement order): sorting them gives the walk's
  // order directly. From the first one that does not, the index is rebuilt
  // with keys (placement order << 32 | buffer id), and offsets are looked up
  // and sorted alongside.
  constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();
  bool compact = true;
  plan_internal::IntervalIndex index(records);
  std::vector<uint64_t> keys;
  std::vector<std::pair<int64_t, uint64_t>> met;  // (offset, key), general keys only
  // Compact keys: aligned end by placement order, and the highest of them.
  std::vector<uint32_t> aligned_end(n);
  int64_t top = 0;
  plan_internal::GapBuckets gaps;
  for (size_t seq = 0; seq < n; ++seq) {
    const size_t i = order[seq];
    if (seq >= plan_internal::IntervalIndex::kPrefetchFrom) index.PrefetchAhead(order, seq);
    const UsageRecord& r = records[i];
    const auto cost = index.GatherCost(static_cast<uint32_t>(i));
    keys.resize(cost.live + cost.starting + plan_internal::kFilterSlack);
    const size_t k = index.Gather(static_cast<uint32_t>(i), keys.data(), 0);
    constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
    int64_t best_gap = kNone, best_offset = kNone, end = 0;
    auto visit = [&](int64_t offset, size_t j) {
      if (offset >= end) {
        const int64_t gap = offset - end;
        if (gap >= r.size && gap < best_gap) {
          best_gap = gap;
          best_offset = end;
        }
      }
      end = std::max(end, AlignUp(offset + records[j].size, alignment));
    };
    if (compact && r.size > 0 && gaps.Begin(top, r.size)) {
      for (size_t m = 0; m < k; ++m) {
        gaps.Add(static_cast<uint32_t>(plan_internal::KeyOffset(keys[m])),
                 aligned_end[static_cast<size_t>(plan_internal::KeyEnd(keys[m]))]);
      }
      best_offset = gaps.BestFit();
    } else if (compact) {
      std::sort(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(k));
      for (size_t m = 0; m < k; ++m) {
        visit(plan_internal::KeyOffset(keys[m]),
              order[static_cast<size_t>(plan_internal::KeyEnd(keys[m]))]);
      }
    } else {
      met.clear();
      for (size_t m = 0; m < k; ++m) {
        const size_t j = static_cast<size_t>(plan_internal::KeyEnd(keys[m]));
        met.emplace_back(out->offsets[j], keys[m]);
      }
      std::sort(met.begin(), met.end());
      for (const auto& placed : met) {
        visit(placed.first, static_cast<size_t>(plan_internal::KeyEnd(placed.second)));
      }
    }
    if (best_offset == kNone) best_offset = end;
    out->offsets[i] = best_offset;
    out->arena_bytes = std::max(out->arena_bytes, best_offset + r.size);
    const int64_t placed_end = AlignUp(best_offset + r.size, alignment);
    if (compact && placed_end > kInt32Max) {
      compact = false;
      index = plan_internal::IntervalIndex(records);
      for (size_t before = 0; before < seq; ++before) {
        index.Insert(static_cast<uint32_t>(order[before]), static_cast<int32_t>(before),
                     static_cast<int32_t>(order[before]));
      }
    }
    if (compact) {
      aligned_end[seq] = static_cast<uint32_t>(placed_end);
      top = std::max(top, placed_end);
      index.Insert(static_cast<uint32_t>(i), static_cast<int32_t>(best_offset),
                   static_cast<int32_t>(seq));
    } else {
      index.Insert(static_cast<uint32_t>(i), static_cast<int32_t>(seq), static_cast<int32_t>(i));
    }
  }
  return Status::Ok();
}

}  // namespace tflm_arena
