// RegisterPreallocatedTensor: the RFC's application-owned tensor buffers
// (facts section 7). The registrations wait in a small table inside the
// Interpreter object (no arena bytes) until StartModelAllocation sets the
// tensors' data pointers, which keeps them out of the plan (TFLM plans only tensors whose data pointer is null).
#include <cinttypes>

#include "tflm_arena/core/align.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/runtime/interpreter.h"

namespace tflm_arena {
namespace runtime {

Status Interpreter::RegisterPreallocatedTensor(int tensor_index,
                                               uint8_t* buffer, size_t bytes) {
  if (state_ != State::kCreated) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "RegisterPreallocatedTensor(%d): only allowed before "
                         "AllocateTensors()",
                         tensor_index);
  }
  if (!model_.loaded()) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "RegisterPreallocatedTensor: the model is not loaded");
  }
  const size_t count = model_.num_tensors(0);
  if (tensor_index < 0 || static_cast<size_t>(tensor_index) >= count) {
    return Status::Error(StatusCode::kOutOfRange,
                         "RegisterPreallocatedTensor: tensor %d out of range "
                         "(subgraph 0 has %zu tensors)",
                         tensor_index, count);
  }
  for (size_t k = 0; k < preallocated_count_; ++k) {
    if (preallocated_[k].tensor == tensor_index) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "RegisterPreallocatedTensor: tensor %d is already "
                           "registered",
                           tensor_index);
    }
  }
  model::TensorInfo info;
  TFLM_ARENA_RETURN_IF_ERROR(
      model_.tensor(0, static_cast<size_t>(tensor_index), &info));
  if (info.has_constant_data) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "RegisterPreallocatedTensor: tensor %d ('%s') is a "
                         "constant; its data lives in the model",
                         tensor_index, info.name);
  }
  model::OfflinePlanView offline;
  bool has_offline = false;
  TFLM_ARENA_RETURN_IF_ERROR(
      model::DecodeOfflinePlan(model_, &offline, &has_offline));
  // Subgraph 0's tensors come first in the offline plan.
  if (has_offline && offline.offset(static_cast<size_t>(tensor_index)) !=
                         model::kOfflinePlanOnline) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "RegisterPreallocatedTensor: tensor %d ('%s') is "
                         "offline-planned at offset %" PRId32
                         " and cannot be preallocated",
                         tensor_index, info.name,
                         offline.offset(static_cast<size_t>(tensor_index)));
  }
  if (buffer == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "RegisterPreallocatedTensor: tensor %d: null buffer",
                         tensor_index);
  }
  if (reinterpret_cast<uintptr_t>(buffer) % kArenaAlignment != 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "RegisterPreallocatedTensor: tensor %d: buffer is not "
                         "%zu-byte aligned",
                         tensor_index, kArenaAlignment);
  }
  size_t needed = 0;
  TFLM_ARENA_RETURN_IF_ERROR(
      model_.tensor_bytes(0, static_cast<size_t>(tensor_index), &needed));
  if (bytes < needed) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "RegisterPreallocatedTensor: tensor %d needs %zu "
                         "bytes, the buffer has %zu",
                         tensor_index, needed, bytes);
  }
  if (preallocated_count_ >= kMaxPreallocatedTensors) {
    return Status::Error(StatusCode::kOutOfRange,
                         "RegisterPreallocatedTensor: at most %zu tensors can "
                         "be preallocated",
                         kMaxPreallocatedTensors);
  }
  preallocated_[preallocated_count_].tensor = tensor_index;
  preallocated_[preallocated_count_].buffer = buffer;
  ++preallocated_count_;
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena
