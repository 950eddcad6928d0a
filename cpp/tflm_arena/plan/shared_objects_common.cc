// Record checks and positional maximums shared by the shared-object
// strategies (shared_objects.h).
#include <algorithm>
#include <functional>
#include <vector>

#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {

Status CheckSharedObjectRecords(Span<const UsageRecord> records) {
  TFLM_ARENA_RETURN_IF_ERROR(ValidateRecords(records));
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].fixed_offset != kOnlineOffset) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: fixed offset %lld is not supported by shared-object "
                           "strategies",
                           i, static_cast<long long>(records[i].fixed_offset));
    }
  }
  return Status::Ok();
}

namespace plan_internal {

Segments::Segments(Span<const UsageRecord> records) {
  // A segment starts at every first_step and after every last_step.
  std::vector<int64_t> bounds;
  bounds.reserve(2 * records.size());
  for (const UsageRecord& r : records) {
    bounds.push_back(r.first_step);
    bounds.push_back(int64_t{r.last_step} + 1);
  }
  std::sort(bounds.begin(), bounds.end());
  bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
  auto rank = [&](int64_t s) {
    return static_cast<uint32_t>(std::lower_bound(bounds.begin(), bounds.end(), s) -
                                 bounds.begin());
  };
  first.resize(records.size());
  last.resize(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    first[i] = rank(records[i].first_step);
    last[i] = rank(int64_t{records[i].last_step} + 1) - 1;
  }
  count = bounds.empty() ? 0 : bounds.size() - 1;
}

std::vector<size_t> BySizeDescending(Span<const UsageRecord> records) {
  std::vector<size_t> order(records.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return records[a].size > records[b].size; });
  return order;
}

std::vector<size_t> ByFirstStep(Span<const UsageRecord> records) {
  std::vector<size_t> order(records.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return records[a].first_step < records[b].first_step;
  });
  return order;
}

void Finish(SharedObjects* out) {
  out->total = 0;
  for (int64_t s : out->object_sizes) out->total += s;
}

}  // namespace plan_internal

// Entry k is at least v iff some step has k + 1 live buffers of v bytes or
// more. So add buffers largest first (equal sizes together) to a tree over
// segments that keeps each segment's live count and their maximum: after
// the buffers of v bytes, the maximum count c says entries up to c - 1 are
// at least v; the first v that reaches an entry is its value.
// O(n log n), whatever the steps.
std::vector<int64_t> PositionalMaximums(Span<const UsageRecord> records) {
  std::vector<int64_t> max;
  if (records.empty()) return max;
  const plan_internal::Segments segments(records);
  size_t leaves = 1;
  while (leaves < segments.count) leaves *= 2;
  // add[node]: added to every segment under node; top[node]: largest count
  // under node, counting add[node] and below.
  std::vector<int32_t> add(2 * leaves, 0), top(2 * leaves, 0);
  auto range_add = [&](size_t lo, size_t hi) {  // [lo, hi] by one
    size_t l = lo + leaves, h = hi + leaves + 1;
    const size_t l0 = l, h0 = h - 1;
    while (l < h) {
      if (l & 1) {
        ++add[l];
        ++top[l];
        ++l;
      }
      if (h & 1) {
        --h;
        ++add[h];
        ++top[h];
      }
      l >>= 1;
      h >>= 1;
    }
    for (size_t node : {l0, h0}) {
      for (node >>= 1; node >= 1; node >>= 1) {
        top[node] = std::max(top[2 * node], top[2 * node + 1]) + add[node];
      }
    }
  };
  const std::vector<size_t> order = plan_internal::BySizeDescending(records);
  for (size_t k = 0; k < order.size();) {
    const int64_t size = records[order[k]].size;
    for (; k < order.size() && records[order[k]].size == size; ++k) {
      range_add(segments.first[order[k]], segments.last[order[k]]);
    }
    while (max.size() < static_cast<size_t>(top[1])) max.push_back(size);
  }
  return max;
}

int64_t PositionalMaxLowerBound(Span<const UsageRecord> records) {
  int64_t sum = 0;
  for (int64_t m : PositionalMaximums(records)) sum += m;
  return sum;
}

}  // namespace tflm_arena
