// GREEDY_BY_BREADTH: a step's breadth is the total size live at it. Steps
// are visited by breadth, widest first (ties: earlier step first, as the GPU
// delegate's reverse sort leaves them), and inside a step its buffers largest
// first. An unassigned buffer goes into the best-sized object with no member
// live at a common step: the smallest object at least its size, else the
// largest one (ties: lowest id); no such object: a new one.
#include <algorithm>
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
  const auto profiles = plan_internal::StepProfiles(records);
  std::vector<std::pair<int64_t, size_t>> breadth;  // (breadth, step index)
  for (size_t s = 0; s < profiles.size(); ++s) {
    int64_t sum = 0;
    for (size_t i : profiles[s]) sum += records[i].size;
    breadth.emplace_back(sum, s);
  }
  std::sort(breadth.begin(), breadth.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  std::vector<Schedule> schedules;
  for (const auto& step : breadth) {
    for (size_t i : profiles[step.second]) {
      if (out->object_ids[i] != -1) continue;
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
  }
  plan_internal::Finish(out);
  return Status::Ok();
}

}  // namespace tflm_arena
