// RESHAPE kernel glue (math in reshape_math.cc). No init: like TFLM, the
// kernel asks for no persistent memory and no scratch.
#include "tflm_arena/runtime/kernels/reshape.h"

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/pooling_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "RESHAPE";
constexpr model::BuiltinCode kBuiltinReshape = 22;

Status ReshapePrepare(KernelContext& context, Node& node) {
  if (node.inputs.size() != 1 && node.inputs.size() != 2) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: needs 1 or 2 inputs, got %zu", kOp,
                         node.inputs.size());
  }
  if (node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: needs 1 output, got %zu", kOp,
                         node.outputs.size());
  }
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  if (in.type != out.type) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: input %s and output %s differ", kOp,
                         kernels_b_util::TypeName(in.type), kernels_b_util::TypeName(out.type));
  }
  if (model::ElementByteSize(in.type) == 0) {
    return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                         kernels_b_util::TypeName(in.type));
  }
  const int64_t in_count = ReshapeElementCount(in.shape.data(), in.shape.size(), false);
  const int64_t out_count =
      ReshapeElementCount(out.shape.data(), out.shape.size(), node.inputs.size() == 1);
  if (in_count != out_count) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input has %lld elements but output shape holds %lld", kOp,
                         static_cast<long long>(in_count), static_cast<long long>(out_count));
  }
  return Status::Ok();
}

Status ReshapeInvoke(KernelContext& context, Node& node) {
  EvalTensor* in = context.input(node, 0);
  EvalTensor* out = context.output(node, 0);
  if (in == nullptr || out == nullptr) {
    return Status::Error(StatusCode::kFailedPrecondition, "%s: node not prepared", kOp);
  }
  const size_t element = model::ElementByteSize(in->type);
  if (element == 0) {
    return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                         kernels_b_util::TypeName(in->type));
  }
  const size_t bytes = element * static_cast<size_t>(in->num_elements());
  if (bytes != 0 && (in->data == nullptr || out->data == nullptr)) {
    return Status::Error(StatusCode::kFailedPrecondition, "%s: tensor data missing", kOp);
  }
  ReshapeCopy(in->data, out->data, bytes);
  return Status::Ok();
}

}  // namespace

const KernelRegistration& Register_RESHAPE() {
  static const KernelRegistration r = {kBuiltinReshape, kOp, nullptr, ReshapePrepare,
                                       ReshapeInvoke, nullptr};
  return r;
}

}  // namespace runtime
}  // namespace tflm_arena
