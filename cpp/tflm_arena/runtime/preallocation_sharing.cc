// See preallocation_sharing.h.
#include "tflm_arena/runtime/preallocation_sharing.h"

#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/model/lifetimes.h"

namespace tflm_arena {
namespace runtime {
namespace {

bool BytesOverlap(const Preallocation& a, const Preallocation& b) {
  const uintptr_t a0 = reinterpret_cast<uintptr_t>(a.buffer);
  const uintptr_t b0 = reinterpret_cast<uintptr_t>(b.buffer);
  return a0 < b0 + b.bytes && b0 < a0 + a.bytes;
}

std::string StepsText(const model::AllocationEntry* e) {
  if (e == nullptr) return "None";
  return "(" + std::to_string(e->first_created) + ", " + std::to_string(e->last_used) + ")";
}

}  // namespace

Status CheckPreallocationSharing(const model::Model& model, Span<const Preallocation> registered,
                                 const Preallocation& candidate) {
  bool any = false;
  for (const Preallocation& p : registered) {
    any = any || (p.tensor_index != candidate.tensor_index && BytesOverlap(p, candidate));
  }
  if (!any) return Status::Ok();
  std::vector<model::AllocationEntry> entries(model::AllocationInfoCount(model, 0));
  TFLM_ARENA_RETURN_IF_ERROR(model::ComputeModelAllocationInfo(
      model, Span<const model::ScratchRequest>(), Span<model::AllocationEntry>(entries)));
  // Subgraph 0's tensors come first; a tensor counts as live only if planned.
  auto lifetime = [&](int tensor) -> const model::AllocationEntry* {
    if (tensor < 0 || static_cast<size_t>(tensor) >= model.num_tensors(0)) return nullptr;
    const model::AllocationEntry& e = entries[static_cast<size_t>(tensor)];
    return e.needs_allocating ? &e : nullptr;
  };
  const model::AllocationEntry* a = lifetime(candidate.tensor_index);
  for (const Preallocation& p : registered) {
    if (p.tensor_index == candidate.tensor_index || !BytesOverlap(p, candidate)) continue;
    const model::AllocationEntry* b = lifetime(p.tensor_index);
    if (a != nullptr && b != nullptr &&
        (a->first_created > b->last_used || b->first_created > a->last_used)) {
      continue;
    }
    return Status::Error(StatusCode::kInvalidArgument,
                         "preallocated buffers of tensors %d and %d share memory while both "
                         "tensors are live (steps %s and %s); give each its own array",
                         p.tensor_index, candidate.tensor_index, StepsText(b).c_str(),
                         StepsText(a).c_str());
  }
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena
