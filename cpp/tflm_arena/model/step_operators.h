// Which operator runs at each step of TFLM's allocation-scope counter, the
// steps tensor lifetimes are expressed in (lifetimes.h): step 0 holds
// subgraph 0's inputs and no operator; every operator takes the next step,
// in order; a control-flow operator (IF, WHILE, CALL_ONCE) then takes one
// more step before each subgraph it invokes, whose operators follow
// recursively (TFLM's micro_allocation_info.cc, MarkAllocationLifetimes and
// MarkSubgraphLifetimesIfNecessary).
// The steps are taken by lifetimes.cc's walk, the one that sets the
// lifetimes, so the two cannot disagree. The CLI labels steps with this.
//
// Fails as ComputeAllocationInfo does on a control-flow cycle, nesting
// deeper than kMaxControlFlowDepth, or more than kMaxLifetimeWork steps.
//
// Runtime code: no heap; the caller provides the output array.
#ifndef TFLM_ARENA_MODEL_STEP_OPERATORS_H_
#define TFLM_ARENA_MODEL_STEP_OPERATORS_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace model {

// The operator running at a step (the control-flow operator itself for the
// step before each subgraph it invokes).
struct StepOperator {
  uint32_t subgraph = 0;
  uint32_t op = 0;     // operator index within its subgraph
  int32_t calls = -1;  // -1: the operator's own step; else the subgraph
                       // it invokes after this step
};

// Writes the operator of step s (s >= 1) to out[s - 1] while s - 1 <
// out.size(), and sets *num_steps to the number of steps that have an
// operator (the last step), so a caller may ask with an empty span first.
// A model without subgraphs has none.
Status ComputeStepOperators(const Model& model, Span<StepOperator> out, size_t* num_steps);

namespace internal {
// The walk of ComputeAllocationInfo (lifetimes.cc) without entries: writes
// the steps as above. Needs at least one subgraph.
Status WalkSteps(const Model& model, Span<StepOperator> out, size_t* num_steps);
}  // namespace internal

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_STEP_OPERATORS_H_
