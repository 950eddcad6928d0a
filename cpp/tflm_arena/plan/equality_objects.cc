// EQUALITY: a freed object is reused only by a buffer of exactly its size,
// so objects never grow. Walks buffers by first_step; objects whose last
// member ended before the current buffer starts return to a per-size pool
// (earliest end first, then lowest id); the most recently freed one of the
// right size is reused.
#include <map>
#include <vector>

#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {

Status AssignEquality(Span<const UsageRecord> records, SharedObjects* out) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckSharedObjectRecords(records));
  *out = SharedObjects();
  out->object_ids.assign(records.size(), -1);
  std::map<int64_t, std::vector<int32_t>> pool;  // size -> free objects
  plan_internal::InUseQueue in_use;
  for (size_t i : plan_internal::ByFirstStep(records)) {
    const UsageRecord& r = records[i];
    while (!in_use.empty() && in_use.top().last_step < r.first_step) {
      const int32_t obj = in_use.top().object;
      pool[out->object_sizes[obj]].push_back(obj);
      in_use.pop();
    }
    std::vector<int32_t>& same = pool[r.size];
    int32_t obj;
    if (same.empty()) {
      obj = static_cast<int32_t>(out->object_sizes.size());
      out->object_sizes.push_back(r.size);
    } else {
      obj = same.back();
      same.pop_back();
    }
    out->object_ids[i] = obj;
    in_use.push({r.last_step, obj});
  }
  plan_internal::Finish(out);
  return Status::Ok();
}

}  // namespace tflm_arena
