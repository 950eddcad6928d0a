// FixedAliases: fixed buffers that share bytes while live. Sweep over time
// keeping the live fixed buffers in a list; each newcomer is compared with
// all of them (aliases may nest, so an offset-ordered neighbour test would
// miss some).
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "tflm_arena/plan/plan.h"

namespace tflm_arena {
namespace {

// offset + size, saturated: records may hold any non-negative int64s.
int64_t End(const UsageRecord& r) {
  int64_t end;
  if (__builtin_add_overflow(r.fixed_offset, r.size, &end)) end = INT64_MAX;
  return end;
}

}  // namespace

std::vector<std::pair<size_t, size_t>> FixedAliases(Span<const UsageRecord> records) {
  std::vector<size_t> fixed;
  for (size_t i = 0; i < records.size(); ++i) {
    if (records[i].fixed_offset != kOnlineOffset && records[i].size > 0) fixed.push_back(i);
  }
  std::sort(fixed.begin(), fixed.end(), [&](size_t a, size_t b) {
    return records[a].first_step != records[b].first_step
               ? records[a].first_step < records[b].first_step
               : a < b;
  });
  std::vector<std::pair<size_t, size_t>> pairs;
  std::vector<size_t> live;
  for (size_t id : fixed) {
    const UsageRecord& r = records[id];
    live.erase(std::remove_if(live.begin(), live.end(),
                              [&](size_t k) { return records[k].last_step < r.first_step; }),
               live.end());
    for (size_t k : live) {
      const UsageRecord& o = records[k];
      if (o.fixed_offset < End(r) && r.fixed_offset < End(o)) {
        pairs.emplace_back(std::min(id, k), std::max(id, k));
      }
    }
    live.push_back(id);
  }
  std::sort(pairs.begin(), pairs.end());
  return pairs;
}

}  // namespace tflm_arena
