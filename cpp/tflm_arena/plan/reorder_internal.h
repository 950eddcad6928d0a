// What the reorder searches need from a validated graph (reorder_graph.cc):
// dependencies, and per tensor how it enters the live set, so the bytes live
// at a step follow from the set of executed operators alone.
#ifndef TFLM_ARENA_PLAN_REORDER_INTERNAL_H_
#define TFLM_ARENA_PLAN_REORDER_INTERNAL_H_

#include <cstdint>
#include <vector>

#include "tflm_arena/core/status.h"
#include "tflm_arena/plan/reorder.h"

namespace tflm_arena {
namespace plan_internal {

// How a planned tensor becomes live (see reorder.h for the rules).
enum class Enters : uint8_t {
  kAtStart,   // graph input, or read but never produced: live from step <= 0
  kProduced,  // from its first producer's step
  kAtEnd,     // unproduced, unread graph output: the last step only
  kNever,     // never referenced: step -1 only (order independent)
};

struct Prepared {
  size_t num_ops = 0;
  std::vector<std::vector<int32_t>> preds, succs;  // sorted, distinct
  std::vector<Enters> enters;                      // per tensor
  std::vector<uint8_t> is_output;                  // per tensor
  std::vector<std::vector<int32_t>> producers;     // per planned tensor, sorted
  std::vector<std::vector<int32_t>> users;    // per planned tensor: readers and producers, sorted
  std::vector<std::vector<int32_t>> touched;  // per op: distinct planned tensors it reads or writes
  std::vector<std::vector<int32_t>> made;     // per op: distinct planned kProduced outputs
  int64_t before_ops = 0;                     // peak of steps -1 and 0 (order independent)
  int64_t start_live = 0;                     // bytes live after step 0 that stay for step 1
  int64_t end_bytes = 0;                      // kAtEnd tensors, added at the last step
};

// Validates `g` (ValidateReorderGraph) and fills `p`.
Status Prepare(const ReorderGraph& g, Prepared* p);

}  // namespace plan_internal
}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_REORDER_INTERNAL_H_
