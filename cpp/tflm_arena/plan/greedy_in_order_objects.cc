// GREEDY_IN_ORDER: walks buffers by first_step; freed objects go to a pool
// ordered by (size, id). A buffer takes the smallest free object at least
// its size (waste) or the largest smaller one (growth), whichever changes
// memory less (waste wins ties); the object grows when needed. No free
// object: a new one.
#include <algorithm>
#include <set>
#include <utility>

#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {

Status AssignGreedyInOrder(Span<const UsageRecord> records, SharedObjects* out) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckSharedObjectRecords(records));
  *out = SharedObjects();
  out->object_ids.assign(records.size(), -1);
  std::set<std::pair<int64_t, int32_t>> pool;  // (size, object)
  plan_internal::InUseQueue in_use;
  for (size_t i : plan_internal::ByFirstStep(records)) {
    const UsageRecord& r = records[i];
    while (!in_use.empty() && in_use.top().last_step < r.first_step) {
      const int32_t obj = in_use.top().object;
      pool.insert({out->object_sizes[obj], obj});
      in_use.pop();
    }
    int32_t obj;
    if (pool.empty()) {
      obj = static_cast<int32_t>(out->object_sizes.size());
      out->object_sizes.push_back(r.size);
    } else {
      auto best = pool.lower_bound({r.size, -1});
      int64_t diff;
      if (best != pool.end()) {
        diff = best->first - r.size;
      } else {
        --best;
        diff = r.size - best->first;
      }
      if (best != pool.begin()) {
        auto smaller = std::prev(best);
        if (r.size - smaller->first < diff) best = smaller;
      }
      obj = best->second;
      pool.erase(best);
      out->object_sizes[obj] = std::max(out->object_sizes[obj], r.size);
    }
    out->object_ids[i] = obj;
    in_use.push({r.last_step, obj});
  }
  plan_internal::Finish(out);
  return Status::Ok();
}

}  // namespace tflm_arena
