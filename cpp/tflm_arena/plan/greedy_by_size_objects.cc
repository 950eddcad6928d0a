// GREEDY_BY_SIZE (objects; the GPU delegate's "size-distance priority"):
// a buffer's position is the last index k whose positional maximum is at
// least its size. Repeatedly take the unassigned buffer with the lowest
// position, then the smallest positive step gap to a buffer already in some
// object, then the larger size (then lowest index), and put it in the object
// holding that nearest neighbour (a new object when no object is free for
// it). O(n^2 + n x objects) time and n x objects memory (a distance per
// buffer and object): the algorithm's own cost, kept so its assignments stay
// the delegate's; not for millions of buffers. (Positional maximums no longer
// bound the steps: shared_objects_common.cc works on segments of steps.)
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {
namespace {

constexpr int64_t kNone = std::numeric_limits<int64_t>::max();

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

// Positive gap between two lifetimes, kNone when they share a step.
int64_t Gap(const UsageRecord& a, const UsageRecord& b) {
  if (a.last_step < b.first_step) return int64_t{b.first_step} - a.last_step;
  if (b.last_step < a.first_step) return int64_t{a.first_step} - b.last_step;
  return kNone;
}

}  // namespace

Status AssignGreedyBySize(Span<const UsageRecord> records, SharedObjects* out) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckSharedObjectRecords(records));
  if (records.size() > kMaxGreedyBySizeObjectsBuffers) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "greedy_by_size_objects: %zu buffers, more than %zu (its object search "
                         "is O(n^2))",
                         records.size(), kMaxGreedyBySizeObjectsBuffers);
  }
  *out = SharedObjects();
  const size_t n = records.size();
  out->object_ids.assign(n, -1);
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
      if (out->object_ids[i] != -1) continue;
      if (pick == n || info[i].Before(info[pick])) pick = i;
    }
    int32_t obj = info[pick].best_object;
    const bool new_object = info[pick].best_dist == kNone;
    if (new_object) {
      obj = static_cast<int32_t>(out->object_sizes.size());
      out->object_sizes.push_back(records[pick].size);
    } else {
      out->object_sizes[obj] = std::max(out->object_sizes[obj], records[pick].size);
    }
    out->object_ids[pick] = obj;
    for (size_t i = 0; i < n; ++i) {
      if (out->object_ids[i] != -1) continue;
      Priority& p = info[i];
      if (!new_object && p.dist[obj] == kNone) continue;  // already in conflict with obj
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
  plan_internal::Finish(out);
  return Status::Ok();
}

}  // namespace tflm_arena
