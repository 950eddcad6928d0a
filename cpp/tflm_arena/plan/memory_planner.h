// MemoryPlanner: the interface every runtime planner implements (TFLM's
// MicroMemoryPlanner, with Status results instead of TfLiteStatus + logging).
//
// A client registers buffers in order (the call order is the buffer index,
// 0, 1, 2, ...), each with a size and an INCLUSIVE lifetime
// [first_step, last_step], then asks for offsets. Planners own no memory: any
// working space comes from the scratch block handed to Init(), so a planner
// can run on a microcontroller with no heap.
#ifndef TFLM_ARENA_PLAN_MEMORY_PLANNER_H_
#define TFLM_ARENA_PLAN_MEMORY_PLANNER_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {

class MemoryPlanner {
 public:
  // Out of line so the vtable lives in one translation unit (memory_planner.cc).
  virtual ~MemoryPlanner();

  // Hands the planner its working memory and forgets all buffers. The
  // default (planners needing no scratch) accepts anything.
  virtual Status Init(uint8_t* scratch, size_t scratch_bytes);

  // Registers buffer number GetBufferCount(); the planner picks its offset.
  virtual Status AddBuffer(int size, int first_step, int last_step) = 0;
  // Registers a buffer whose offset is fixed in advance (an offline plan);
  // fixed_offset == -1 means "planner chooses", as in TFLM. The default
  // rejects fixed offsets, like TFLM's base class.
  virtual Status AddBuffer(int size, int first_step, int last_step, int fixed_offset);

  virtual Status GetOffsetForBuffer(int index, int* offset) = 0;
  // Bytes from offset 0 to the end of the highest buffer (TFLM's head size).
  virtual int GetMaximumMemorySize() = 0;
  virtual int GetBufferCount() const = 0;
  // True when no two buffers share memory (every tensor stays readable).
  virtual bool preserves_all_tensors() const = 0;
  // Working memory Init() needs per buffer (the interpreter hands a planner
  // exactly buffers x this, from the arena's temp section).
  virtual size_t scratch_bytes_per_buffer() const = 0;

  // (TFLM's interface also has a virtual PrintMemoryPlan. Here only
  // GreedyPlanner prints, non-virtually: a vtable entry would link the text
  // renderer and the formatter into every program that plans.)

 protected:
  // Planners are never heap-allocated. This class-scope delete (TFLM's
  // TF_LITE_REMOVE_VIRTUAL_DELETE) is what the virtual destructor's deleting
  // variant calls, so the runtime links no global operator delete; being
  // protected, `delete planner` does not compile outside the hierarchy.
  static void operator delete(void*) {}

  // Checks shared by every planner's AddBuffer for buffer number `index`:
  // capacity (kArenaTooSmall "Too many buffers (max is N)", as TFLM),
  // size >= 0 and first_step <= last_step (kInvalidArgument naming it).
  static Status CheckNewBuffer(int index, int max_buffer_count, int size, int first_step,
                               int last_step);
};

}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_MEMORY_PLANNER_H_
