// ObjectsToOffsets: shared objects laid end to end, in object id order.
#include <vector>

#include "tflm_arena/plan/shared_objects.h"

namespace tflm_arena {

Status ObjectsToOffsets(const SharedObjects& objects, PlanResult* out) {
  std::vector<int64_t> start(objects.object_sizes.size());
  int64_t end = 0;
  for (size_t k = 0; k < start.size(); ++k) {
    if (objects.object_sizes[k] < 0) {
      return Status::Error(StatusCode::kInvalidArgument, "object %zu: size %lld is negative", k,
                           static_cast<long long>(objects.object_sizes[k]));
    }
    start[k] = end;
    end += objects.object_sizes[k];
  }
  out->offsets.assign(objects.object_ids.size(), 0);
  for (size_t i = 0; i < objects.object_ids.size(); ++i) {
    const int32_t id = objects.object_ids[i];
    if (id < 0 || static_cast<size_t>(id) >= start.size()) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "buffer %zu: object id %d is outside range 0 to %zu", i, id,
                           start.size());
    }
    out->offsets[i] = start[id];
  }
  out->arena_bytes = end;
  return Status::Ok();
}

}  // namespace tflm_arena
