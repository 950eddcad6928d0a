#include "tflm_arena/tflm/stack_compare.h"

#include <utility>

#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/tflm/allocation_trace.h"
#include "tflm_arena/tflm/build_targets.h"

namespace tflm_arena {
namespace tflm {
namespace {

// Per operator (subgraph 0 first) of `trace`: its persistent and scratch bytes.
std::vector<OperatorAllocations> PerOperator(const model::Model& model, const Trace& trace) {
  std::vector<OperatorAllocations> out(trace.op_names.size());
  for (const Event& e : trace.events) {
    if (e.kind != EventKind::kTail || e.op < 0 || static_cast<size_t>(e.op) >= out.size()) {
      continue;
    }
    out[static_cast<size_t>(e.op)].persistent += e.size;
  }
  std::vector<size_t> first(model.num_subgraphs(), 0);
  for (size_t sg = 1; sg < first.size(); ++sg)
    first[sg] = first[sg - 1] + model.num_operators(sg - 1);
  for (const model::ScratchRequest& r : trace.scratch) {
    if (r.subgraph_idx < 0 || static_cast<size_t>(r.subgraph_idx) >= first.size() ||
        r.node_idx < 0) {
      continue;
    }
    const size_t k = first[static_cast<size_t>(r.subgraph_idx)] + static_cast<size_t>(r.node_idx);
    if (k >= out.size()) continue;
    out[k].scratch += r.bytes;
    out[k].scratch_requests += 1;
  }
  return out;
}

// One side: its trace (for the per-operator figures) and its arena.
Status Side(const model::Model& model, const TflmArenaOptions& options, StackSide* side,
            std::vector<OperatorAllocations>* ops) {
  ResolvedTarget resolved;
  Trace trace;
  Refusal refusal;
  const Status built = BuildTargetTrace(model, options, &resolved, &trace, &refusal);
  if (resolved.target != nullptr) {
    side->name = resolved.name;
    side->description = resolved.description;
  }
  if (!built.ok() && refusal.refused) {
    side->refused = true;
    side->refusal = std::move(refusal);
    return Status::Ok();
  }
  TFLM_ARENA_RETURN_IF_ERROR(built);
  TFLM_ARENA_RETURN_IF_ERROR(ComputeTflmArenaSize(model, options, &side->arena));
  *ops = PerOperator(model, trace);
  return Status::Ok();
}

}  // namespace

Status CompareStacks(const model::Model& model, const TflmArenaOptions& from,
                     const TflmArenaOptions& to, StackComparison* out) {
  *out = StackComparison();
  std::vector<OperatorAllocations> a, b;
  TFLM_ARENA_RETURN_IF_ERROR(Side(model, from, &out->from, &a));
  TFLM_ARENA_RETURN_IF_ERROR(Side(model, to, &out->to, &b));
  if (out->from.refused || out->to.refused || a.size() != b.size()) return Status::Ok();
  size_t k = 0;
  for (size_t sg = 0; sg < model.num_subgraphs(); ++sg) {
    for (size_t i = 0; i < model.num_operators(sg); ++i, ++k) {
      if (k >= a.size()) return Status::Ok();
      if (a[k].persistent == b[k].persistent && a[k].scratch == b[k].scratch &&
          a[k].scratch_requests == b[k].scratch_requests) {
        continue;
      }
      model::OperatorInfo op;
      TFLM_ARENA_RETURN_IF_ERROR(model.op(sg, i, &op));
      const char* name = op.builtin_code == model::kBuiltinCustom
                             ? op.custom_code
                             : model::BuiltinCodeName(op.builtin_code);
      out->changes.push_back(OperatorChange{sg, i, name == nullptr ? "?" : name, a[k], b[k]});
    }
  }
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
