// RESHAPE kernel glue (math in reshape_math.cc). No init: like TFLM, the
// kernel asks for no persistent memory and no scratch.
#include "tflm_arena/runtime/kernels/reshape.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "RESHAPE";

Status ReshapePrepare(KernelContext& context, Node& node) {
  if (node.inputs.size() != 1 && node.inputs.size() != 2) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: needs 1 or 2 inputs, got %zu", kOp,
                         node.inputs.size());
  }
  if (node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: needs 1 output, got %zu", kOp,
                         node.outputs.size());
  }
  if (node.inputs[0] < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: input 0 is omitted but required", kOp);
  }
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
  if (in.type != out.type) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: input %s and output %s differ", kOp,
                         model::TensorTypeName(in.type), model::TensorTypeName(out.type));
  }
  if (model::ElementByteSize(in.type) == 0) {
    return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                         model::TensorTypeName(in.type));
  }
  const int64_t in_count = ReshapeElementCount(in.shape.data(), in.shape.size(), false);
  const int64_t out_count =
      ReshapeElementCount(out.shape.data(), out.shape.size(), node.inputs.size() == 1);
  if (in_count != out_count) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input has %lld elements but output shape holds %lld", kOp,
                         static_cast<long long>(in_count), static_cast<long long>(out_count));
  }
  // TFLM turns a legacy [0] output into a scalar by rewriting its dims
  // before planning; our output keeps the model's shape and is planned with
  // 0 bytes, so copying the scalar would write past it.
  if (out_count != SafeElementCount(out.shape)) {
    return Status::Error(StatusCode::kUnimplemented,
                         "%s: output '%s' has the legacy scalar shape [0] (0 bytes are planned "
                         "for it, the input has %lld element); give it shape [] instead",
                         kOp, out.name, static_cast<long long>(in_count));
  }
  return Status::Ok();
}

Status ReshapeInvoke(KernelContext& context, Node& node) {
  EvalTensor* in = context.input(node, 0);
  EvalTensor* out = context.output(node, 0);
  if (in == nullptr || out == nullptr) {
    return NodeNotPrepared(kOp);
  }
  const size_t element = model::ElementByteSize(in->type);
  if (element == 0) {
    return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                         model::TensorTypeName(in->type));
  }
  // Prepare made both element counts equal; re-check at no cost.
  const int64_t count = SafeElementCount(in->dims, static_cast<size_t>(in->rank));
  if (count != SafeElementCount(out->dims, static_cast<size_t>(out->rank))) {
    return NodeNotPrepared(kOp);
  }
  const size_t bytes = element * static_cast<size_t>(count);
  if (bytes != 0 && (in->data == nullptr || out->data == nullptr)) {
    return Status::Error(StatusCode::kFailedPrecondition, "%s: tensor data missing", kOp);
  }
  ReshapeCopy(in->data, out->data, bytes);
  return Status::Ok();
}

// ReshapeOptions: new_shape 0. The kernel takes the shape from the output
// tensor; the options are decoded (into the tail, as TFLM's ParseReshape
// does) so that tools and tests see them.
void ReadReshape(model::OptionsTable& table, ReshapeOptions& o) {
  o.has_new_shape = table.Int32Vector(0, &o.new_shape);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinReshape, kOp, nullptr, ReshapePrepare, ReshapeInvoke,
                     OptionsReader<ReshapeOptions, ReadReshape>(model::kReshapeOptions));

}  // namespace

const KernelRegistration& Register_RESHAPE() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
