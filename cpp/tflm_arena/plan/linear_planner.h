// LinearPlanner: TFLM's LinearMemoryPlanner (TFLM's
// memory_planner/linear_memory_planner.cc).
//
// Every buffer gets its own bytes: buffer i starts where buffer i-1 ends, and
// lifetimes are ignored. Nothing is ever reused, so every tensor stays
// readable after Invoke (preserves_all_tensors() is true) at the cost of an
// arena as big as the sum of all sizes. Fixed offsets are rejected, as in
// TFLM (an offline plan cannot be honoured by a planner that never reuses).
//
// Memory: TFLM keeps a fixed 1024-entry size_t array inside the object (8 KiB
// whether used or not, and a hard limit of 1024 buffers). Here, as with
// GreedyPlanner, the caller hands in scratch: kBytesPerBuffer (4: one int32
// offset) per buffer, capacity = scratch_bytes / 4 after aligning the start.
// The running total must fit in int32 (TFLM uses int).
#ifndef TFLM_ARENA_PLAN_LINEAR_PLANNER_H_
#define TFLM_ARENA_PLAN_LINEAR_PLANNER_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/plan/memory_planner.h"

namespace tflm_arena {

class LinearPlanner : public MemoryPlanner {
 public:
  static constexpr size_t kBytesPerBuffer = 4;

  LinearPlanner() = default;
  LinearPlanner(const LinearPlanner&) = delete;
  LinearPlanner& operator=(const LinearPlanner&) = delete;

  Status Init(uint8_t* scratch, size_t scratch_bytes) override;

  // Beyond capacity: kArenaTooSmall "Too many buffers (max is N)".
  Status AddBuffer(int size, int first_step, int last_step) override;
  // Always kUnimplemented, even for fixed_offset == -1 (as in TFLM).
  Status AddBuffer(int size, int first_step, int last_step, int fixed_offset) override;

  Status GetOffsetForBuffer(int index, int* offset) override;
  int GetMaximumMemorySize() override { return total_size_; }
  int GetBufferCount() const override { return buffer_count_; }
  bool preserves_all_tensors() const override { return true; }
  size_t scratch_bytes_per_buffer() const override { return kBytesPerBuffer; }
  int max_buffer_count() const { return max_buffer_count_; }

 private:
  int32_t* offsets_ = nullptr;
  int max_buffer_count_ = 0;
  int buffer_count_ = 0;
  int total_size_ = 0;
};

}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_LINEAR_PLANNER_H_
