// A model's subgraph 0 as the plain graph (core/reorder_graph.h) that
// plan/reorder.h works on.
//
// Tensor sizes are those of the usage records TFLM builds (needs_allocating
// entries, aligned to 16, offline plan included), so the peak of an order
// is LowerBound() of the records of the model rewritten in that order.
// Tensors of the other subgraphs are appended as never-referenced tensors
// (TFLM gives them lifetime (-1,-1) when no operator invokes them).
// Stateful: variable tensors. Ordered (side effects): resource-variable
// operators and custom operators. Operators that invoke subgraphs (IF,
// WHILE, CALL_ONCE) are not supported (kUnimplemented naming the operator):
// their lifetimes depend on the called subgraphs.
// Host code.
#ifndef TFLM_ARENA_MODEL_OPERATOR_GRAPH_H_
#define TFLM_ARENA_MODEL_OPERATOR_GRAPH_H_

#include "tflm_arena/core/reorder_graph.h"
#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace model {

Status BuildOperatorGraph(const Model& model, ReorderGraph* graph);

// As above, with kernel scratch requests (as ComputeAllocationInfo takes
// them): a subgraph-0 request adds its 16-aligned bytes to its operator's
// extra_bytes (live during that operator only: TFLM's
// micro_allocation_info.cc, MarkSubgraphLifetimesIfNecessary, gives a scratch
// request its operator's step); a request of another (never invoked)
// subgraph becomes a never-referenced tensor.
Status BuildOperatorGraph(const Model& model, Span<const ScratchRequest> scratch,
                          ReorderGraph* graph);

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_OPERATOR_GRAPH_H_
