// SignalEnergy glue (math in signal_energy_math.cc).
#include "tflm_arena/runtime/kernels/signal_energy.h"

#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/signal_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SignalEnergy";

Status EnergyInit(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(InitOpData<SignalEnergyOpData>(context, node));
  model::FlexbufferMap options;
  TFLM_ARENA_RETURN_IF_ERROR(SignalOptions(context, node, kOp, &options));
  auto* data = SignalData<SignalEnergyOpData>(node);
  TFLM_ARENA_RETURN_IF_ERROR(options.Int32At(0, "end_index", &data->end_index));
  return options.Int32At(1, "start_index", &data->start_index);
}

Status EnergyPrepare(KernelContext& context, Node& node) {
  const auto* data = SignalData<SignalEnergyOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(SignalNodeCounts(node, kOp, 1, 1));
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 0, TensorType::kInt16, 1, &in));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, true, 0, TensorType::kUint32, 1, &out));
  const uint64_t bins = in.num_elements / 2;
  const int64_t limit = static_cast<int64_t>(bins < out.num_elements ? bins : out.num_elements);
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "end_index", data->end_index, 0, limit));
  return SignalRange(kOp, "start_index", data->start_index, 0, data->end_index);
}

Status EnergyInvoke(KernelContext& context, Node& node) {
  const auto* data = SignalData<const SignalEnergyOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  EvalTensor* in0 = context.input(node, 0);
  EvalTensor* out0 = context.output(node, 0);
  if (in0 == nullptr || out0 == nullptr || in0->data == nullptr || out0->data == nullptr)
    return NodeNotPrepared(kOp);
  SignalSpectrumToEnergy(in0->as<const int16_t>(), data->start_index, data->end_index,
                         out0->as<uint32_t>());
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeCustomRegistration(kOp, EnergyInit, EnergyPrepare, EnergyInvoke);

}  // namespace

const KernelRegistration& Register_SIGNAL_ENERGY() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
