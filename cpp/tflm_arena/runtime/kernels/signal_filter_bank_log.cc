// SignalFilterBankLog glue (math in signal_filter_bank_log_math.cc).
#include "tflm_arena/runtime/kernels/signal_filter_bank_log.h"

#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/signal_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SignalFilterBankLog";

Status LogInit(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(InitOpData<SignalFilterBankLogOpData>(context, node));
  model::FlexbufferMap options;
  TFLM_ARENA_RETURN_IF_ERROR(SignalOptions(context, node, kOp, &options));
  auto* data = SignalData<SignalFilterBankLogOpData>(node);
  TFLM_ARENA_RETURN_IF_ERROR(
      options.Int32At(0, "input_correction_bits", &data->input_correction_bits));
  TFLM_ARENA_RETURN_IF_ERROR(options.Int32At(1, "output_scale", &data->output_scale));
  return SignalRange(kOp, "input_correction_bits", data->input_correction_bits, 0, 31);
}

Status LogPrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(SignalNodeCounts(node, kOp, 1, 1));
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 0, TensorType::kUint32, 1, &in));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, true, 0, TensorType::kInt16, 1, &out));
  return RequireSameElementCount(kOp, in, out);
}

Status LogInvoke(KernelContext& context, Node& node) {
  const auto* data = SignalData<const SignalFilterBankLogOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  EvalTensor* in0 = context.input(node, 0);
  EvalTensor* out0 = context.output(node, 0);
  if (in0 == nullptr || out0 == nullptr || in0->data == nullptr || out0->data == nullptr)
    return NodeNotPrepared(kOp);
  SignalFilterBankLog(in0->as<const uint32_t>(), static_cast<size_t>(in0->dim(0)),
                      data->output_scale, static_cast<uint32_t>(data->input_correction_bits),
                      out0->as<int16_t>());
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeCustomRegistration(kOp, LogInit, LogPrepare, LogInvoke);

}  // namespace

const KernelRegistration& Register_SIGNAL_FILTER_BANK_LOG() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
