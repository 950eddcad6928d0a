// SignalWindow glue (math in signal_window_math.cc).
#include "tflm_arena/runtime/kernels/signal_window.h"

#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/signal_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SignalWindow";

Status WindowInit(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(InitOpData<SignalWindowOpData>(context, node));
  model::FlexbufferMap options;
  TFLM_ARENA_RETURN_IF_ERROR(SignalOptions(context, node, kOp, &options));
  return options.Int32At(0, "shift", &static_cast<SignalWindowOpData*>(node.user_data)->shift);
}

Status WindowPrepare(KernelContext& context, Node& node) {
  auto* data = SignalData<SignalWindowOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(SignalNodeCounts(node, kOp, 2, 1));
  model::TensorInfo in, window, out;
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 0, TensorType::kInt16, -1, &in));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 1, TensorType::kInt16, 1, &window));
  TFLM_ARENA_RETURN_IF_ERROR(SignalTensorInfo(context, node, kOp, true, 0, TensorType::kInt16,
                                              static_cast<int>(in.shape.size()), &out));
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "shift", data->shift, 0, 31));
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameElementCount(kOp, in, out));
  if (window.num_elements == 0 || in.num_elements % window.num_elements != 0 ||
      in.num_elements > INT32_MAX) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: the window's %llu samples do not divide the input's %llu", kOp,
                         static_cast<unsigned long long>(window.num_elements),
                         static_cast<unsigned long long>(in.num_elements));
  }
  data->input_size = static_cast<int32_t>(in.num_elements);
  return Status::Ok();
}

Status WindowInvoke(KernelContext& context, Node& node) {
  const auto* data = SignalData<const SignalWindowOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  EvalTensor* in0 = context.input(node, 0);
  EvalTensor* in1 = context.input(node, 1);
  EvalTensor* out0 = context.output(node, 0);
  if (in0 == nullptr || in1 == nullptr || out0 == nullptr || in0->data == nullptr ||
      in1->data == nullptr || out0->data == nullptr) {
    return NodeNotPrepared(kOp);
  }
  const size_t size = static_cast<size_t>(in1->dim(0));
  const int16_t* input = in0->as<const int16_t>();
  int16_t* output = out0->as<int16_t>();
  for (size_t i = 0; i < static_cast<size_t>(data->input_size); i += size) {
    SignalWindowApply(input + i, in1->as<const int16_t>(), size, data->shift, output + i);
  }
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeCustomRegistration(kOp, WindowInit, WindowPrepare, WindowInvoke);

}  // namespace

const KernelRegistration& Register_SIGNAL_WINDOW() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
