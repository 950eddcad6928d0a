#include "tflm_arena/plan/memory_planner.h"

namespace tflm_arena {

MemoryPlanner::~MemoryPlanner() = default;

Status MemoryPlanner::Init(uint8_t* /*scratch*/, size_t /*scratch_bytes*/) { return Status::Ok(); }

Status MemoryPlanner::AddBuffer(int /*size*/, int /*first_step*/, int /*last_step*/,
                                int fixed_offset) {
  return Status::Error(StatusCode::kUnimplemented,
                       "this planner does not support fixed offsets (got %d)", fixed_offset);
}

int MemoryPlanner::PrintMemoryPlan(char* out, size_t out_size) {
  if (out != nullptr && out_size > 0) out[0] = '\0';
  return 0;
}

}  // namespace tflm_arena
