// The plain operator graph that model/operator_graph.h builds from a model
// and plan/reorder.h reorders: operators with input/output tensor ids, the
// planned size of each tensor and the graph's inputs/outputs. Plain data in
// core/ so that model/ need not include plan/. Host code (std::vector): only
// host libraries include it.
#ifndef TFLM_ARENA_CORE_REORDER_GRAPH_H_
#define TFLM_ARENA_CORE_REORDER_GRAPH_H_

#include <cstdint>
#include <vector>

namespace tflm_arena {

struct ReorderOp {
  std::vector<int32_t> inputs;   // tensor ids; -1 = omitted optional input
  std::vector<int32_t> outputs;  // tensor ids
  int64_t extra_bytes = 0;       // live only while this operator runs (>= 0)
  bool ordered = false;          // side effects: keeps its place among ordered ops
};

struct ReorderGraph {
  std::vector<int64_t> tensor_bytes;  // planned bytes; 0 = not planned (constant, variable, empty)
  std::vector<int32_t> inputs;        // graph inputs (live from step 0)
  std::vector<int32_t> outputs;       // graph outputs (live to the last step)
  std::vector<int32_t> stateful_tensors;  // touched in place: users keep their order
  std::vector<ReorderOp> ops;             // in the original order
};

}  // namespace tflm_arena

#endif  // TFLM_ARENA_CORE_REORDER_GRAPH_H_
