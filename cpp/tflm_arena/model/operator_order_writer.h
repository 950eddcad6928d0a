// Writes a COPY of a .tflite model whose subgraph 0 runs its operators in a
// given order; everything else keeps its meaning byte for byte.
//
// Same technique as offline_plan_writer.h: a prefix holds a new root Model
// table, a new `subgraphs` vector, a new SubGraph table for subgraph 0 (its
// tensors, inputs, outputs and name point at the original bytes) and a new
// `operators` vector whose entries point at the original Operator tables in
// the new order; the original file follows unchanged (absolute
// Buffer.offset fields of large models are shifted by the prefix length).
//
// The caller checks that the order respects the operators' dependencies
// (every operator after the producers of what it reads, users of a
// variable and side-effecting operators in their original relative order):
// plan/reorder.h's CheckOperatorOrder on model/operator_graph.h's graph, as
// the bindings do. This layer does not depend on plan/.
//
// Checks, each failing with a message naming the fault:
//  - subgraph 0 has no control flow (BuildOperatorGraph's refusal) and the
//    order is a permutation of its operators;
//  - an OfflineMemoryAllocation plan is kept only if the new lifetimes make
//    no fixed tensors share bytes that did not already share them
//    (model/offline_aliases.h finds the aliased pairs; else
//    kInvalidArgument; `drop_offline_plan` removes the metadata entry);
//  - the output verifies (Model::FromBuffer).
// Host tool (standard library).
#ifndef TFLM_ARENA_MODEL_OPERATOR_ORDER_WRITER_H_
#define TFLM_ARENA_MODEL_OPERATOR_ORDER_WRITER_H_

#include <cstdint>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace model {

// `model` must be 16-byte aligned (as Model::FromBuffer requires).
Status WriteOperatorOrder(const uint8_t* model, size_t model_size, Span<const int32_t> order,
                          bool drop_offline_plan, std::vector<uint8_t>* out);

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_OPERATOR_ORDER_WRITER_H_
