#include "tflm_arena/plan/memory_planner.h"

namespace tflm_arena {

MemoryPlanner::~MemoryPlanner() = default;

Status MemoryPlanner::Init(uint8_t* /*scratch*/, size_t /*scratch_bytes*/) { return Status::Ok(); }

Status MemoryPlanner::AddBuffer(int /*size*/, int /*first_step*/, int /*last_step*/,
                                int fixed_offset) {
  return Status::Error(StatusCode::kUnimplemented,
                       "this planner does not support fixed offsets (got %d)", fixed_offset);
}

Status MemoryPlanner::CheckNewBuffer(int index, int max_buffer_count, int size, int first_step,
                                     int last_step) {
  if (index >= max_buffer_count) {
    return Status::TooSmall(0, "Too many buffers (max is %d)", max_buffer_count);
  }
  if (size < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "buffer %d: size %d is negative", index,
                         size);
  }
  if (first_step > last_step) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "buffer %d: first_step %d is after last_step %d", index, first_step,
                         last_step);
  }
  return Status::Ok();
}

}  // namespace tflm_arena
