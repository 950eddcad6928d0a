// See step_operators.h. The walk is lifetimes.cc's (one walk for lifetimes
// and steps).
#include "tflm_arena/model/step_operators.h"

namespace tflm_arena {
namespace model {

Status ComputeStepOperators(const Model& model, Span<StepOperator> out, size_t* num_steps) {
  *num_steps = 0;
  if (model.num_subgraphs() == 0) return Status::Ok();
  return internal::WalkSteps(model, out, num_steps);
}

}  // namespace model
}  // namespace tflm_arena
