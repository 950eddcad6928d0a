// See step_operators.h.
#include "tflm_arena/model/step_operators.h"

#include <cinttypes>

#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/lifetimes.h"

namespace tflm_arena {
namespace model {
namespace {

class StepWalker {
 public:
  StepWalker(const Model& model, Span<StepOperator> out) : model_(model), out_(out) {}

  Status Walk(uint32_t sg, size_t depth);
  size_t steps() const { return steps_; }

 private:
  // Work bound: a step costs 1, looking up subgraph sg costs sg + 1 (as in
  // lifetimes.cc, whose charges for the same walk are never smaller, so a
  // model with lifetimes always has its steps).
  bool Charge(size_t n) {
    if (n > kMaxWork - work_) return false;
    work_ += n;
    return true;
  }
  // Takes the next step for (sg, op, calls); false past the work bound.
  bool Take(uint32_t sg, uint32_t op, int32_t calls) {
    if (!Charge(1)) return false;
    if (steps_ < out_.size()) out_[steps_] = StepOperator{sg, op, calls};
    ++steps_;
    return true;
  }
  Status TooManySteps() const {
    return Status::Error(StatusCode::kInvalidArgument,
                         "lifetime computation exceeds %" PRIu64
                         " steps (control flow invokes subgraphs too many "
                         "times)",
                         kMaxLifetimeWork);
  }
  static constexpr size_t kMaxWork = static_cast<size_t>(kMaxLifetimeWork);

  const Model& model_;
  Span<StepOperator> out_;
  size_t steps_ = 0;
  size_t work_ = 0;
  uint32_t path_[kMaxControlFlowDepth] = {};  // subgraphs being walked
};

Status StepWalker::Walk(uint32_t sg, size_t depth) {
  path_[depth] = sg;
  if (!Charge(size_t{sg} + 1)) return TooManySteps();
  SubgraphInfo g;
  TFLM_ARENA_RETURN_IF_ERROR(model_.subgraph(sg, &g));
  for (size_t i = 0; i < g.num_operators; ++i) {
    OperatorInfo op;
    TFLM_ARENA_RETURN_IF_ERROR(model_.op(sg, i, &op));
    const uint32_t index = static_cast<uint32_t>(i);
    if (!Take(sg, index, -1)) return TooManySteps();
    for (size_t k = 0; k < op.called.count; ++k) {
      const int32_t callee = op.called.index[k];
      const char* name = BuiltinCodeName(op.builtin_code);
      for (size_t d = 0; d <= depth; ++d) {
        if (path_[d] == static_cast<uint32_t>(callee)) {
          return Status::Error(StatusCode::kInvalidArgument,
                               "control-flow cycle: subgraph %" PRIu32
                               " operator %zu (%s) "
                               "invokes subgraph %" PRId32 ", which is already being executed",
                               sg, i, name == nullptr ? "?" : name, callee);
        }
      }
      if (depth + 1 >= kMaxControlFlowDepth) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "subgraph %" PRIu32
                             " operator %zu (%s): control flow nests "
                             "deeper than %zu subgraphs",
                             sg, i, name == nullptr ? "?" : name, kMaxControlFlowDepth);
      }
      if (!Take(sg, index, callee)) return TooManySteps();
      TFLM_ARENA_RETURN_IF_ERROR(Walk(static_cast<uint32_t>(callee), depth + 1));
    }
  }
  return Status::Ok();
}

}  // namespace

Status ComputeStepOperators(const Model& model, Span<StepOperator> out, size_t* num_steps) {
  *num_steps = 0;
  if (model.num_subgraphs() == 0) return Status::Ok();
  StepWalker walker(model, out);
  TFLM_ARENA_RETURN_IF_ERROR(walker.Walk(0, 0));
  *num_steps = walker.steps();
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
