#include "tflm_arena/plan/linear_planner.h"

#include <climits>

#include "tflm_arena/core/align.h"

namespace tflm_arena {

Status LinearPlanner::Init(uint8_t* scratch, size_t scratch_bytes) {
  if (scratch == nullptr && scratch_bytes > 0) {
    return Status::Error(StatusCode::kInvalidArgument, "scratch is null but scratch_bytes is %zu",
                         scratch_bytes);
  }
  uint8_t* start = scratch_bytes > 0 ? AlignPointerUp(scratch, alignof(int32_t)) : scratch;
  const size_t skipped = static_cast<size_t>(start - scratch);
  const size_t usable = scratch_bytes > skipped ? scratch_bytes - skipped : 0;
  size_t capacity = usable / kBytesPerBuffer;
  if (capacity > static_cast<size_t>(INT_MAX)) capacity = INT_MAX;
  offsets_ = reinterpret_cast<int32_t*>(start);
  max_buffer_count_ = static_cast<int>(capacity);
  buffer_count_ = 0;
  total_size_ = 0;
  return Status::Ok();
}

Status LinearPlanner::AddBuffer(int size, int first_step, int last_step) {
  const int index = buffer_count_;
  TFLM_ARENA_RETURN_IF_ERROR(CheckNewBuffer(index, max_buffer_count_, size, first_step, last_step));
  if (size > INT_MAX - total_size_) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "buffer %d: total size %lld does not fit in int32", index,
                         static_cast<long long>(total_size_) + size);
  }
  offsets_[index] = total_size_;
  total_size_ += size;
  ++buffer_count_;
  return Status::Ok();
}

Status LinearPlanner::AddBuffer(int /*size*/, int /*first_step*/, int /*last_step*/,
                                int fixed_offset) {
  return Status::Error(StatusCode::kUnimplemented,
                       "buffer %d: the linear planner does not support fixed offsets (got %d)",
                       buffer_count_, fixed_offset);
}

Status LinearPlanner::GetOffsetForBuffer(int index, int* offset) {
  if (index < 0 || index >= buffer_count_) {
    return Status::Error(StatusCode::kOutOfRange, "buffer index %d is outside range 0 to %d", index,
                         buffer_count_);
  }
  *offset = offsets_[index];
  return Status::Ok();
}

}  // namespace tflm_arena
