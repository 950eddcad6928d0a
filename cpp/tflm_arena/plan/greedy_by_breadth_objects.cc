// GREEDY_BY_BREADTH: a step's breadth is the total size live at it. Steps
// are visited by breadth, widest first (ties: earlier step first, as the GPU
// delegate's reverse sort leaves them), and inside a step its buffers largest
// first. An unassigned buffer goes into the best-sized object with no member
// live at a common step: the smallest object at least its size, else the
// largest one (ties: lowest id); no such object: a new one.
//
// The objects with a member live at a common step are those of the assigned
// buffers meeting the new one (k of them), fetched from an interval index
// (interval_index.h) and marked busy. Objects are kept ordered by (size, id),
// so the best free one is found by stepping from the new buffer's size past
// at most k busy ones, up and, if need be, down: O(n log n + sum of k log n)
// time, instead of testing every object's schedule for every buffer.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <set>
#include <utility>
#include <vector>

#include "tflm_arena/plan/interval_index.h"
#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {

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
  // Object ids carried as the keys' offset half (the end half is unused).
  plan_internal::IntervalIndex index(records);
  std::set<std::pair<int64_t, int32_t>> by_size;  // (size, id) of every object
  std::vector<uint32_t> busy;                     // object -> last buffer it was busy for
  std::vector<uint64_t> keys;
  uint32_t stamp = 0;
  for (size_t i : order) {
    const UsageRecord& r = records[i];
    const auto cost = index.GatherCost(static_cast<uint32_t>(i));
    keys.resize(cost.live + cost.starting + plan_internal::kFilterSlack);
    const size_t k = index.Gather(static_cast<uint32_t>(i), keys.data(), 0);
    ++stamp;
    for (size_t m = 0; m < k; ++m) {
      busy[static_cast<size_t>(plan_internal::KeyOffset(keys[m]))] = stamp;
    }
    auto free = [&](const std::pair<int64_t, int32_t>& o) { return busy[o.second] != stamp; };
    // The smallest free object of at least r.size, lowest id first.
    auto it = std::find_if(by_size.lower_bound({r.size, INT32_MIN}), by_size.end(), free);
    if (it == by_size.end()) {
      // Else the largest free one, then the lowest id of that size.
      auto below =
          std::find_if(std::make_reverse_iterator(by_size.lower_bound({r.size, INT32_MIN})),
                       by_size.rend(), free);
      if (below != by_size.rend()) {
        it = std::find_if(by_size.lower_bound({below->first, INT32_MIN}), by_size.end(), free);
      }
    }
    int32_t best;
    if (it == by_size.end()) {
      best = static_cast<int32_t>(out->object_sizes.size());
      out->object_sizes.push_back(r.size);
      busy.push_back(0);
      by_size.emplace(r.size, best);
    } else {
      best = it->second;
      if (r.size > it->first) {
        by_size.erase(it);
        by_size.emplace(r.size, best);
        out->object_sizes[best] = r.size;
      }
    }
    out->object_ids[i] = best;
    index.Insert(static_cast<uint32_t>(i), best, 0);
  }
  plan_internal::Finish(out);
  return Status::Ok();
}

}  // namespace tflm_arena
