// SignalFilterBank glue (math in signal_filter_bank_math.cc).
#include "tflm_arena/runtime/kernels/signal_filter_bank.h"

#include <cstring>

#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/signal_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SignalFilterBank";
constexpr int32_t kMaxChannels = int32_t{1} << 24;

Status FilterBankInit(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(InitOpData<SignalFilterBankOpData>(context, node));
  model::FlexbufferMap options;
  TFLM_ARENA_RETURN_IF_ERROR(SignalOptions(context, node, kOp, &options));
  auto* data = SignalData<SignalFilterBankOpData>(node);
  TFLM_ARENA_RETURN_IF_ERROR(options.Int32At(0, "num_channels", &data->num_channels));
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "num_channels", data->num_channels, 0, kMaxChannels));
  void* work = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(
      (static_cast<size_t>(data->num_channels) + 1) * sizeof(uint64_t), &work));
  data->work = static_cast<uint64_t*>(work);
  return Status::Ok();
}

Status FilterBankPrepare(KernelContext& context, Node& node) {
  const auto* data = SignalData<SignalFilterBankOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(SignalNodeCounts(node, kOp, 6, 1));
  model::TensorInfo t;
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 0, TensorType::kUint32, 1, &t));
  for (size_t i = 1; i < 6; ++i) {
    TFLM_ARENA_RETURN_IF_ERROR(
        SignalTensorInfo(context, node, kOp, false, i, TensorType::kInt16, 1, &t));
  }
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, true, 0, TensorType::kUint64, 1, &t));
  return SignalRange(kOp, "the output's element count", static_cast<int64_t>(t.num_elements), 0,
                     data->num_channels);
}

Status FilterBankInvoke(KernelContext& context, Node& node) {
  const auto* data = SignalData<const SignalFilterBankOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  // Seven tensors: looked up in a row, then checked together.
  EvalTensor* in0 = context.input(node, 0);
  EvalTensor* in1 = context.input(node, 1);
  EvalTensor* in2 = context.input(node, 2);
  EvalTensor* in3 = context.input(node, 3);
  EvalTensor* in4 = context.input(node, 4);
  EvalTensor* in5 = context.input(node, 5);
  EvalTensor* out0 = context.output(node, 0);
  if (in0 == nullptr || in1 == nullptr || in2 == nullptr || in3 == nullptr || in4 == nullptr ||
      in5 == nullptr || out0 == nullptr || in0->data == nullptr || in1->data == nullptr ||
      in2->data == nullptr || in3->data == nullptr || in4->data == nullptr ||
      in5->data == nullptr || out0->data == nullptr) {
    return NodeNotPrepared(kOp);
  }
  SignalFilterBankTables t;
  t.num_channels = data->num_channels;
  t.weights = in1->as<const int16_t>();
  t.unweights = in2->as<const int16_t>();
  t.freq_starts = in3->as<const int16_t>();
  t.weight_starts = in4->as<const int16_t>();
  t.widths = in5->as<const int16_t>();
  const int32_t tables[3] = {in3->dim(0), in4->dim(0), in5->dim(0)};
  t.table_size = static_cast<size_t>(tables[0] < tables[1] ? tables[0] : tables[1]);
  if (static_cast<size_t>(tables[2]) < t.table_size) t.table_size = static_cast<size_t>(tables[2]);
  const int32_t w = in1->dim(0) < in2->dim(0) ? in1->dim(0) : in2->dim(0);
  t.weight_size = static_cast<size_t>(w);
  t.input_size = static_cast<size_t>(in0->dim(0));
  TFLM_ARENA_RETURN_IF_ERROR(SignalFilterBankCheck(kOp, t));
  SignalFilterBankAccumulate(t, in0->as<const uint32_t>(), data->work);
  std::memcpy(out0->data, data->work + 1, static_cast<size_t>(out0->dim(0)) * sizeof(uint64_t));
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeCustomRegistration(kOp, FilterBankInit, FilterBankPrepare, FilterBankInvoke);

}  // namespace

const KernelRegistration& Register_SIGNAL_FILTER_BANK() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
