// SignalFilterBankSpectralSubtraction glue (math in
// signal_filter_bank_spectral_subtraction_math.cc).
#include "tflm_arena/runtime/kernels/signal_filter_bank_spectral_subtraction.h"

#include <cstring>

#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/signal_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SignalFilterBankSpectralSubtraction";
constexpr int32_t kMaxChannels = int32_t{1} << 24;

Status ReadConfig(const model::FlexbufferMap& o, SignalSpectralSubtractionConfig* c) {
  int32_t v[9] = {};
  static constexpr const char* kKeys[9] = {"alternate_one_minus_smoothing",
                                           "alternate_smoothing",
                                           "clamping",
                                           "min_signal_remaining",
                                           "num_channels",
                                           "one_minus_smoothing",
                                           "smoothing",
                                           "smoothing_bits",
                                           "spectral_subtraction_bits"};
  for (size_t i = 0; i < 9; ++i) {
    if (i == 2) {
      TFLM_ARENA_RETURN_IF_ERROR(o.BoolAt(i, kKeys[i], &c->clamping));
    } else {
      TFLM_ARENA_RETURN_IF_ERROR(o.Int32At(i, kKeys[i], &v[i]));
    }
  }
  c->alternate_one_minus_smoothing = static_cast<uint32_t>(v[0]);
  c->alternate_smoothing = static_cast<uint32_t>(v[1]);
  c->min_signal_remaining = static_cast<uint32_t>(v[3]);
  c->num_channels = v[4];
  c->one_minus_smoothing = static_cast<uint32_t>(v[5]);
  c->smoothing = static_cast<uint32_t>(v[6]);
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "num_channels", v[4], 0, kMaxChannels));
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "smoothing_bits", v[7], 0, 31));
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "spectral_subtraction_bits", v[8], 0, 63));
  c->smoothing_bits = static_cast<uint32_t>(v[7]);
  c->spectral_subtraction_bits = static_cast<uint32_t>(v[8]);
  return Status::Ok();
}

Status SubtractionInit(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(InitOpData<SignalSpectralSubtractionOpData>(context, node));
  model::FlexbufferMap options;
  TFLM_ARENA_RETURN_IF_ERROR(SignalOptions(context, node, kOp, &options));
  auto* data = SignalData<SignalSpectralSubtractionOpData>(node);
  TFLM_ARENA_RETURN_IF_ERROR(ReadConfig(options, &data->config));
  void* noise = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(
      static_cast<size_t>(data->config.num_channels) * sizeof(uint32_t), &noise));
  data->noise = static_cast<uint32_t*>(noise);
  return Status::Ok();
}

void SubtractionReset(KernelContext& /*context*/, Node& node) {
  auto* data = SignalData<SignalSpectralSubtractionOpData>(node);
  if (data == nullptr || data->noise == nullptr) return;
  std::memset(data->noise, 0, static_cast<size_t>(data->config.num_channels) * sizeof(uint32_t));
}

Status SubtractionPrepare(KernelContext& context, Node& node) {
  auto* data = SignalData<SignalSpectralSubtractionOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(SignalNodeCounts(node, kOp, 1, 2));
  model::TensorInfo in, out, noise;
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 0, TensorType::kUint32, 1, &in));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, true, 0, TensorType::kUint32, 1, &out));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, true, 1, TensorType::kUint32, 1, &noise));
  const uint64_t smaller = in.num_elements < out.num_elements ? in.num_elements : out.num_elements;
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "num_channels", data->config.num_channels, 0,
                                         static_cast<int64_t>(smaller)));
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "the noise output's element count",
                                         static_cast<int64_t>(noise.num_elements), 0,
                                         data->config.num_channels));
  SubtractionReset(context, node);  // TFLM's Prepare zeroes the state
  return Status::Ok();
}

Status SubtractionInvoke(KernelContext& context, Node& node) {
  auto* data = SignalData<SignalSpectralSubtractionOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  EvalTensor* in0 = context.input(node, 0);
  EvalTensor* out0 = context.output(node, 0);
  EvalTensor* out1 = context.output(node, 1);
  if (in0 == nullptr || out0 == nullptr || out1 == nullptr || in0->data == nullptr ||
      out0->data == nullptr || out1->data == nullptr)
    return NodeNotPrepared(kOp);
  SignalSpectralSubtraction(data->config, in0->as<const uint32_t>(), out0->as<uint32_t>(),
                            data->noise);
  std::memcpy(out1->data, data->noise, static_cast<size_t>(out1->dim(0)) * sizeof(uint32_t));
  return Status::Ok();
}

constexpr KernelRegistration kRegistration = MakeCustomRegistration(
    kOp, SubtractionInit, SubtractionPrepare, SubtractionInvoke, SubtractionReset);

}  // namespace

const KernelRegistration& Register_SIGNAL_FILTER_BANK_SPECTRAL_SUBTRACTION() {
  return kRegistration;
}

}  // namespace runtime
}  // namespace tflm_arena
