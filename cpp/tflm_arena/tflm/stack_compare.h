// "Will my update break it?": one model's stock-TFLM arena on two builds
// (usually one target at two stack versions, stack_versions.h), with the
// operators whose kernel allocations differ between them.
#ifndef TFLM_ARENA_TFLM_STACK_COMPARE_H_
#define TFLM_ARENA_TFLM_STACK_COMPARE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/tflm/kernel_refusals.h"
#include "tflm_arena/tflm/tflm_arena_size.h"

namespace tflm_arena {
namespace tflm {

// What one operator's kernel asks of the arena on one build: persistent
// bytes (builtin options, Init, Prepare's persistent buffers; as requested,
// before alignment) and scratch-buffer requests (bytes, summed).
struct OperatorAllocations {
  uint64_t persistent = 0;
  uint64_t scratch = 0;
  uint32_t scratch_requests = 0;
};

// One operator whose allocations differ between the two builds.
struct OperatorChange {
  size_t subgraph = 0;
  size_t op_index = 0;  // within the subgraph
  std::string op_name;
  OperatorAllocations from, to;
};

// One side of the comparison: the arena, or TFLM's refusal.
struct StackSide {
  std::string name;  // "TARGET@VERSION"
  std::string description;
  bool refused = false;
  Refusal refusal;
  TflmArenaSize arena;  // when !refused
};

struct StackComparison {
  StackSide from, to;
  // Operators whose persistent or scratch bytes differ (empty when either
  // side refuses the model), in model order.
  std::vector<OperatorChange> changes;
};

// The model's arena with `from` and `to` (their targets may name versions),
// and the operators that change. A refusal by either build is a result, not
// an error; other errors (an unknown target, a model error) are returned.
Status CompareStacks(const model::Model& model, const TflmArenaOptions& from,
                     const TflmArenaOptions& to, StackComparison* out);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_STACK_COMPARE_H_
