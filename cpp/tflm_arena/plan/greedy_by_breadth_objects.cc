// GREEDY_BY_BREADTH: a step's breadth is the total size live at it. Steps
// are visited by breadth, widest first (ties: earlier step first, as the GPU
// delegate's reverse sort leaves them), and inside a step its buffers largest
// first. An unassigned buffer goes into the best-sized object with no member
// live at a common step: the smallest object at least its size, else the
// largest one (ties: lowest id); no such object: a new one.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <vector>

#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {
namespace {

// Members of one object by first_step -> last_step (members never overlap).
using Schedule = std::map<Step, Step>;

bool Fits(const Schedule& s, const UsageRecord& r) {
  auto it = s.lower_bound(r.first_step);
  if (it != s.end() && it->first <= r.last_step) return false;
  if (it != s.begin() && std::prev(it)->second >= r.first_step) return false;
  return true;
}

// True when an object of `cur` bytes is a better home for `size` than one of
// `best` bytes.
bool BetterSize(int64_t cur, int64_t best, int64_t size) {
  if (best < size) return cur > best;
  return cur >= size && cur < best;
}

}  // namespace

Status AssignGreedyByBreadth(Span<const UsageRecord> records, SharedObjects* out) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckSharedObjectRecords(records));
  *out = SharedObjects();
  out->object_ids.assign(records.size(), -1);
  // Steps with the same buffers live have the same breadth, and once the
  // first of them is visited its buffers are all assigned, so visiting one
  // step per segment (segments in step order: ties keep the earlier one)
  // changes nothing. A buffer is then assigned at the first visited segment
  // it is live in, after the larger (then lower-index) buffers assigned
  // there: sort buffers by that visit rank, then size, then index.
  const plan_internal::Segments segments(records);
  const size_t m = segments.count;
  std::vector<int64_t> breadth(m + 1, 0);  // difference array, then sums
  for (size_t i = 0; i < records.size(); ++i) {
    breadth[segments.first[i]] += records[i].size;
    breadth[segments.last[i] + 1] -= records[i].size;
  }
  for (size_t s = 1; s < m; ++s) breadth[s] += breadth[s - 1];
  std::vector<uint32_t> visit(m);  // segments, widest first
  for (size_t s = 0; s < m; ++s) visit[s] = static_cast<uint32_t>(s);
  std::sort(visit.begin(), visit.end(), [&](uint32_t a, uint32_t b) {
    return breadth[a] > breadth[b] || (breadth[a] == breadth[b] && a < b);
  });
  size_t leaves = 1;
  while (leaves < m) leaves *= 2;
  std::vector<uint32_t> rank_min(2 * leaves, UINT32_MAX);  // min visit rank under a node
  for (size_t k = 0; k < m; ++k) rank_min[leaves + visit[k]] = static_cast<uint32_t>(k);
  for (size_t node = leaves - 1; node >= 1; --node) {
    rank_min[node] = std::min(rank_min[2 * node], rank_min[2 * node + 1]);
  }
  std::vector<uint32_t> first_visit(records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    uint32_t best = UINT32_MAX;
    for (size_t lo = segments.first[i] + leaves, hi = segments.last[i] + leaves + 1; lo < hi;
         lo >>= 1, hi >>= 1) {
      if (lo & 1) best = std::min(best, rank_min[lo++]);
      if (hi & 1) best = std::min(best, rank_min[--hi]);
    }
    first_visit[i] = best;
  }
  std::vector<size_t> order = plan_internal::BySizeDescending(records);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return first_visit[a] < first_visit[b]; });
  std::vector<Schedule> schedules;
  for (size_t i : order) {
    const UsageRecord& r = records[i];
    int32_t best = -1;
    for (size_t obj = 0; obj < schedules.size(); ++obj) {
      if (best != -1 && !BetterSize(out->object_sizes[obj], out->object_sizes[best], r.size)) {
        continue;
      }
      if (Fits(schedules[obj], r)) best = static_cast<int32_t>(obj);
    }
    if (best == -1) {
      best = static_cast<int32_t>(schedules.size());
      schedules.emplace_back();
      out->object_sizes.push_back(r.size);
    }
    schedules[best][r.first_step] = r.last_step;
    out->object_sizes[best] = std::max(out->object_sizes[best], r.size);
    out->object_ids[i] = best;
  }
  plan_internal::Finish(out);
  return Status::Ok();
}

}  // namespace tflm_arena
