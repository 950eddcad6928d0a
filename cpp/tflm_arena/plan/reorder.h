// Operator reordering for a lower peak of live tensor bytes.
//
// Works on a plain graph (no flatbuffers): operators with input/output tensor
// ids, the planned size of each tensor and the graph's inputs/outputs. The
// peak of an order is what LowerBound() gives for the usage records TFLM
// would build from that order (TFLM's allocation-scope walk in
// micro_allocation_info.cc, MarkSubgraphLifetimesIfNecessary):
//  - graph inputs are live from step 0; operator at position p runs at step
//    p+1; a tensor lives from its first producer's step to its last user's
//    step (readers and producers), graph outputs to the last step;
//  - a tensor read but never produced (and not an input) lives from step -1;
//    one never referenced lives at step -1 only; an unproduced, unread graph
//    output lives at the last step only;
//  - `extra_bytes` of an operator are live during its own step only (how
//    TFLM places a kernel's scratch buffers).
// Valid orders respect data flow (a tensor's single producer runs before its
// readers; graph inputs have no producer edge) and keep the original
// relative order of every operator touching a "stateful" tensor (variables,
// tensors written by several operators) and of all `ordered` operators
// (side effects). These edges follow the original order, so the original
// order is valid unless some operator reads a tensor produced after it.
//
// Search (reorder.cc): the best of
//  1. the original order;
//  2. beam search over executed-operator sets (width 1 = greedy), scored by
//     (peak so far, bytes live after the step);
//  3. exact search: bottleneck-Dijkstra over downsets of the dependency
//     graph with memoisation (SERENITY-style DP): states are executed sets,
//     a step's cost is the bytes live while the next operator runs, a path's
//     cost is its maximum. States are expanded by increasing peak, pruned at
//     the best peak known, so the first complete set reached is optimal and
//     an exhausted queue proves the incumbent optimal;
//  4. if the exact search ran out of budget (it gets 3/4 of what is left),
//     wider beams (4, 16, ... 4096) with the rest.
// Memory is bounded whatever the options: the memoised sets take at most
// 64 MiB, the queue at most 4 x max_states entries, beam paths at most 2^22
// nodes.
// Deterministic: ties are broken by state size, operator index and
// insertion order; the budgets that decide the result are counts (states,
// expansions). The wall-clock limit is only a safety net (hitting it can
// make the answer machine dependent; `timed_out` says so).
// Host code (standard library).
#ifndef TFLM_ARENA_PLAN_REORDER_H_
#define TFLM_ARENA_PLAN_REORDER_H_

#include <cstdint>
#include <vector>

#include "tflm_arena/core/reorder_graph.h"
#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"

namespace tflm_arena {

struct ReorderOptions {
  double time_limit_seconds = 1.0;  // wall-clock safety net; <= 0: none
  uint64_t max_states = 1u << 20;  // exact search: states kept (memoised; capped at 64 MiB of sets)
  uint64_t max_expansions = uint64_t{1}
                            << 27;  // all searches: loop iterations (~0.4 s on a desktop core)
};

struct ReorderResult {
  std::vector<int32_t> order;       // original operator indices, in run order
  int64_t peak_before = 0;          // peak of the original order
  int64_t peak_after = 0;           // peak of `order` (<= peak_before)
  int64_t lower_bound = 0;          // no order can go below this
  bool exact = false;               // `order` is proven peak-optimal
  bool timed_out = false;           // the wall-clock limit stopped a search
  const char* method = "original";  // which search found `order`
  uint64_t states = 0;              // exact search states created
  uint64_t expansions = 0;          // successor evaluations, all searches
};

// Checks ids (tensors in range, -1 only as an operator input), sizes >= 0,
// no operator reading its own output, the dependency graph acyclic (an
// error names the operators of a cycle and the tensors linking them) and
// the original order valid.
Status ValidateReorderGraph(const ReorderGraph& graph);

// `order` is a permutation of the operators that respects every dependency.
// Messages name the operator and tensor at fault.
Status CheckOperatorOrder(const ReorderGraph& graph, Span<const int32_t> order);

// Peak live bytes of running the operators in `order` (checked), computed by
// building TFLM's lifetimes for that order and taking LowerBound().
Status OrderPeak(const ReorderGraph& graph, Span<const int32_t> order, int64_t* peak);

// Finds an order with the lowest peak it can (see above). Never worse than
// the original order, which it returns when nothing better is found.
Status ReorderForPeak(const ReorderGraph& graph, const ReorderOptions& options,
                      ReorderResult* result);

}  // namespace tflm_arena

#endif  // TFLM_ARENA_PLAN_REORDER_H_
