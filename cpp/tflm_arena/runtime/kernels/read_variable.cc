// READ_VARIABLE: copies a resource variable (input 0: the id VAR_HANDLE
// set) into its output, TFLM's read_variable.cc (resource_variables.h). We
// also require the output's bytes to equal the variable's.
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

constexpr const char* kOp = "READ_VARIABLE";

Status ReadPrepare(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 1, 1, 1, 1));
  model::TensorInfo id, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &id));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  if (id.type != model::TensorType::kResource || id.num_elements != 1) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: input 0 must be one RESOURCE element",
                         kOp);
  }
  return RequireWritableOutput(kOp, out);
}

Status ReadInvoke(KernelContext& context, Node& node) {
  const EvalTensor* id = context.input(node, 0);
  EvalTensor* out = context.output(node, 0);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, id));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, out));
  ResourceVariable* v = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(
      ResourceVariableAt(GetResourceVariables(context), id->as<const int32_t>()[0], &v));
  const size_t bytes = static_cast<size_t>(out->num_elements()) * model::ElementByteSize(out->type);
  if (v->buffer == nullptr || bytes != v->bytes) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: an output of %zu bytes for a variable of %u", kOp, bytes,
                         static_cast<unsigned>(v->bytes));
  }
  std::memcpy(out->data, v->buffer, bytes);
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinReadVariable, kOp, nullptr, ReadPrepare, ReadInvoke);

}  // namespace

const KernelRegistration& Register_READ_VARIABLE() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
