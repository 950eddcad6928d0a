// SignalPCAN glue (math in signal_pcan_math.cc).
#include "tflm_arena/runtime/kernels/signal_pcan.h"

#include <cstring>

#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/signal_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SignalPCAN";

Status PcanInit(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(InitOpData<SignalPcanOpData>(context, node));
  model::FlexbufferMap options;
  TFLM_ARENA_RETURN_IF_ERROR(SignalOptions(context, node, kOp, &options));
  auto* data = SignalData<SignalPcanOpData>(node);
  TFLM_ARENA_RETURN_IF_ERROR(options.Int32At(0, "snr_shift", &data->snr_shift));
  return SignalRange(kOp, "snr_shift", data->snr_shift, 0, 63);
}

Status PcanPrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(SignalNodeCounts(node, kOp, 3, 1));
  model::TensorInfo in, noise, lut, out;
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 0, TensorType::kUint32, 1, &in));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 1, TensorType::kUint32, 1, &noise));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 2, TensorType::kInt16, 1, &lut));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, true, 0, TensorType::kUint32, 1, &out));
  const auto n = static_cast<int64_t>(in.num_elements);
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameElementCount(kOp, in, out));
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "the noise estimate's element count",
                                         static_cast<int64_t>(noise.num_elements), n, INT64_MAX));
  return SignalRange(kOp, "the gain table's element count", static_cast<int64_t>(lut.num_elements),
                     kSignalPcanLutEntries, INT64_MAX);
}

Status PcanInvoke(KernelContext& context, Node& node) {
  const auto* data = SignalData<const SignalPcanOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  EvalTensor* in0 = context.input(node, 0);
  EvalTensor* in1 = context.input(node, 1);
  EvalTensor* in2 = context.input(node, 2);
  EvalTensor* out0 = context.output(node, 0);
  if (in0 == nullptr || in1 == nullptr || in2 == nullptr || out0 == nullptr ||
      in0->data == nullptr || in1->data == nullptr || in2->data == nullptr || out0->data == nullptr)
    return NodeNotPrepared(kOp);
  const auto channels = static_cast<size_t>(in0->dim(0));
  std::memmove(out0->data, in0->data, channels * sizeof(uint32_t));
  SignalPcan(in2->as<const int16_t>(), data->snr_shift, in1->as<const uint32_t>(), channels,
             out0->as<uint32_t>());
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeCustomRegistration(kOp, PcanInit, PcanPrepare, PcanInvoke);

}  // namespace

const KernelRegistration& Register_SIGNAL_PCAN() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
