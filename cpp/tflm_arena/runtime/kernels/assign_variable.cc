// ASSIGN_VARIABLE: copies its value (input 1) into a resource variable
// (input 0: the id VAR_HANDLE set), TFLM's assign_variable.cc; its Prepare
// allocates the variable's buffer on first use (resource_variables.h). No
// outputs. We also require the value's bytes to equal the variable's.
#include <cstring>

#include "tflm_arena/model/tensor_type.h"
#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/resource_variables.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "ASSIGN_VARIABLE";

size_t Bytes(const EvalTensor& t) {
  return static_cast<size_t>(t.num_elements()) * model::ElementByteSize(t.type);
}

// The id input: RESOURCE or INT32 with one element (TFLM's check).
Status IdTensor(KernelContext& context, const Node& node, const EvalTensor** id) {
  *id = context.input(node, 0);
  if (*id == nullptr ||
      ((*id)->type != model::TensorType::kResource && (*id)->type != model::TensorType::kInt32) ||
      (*id)->num_elements() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input 0 must be one RESOURCE or INT32 element", kOp);
  }
  return Status::Ok();
}

Status AssignPrepare(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 2, 2, 0, 2));
  const EvalTensor* id = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(IdTensor(context, node, &id));
  const EvalTensor* value = context.input(node, 1);
  if (value == nullptr) return NodeNotPrepared(kOp);
  // As TFLM: the buffer is allocated only when the id is already known here
  // (VAR_HANDLE set it earlier in Prepare).
  if (id->data == nullptr) return Status::Ok();
  ResourceVariable* v = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(
      ResourceVariableAt(GetResourceVariables(context), id->as<const int32_t>()[0], &v));
  if (v->buffer != nullptr) return Status::Ok();
  model::TensorInfo info;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, &info));
  void* buffer = nullptr;
  const size_t bytes = Bytes(*value);
  if (bytes > UINT32_MAX) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: a variable of %zu bytes", kOp, bytes);
  }
  TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(bytes, &buffer));
  v->buffer = static_cast<uint8_t*>(buffer);
  v->bytes = static_cast<uint32_t>(bytes);
  if (!info.scale.empty() && !info.zero_point.empty()) {
    v->default_value = static_cast<int8_t>(info.zero_point[0]);
  }
  std::memset(v->buffer, v->default_value, bytes);
  return Status::Ok();
}

Status AssignInvoke(KernelContext& context, Node& node) {
  const EvalTensor* id = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(IdTensor(context, node, &id));
  const EvalTensor* value = context.input(node, 1);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, id));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, value));
  ResourceVariable* v = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(
      ResourceVariableAt(GetResourceVariables(context), id->as<const int32_t>()[0], &v));
  if (v->buffer == nullptr) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "%s: resource variable %d has no buffer (no ASSIGN_VARIABLE allocated "
                         "it in Prepare)",
                         kOp, static_cast<int>(id->as<const int32_t>()[0]));
  }
  if (Bytes(*value) != v->bytes) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: a value of %zu bytes for a variable of %u", kOp, Bytes(*value),
                         static_cast<unsigned>(v->bytes));
  }
  std::memcpy(v->buffer, value->data, v->bytes);
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinAssignVariable, kOp, nullptr, AssignPrepare, AssignInvoke);

}  // namespace

const KernelRegistration& Register_ASSIGN_VARIABLE() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
