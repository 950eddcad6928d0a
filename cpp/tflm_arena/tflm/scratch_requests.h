// The scratch buffers stock TFLM's kernels request for a model
// (RequestScratchBufferInArena in Prepare): bytes, operator
// and subgraph, in the order TFLM appends them to its planner. TFLM places
// them online with its greedy planner, also around an offline plan's fixed
// tensors, so a plan written into a model must leave room for them.
#ifndef TFLM_ARENA_TFLM_SCRATCH_REQUESTS_H_
#define TFLM_ARENA_TFLM_SCRATCH_REQUESTS_H_

#include <string>
#include <vector>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/tflm/kernel_refusals.h"

namespace tflm_arena {
namespace tflm {

// target: a build target name (build_targets.h). Errors as BuildTrace's
// (an operator whose kernel is not modelled is kUnimplemented, named; a
// model stock TFLM refuses is kFailedPrecondition with *refusal filled).
Status TflmScratchRequests(const model::Model& model, const std::string& target,
                           std::vector<model::ScratchRequest>* out, Refusal* refusal = nullptr);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_SCRATCH_REQUESTS_H_
