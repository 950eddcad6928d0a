// The GPU delegate's GREEDY_BY_SIZE loop as it is: every round rescans
// every unassigned buffer, each keeping a distance per object (O(n^2) time,
// n x objects memory). greedy_by_size_objects.cc runs it when its faster
// search gives up (shared_objects_internal.h); both give the same objects.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {
namespace plan_internal {
namespace {

constexpr int64_t kNone = std::numeric_limits<int64_t>::max();

// Positive gap between two lifetimes, kNone when they share a step.
int64_t Gap(const UsageRecord& a, const UsageRecord& b) {
  if (a.last_step < b.first_step) return int64_t{b.first_step} - a.last_step;
  if (b.last_step < a.first_step) return int64_t{a.first_step} - b.last_step;
  return kNone;
}

struct Priority {
  size_t position = 0;
  int64_t size = 0;
  std::vector<int64_t> dist;  // per object: smallest gap to a member; kNone = conflict
  int64_t best_dist = kNone;
  int32_t best_object = -1;

  bool Before(const Priority& o) const {
    if (position != o.position) return position < o.position;
    if (best_dist != o.best_dist) return best_dist < o.best_dist;
    return size > o.size;
  }
  void Recalc() {
    best_dist = kNone;
    best_object = -1;
    for (size_t k = 0; k < dist.size(); ++k) {
      if (dist[k] < best_dist) {
        best_dist = dist[k];
        best_object = static_cast<int32_t>(k);
      }
    }
  }
};

}  // namespace

void AssignGreedyBySizeByRescan(Span<const UsageRecord> records, SharedObjects* out_objects) {
  SharedObjects& out = *out_objects;
  const size_t n = records.size();
  out.object_ids.assign(n, -1);
  const std::vector<int64_t> max = PositionalMaximums(records);
  std::vector<Priority> info(n);
  for (size_t i = 0; i < n; ++i) {
    size_t pos = 0;
    while (pos < max.size() && max[pos] >= records[i].size) ++pos;
    info[i].position = pos == 0 ? 0 : pos - 1;  // pos == 0 cannot happen: max[0] >= every size
    info[i].size = records[i].size;
  }
  for (size_t round = 0; round < n; ++round) {
    size_t pick = n;
    for (size_t i = 0; i < n; ++i) {
      if (out.object_ids[i] != -1) continue;
      if (pick == n || info[i].Before(info[pick])) pick = i;
    }
    int32_t obj = info[pick].best_object;
    const bool new_object = info[pick].best_dist == kNone;
    if (new_object) {
      obj = static_cast<int32_t>(out.object_sizes.size());
      out.object_sizes.push_back(records[pick].size);
    } else {
      out.object_sizes[obj] = std::max(out.object_sizes[obj], records[pick].size);
    }
    out.object_ids[pick] = obj;
    for (size_t i = 0; i < n; ++i) {
      if (out.object_ids[i] != -1) continue;
      Priority& p = info[i];
      if (!new_object && p.dist[obj] == kNone) continue;
      const int64_t gap = Gap(records[i], records[pick]);
      if (new_object) {
        p.dist.push_back(gap);
      } else if (gap == kNone) {
        p.dist[obj] = kNone;
        if (p.best_object == obj) p.Recalc();
      } else {
        p.dist[obj] = std::min(p.dist[obj], gap);
      }
      if (gap < p.best_dist) {
        p.best_dist = gap;
        p.best_object = obj;
      }
    }
  }
}

}  // namespace plan_internal
}  // namespace tflm_arena
