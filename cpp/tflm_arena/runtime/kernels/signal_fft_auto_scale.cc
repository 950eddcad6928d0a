// SignalFftAutoScale glue (math in signal_fft_auto_scale_math.cc). No
// OpData, no options.
#include "tflm_arena/runtime/kernels/signal_fft_auto_scale.h"

#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/signal_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SignalFftAutoScale";

Status FftAutoScalePrepare(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(SignalNodeCounts(node, kOp, 1, 2));
  model::TensorInfo in, out, shift;
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 0, TensorType::kInt16, 1, &in));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, true, 0, TensorType::kInt16, 1, &out));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, true, 1, TensorType::kInt32, 0, &shift));
  return RequireSameElementCount(kOp, in, out);
}

Status FftAutoScaleInvoke(KernelContext& context, Node& node) {
  EvalTensor* in0 = context.input(node, 0);
  EvalTensor* out0 = context.output(node, 0);
  EvalTensor* out1 = context.output(node, 1);
  if (in0 == nullptr || out0 == nullptr || out1 == nullptr || in0->data == nullptr ||
      out0->data == nullptr || out1->data == nullptr)
    return NodeNotPrepared(kOp);
  *out1->as<int32_t>() = SignalFftAutoScale(in0->as<const int16_t>(),
                                            static_cast<size_t>(out0->dim(0)), out0->as<int16_t>());
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeCustomRegistration(kOp, nullptr, FftAutoScalePrepare, FftAutoScaleInvoke);

}  // namespace

const KernelRegistration& Register_SIGNAL_FFT_AUTO_SCALE() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
