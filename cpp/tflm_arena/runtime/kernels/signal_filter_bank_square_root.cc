// SignalFilterBankSquareRoot glue (math in
// signal_filter_bank_square_root_math.cc). No OpData, no options.
#include "tflm_arena/runtime/kernels/signal_filter_bank_square_root.h"

#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/signal_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SignalFilterBankSquareRoot";

Status SquareRootPrepare(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(SignalNodeCounts(node, kOp, 2, 1));
  model::TensorInfo in, bits, out;
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 0, TensorType::kUint64, 1, &in));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 1, TensorType::kInt32, 0, &bits));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, true, 0, TensorType::kUint32, 1, &out));
  return RequireSameElementCount(kOp, in, out);
}

Status SquareRootInvoke(KernelContext& context, Node& node) {
  EvalTensor* in0 = context.input(node, 0);
  EvalTensor* in1 = context.input(node, 1);
  EvalTensor* out0 = context.output(node, 0);
  if (in0 == nullptr || in1 == nullptr || out0 == nullptr || in0->data == nullptr ||
      in1->data == nullptr || out0->data == nullptr)
    return NodeNotPrepared(kOp);
  const int32_t bits = *in1->as<const int32_t>();
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "the scale bits input", bits, 0, 31));
  SignalFilterBankSqrt(in0->as<const uint64_t>(), static_cast<size_t>(in0->dim(0)), bits,
                       out0->as<uint32_t>());
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeCustomRegistration(kOp, nullptr, SquareRootPrepare, SquareRootInvoke);

}  // namespace

const KernelRegistration& Register_SIGNAL_FILTER_BANK_SQUARE_ROOT() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
