// VAR_HANDLE: the id of a resource variable (resource_variables.h), TFLM's
// var_handle.cc. Options VarHandleOptions: container (field 0, string),
// shared_name (field 1, string). No inputs, one RESOURCE output, which
// points at the OpData's id (not planned in the head, as in TFLM). Reset
// refills the variable with its default.
#include <cstring>
#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/resource_variables.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "VAR_HANDLE";

// Laid out like TFLM's TfLiteVarHandleParams (16 bytes on 64-bit).
struct VarHandleOptions {
  const char* container = nullptr;  // null: absent
  const char* shared_name = nullptr;
};

Status ParseVarHandle(model::OptionsTable& table, void* out) {
  auto* o = new (out) VarHandleOptions();
  return VarHandleNames(table, &o->container, &o->shared_name);
}

struct VarHandleOpData {
  int32_t resource_id = -1;
};

Status VarHandleInit(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(InitOpData<VarHandleOpData>(context, node));
  ResourceVariables* table = nullptr;
  return CreateResourceVariables(context, &table);
}

Status VarHandlePrepare(KernelContext& context, Node& node) {
  auto* data = static_cast<VarHandleOpData*>(node.user_data);
  if (data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 0, 0, 1, 0));
  if (node.builtin_data == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: no VarHandleOptions (TFLM would compare a null name)", kOp);
  }
  const auto& o = node.options<VarHandleOptions>();
  ResourceVariables* table = GetResourceVariables(context);
  if (table == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(
      FindOrAddResourceVariable(table, o.container, o.shared_name, &data->resource_id));
  EvalTensor* out = context.output(node, 0);
  if (out == nullptr || out->num_elements() != 1) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: its output must hold one element", kOp);
  }
  out->data = reinterpret_cast<uint8_t*>(&data->resource_id);
  return Status::Ok();
}

Status VarHandleInvoke(KernelContext& context, Node& node) {
  auto* data = static_cast<VarHandleOpData*>(node.user_data);
  EvalTensor* out = context.output(node, 0);
  if (data == nullptr || out == nullptr) return NodeNotPrepared(kOp);
  out->data = reinterpret_cast<uint8_t*>(&data->resource_id);
  return Status::Ok();
}

// TFLM's ResetAll, variable by variable (each handle resets its own).
void VarHandleReset(KernelContext& context, Node& node) {
  const auto* data = static_cast<const VarHandleOpData*>(node.user_data);
  ResourceVariable* v = nullptr;
  if (data == nullptr ||
      !ResourceVariableAt(GetResourceVariables(context), data->resource_id, &v).ok() ||
      v->buffer == nullptr) {
    return;
  }
  std::memset(v->buffer, v->default_value, v->bytes);
}

constexpr KernelRegistration kRegistration{
    model::kBuiltinVarHandle,
    kOp,
    VarHandleInit,
    VarHandlePrepare,
    VarHandleInvoke,
    VarHandleReset,
    MakeOptionsParser<VarHandleOptions>(model::kVarHandleOptions, ParseVarHandle)};

}  // namespace

const KernelRegistration& Register_VAR_HANDLE() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
