// CALL_ONCE: runs its init subgraph on the first Invoke only, TFLM's
// call_once.cc (the wake-word models' initial state). Options
// CallOnceOptions: init_subgraph_index (field 0). No inputs or outputs.
// Not reset by Reset (TFLM's kernel has no reset). We also refuse an init
// subgraph equal to its own subgraph (TFLM would recurse until the stack
// overflows).
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "CALL_ONCE";

struct CallOnceOptions {
  int32_t init_subgraph_index = 0;
};

void ReadCallOnce(model::OptionsTable& table, CallOnceOptions& o) {
  o.init_subgraph_index = table.Int32(0, 0);
}

struct CallOnceOpData {
  int32_t init_subgraph_index = 0;
  bool has_run = false;
};

Status CallOncePrepare(KernelContext& context, Node& node) {
  auto* data = static_cast<CallOnceOpData*>(node.user_data);
  if (data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 0, 0, 0, 0));
  data->init_subgraph_index =
      node.builtin_data == nullptr ? 0 : node.options<CallOnceOptions>().init_subgraph_index;
  data->has_run = false;
  const size_t subgraphs = context.interpreter()->model().num_subgraphs();
  const int32_t index = data->init_subgraph_index;
  if (index < 0 || static_cast<size_t>(index) >= subgraphs ||
      static_cast<uint32_t>(index) == node.subgraph) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: init subgraph %d is not another of the model's %zu subgraphs", kOp,
                         static_cast<int>(index), subgraphs);
  }
  return Status::Ok();
}

Status CallOnceInvoke(KernelContext& context, Node& node) {
  auto* data = static_cast<CallOnceOpData*>(node.user_data);
  if (data == nullptr) return NodeNotPrepared(kOp);
  if (data->has_run) return Status::Ok();
  TFLM_ARENA_RETURN_IF_ERROR(
      context.InvokeSubgraph(static_cast<size_t>(data->init_subgraph_index)));
  data->has_run = true;
  return Status::Ok();
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinCallOnce, kOp, InitOpData<CallOnceOpData>, CallOncePrepare, CallOnceInvoke,
    OptionsReader<CallOnceOptions, ReadCallOnce>(model::kCallOnceOptions));

}  // namespace

const KernelRegistration& Register_CALL_ONCE() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
