// SignalRfft glue (arithmetic in signal_rfft_math.cc).
#include "tflm_arena/runtime/kernels/signal_rfft.h"

#include <cstring>

#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/signal_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SignalRfft";
// The format's TensorType values of option T.
constexpr int32_t kTypeFloat32 = 0, kTypeInt32 = 2, kTypeInt16 = 7;

Status Allocate(KernelContext& context, size_t count, size_t sample_bytes, void** out) {
  return context.AllocatePersistentBuffer(count * 2 * sample_bytes, out);
}

Status RfftInit(KernelContext& context, Node& node) {
  model::FlexbufferMap options;
  TFLM_ARENA_RETURN_IF_ERROR(SignalOptions(context, node, kOp, &options));
  int32_t type = 0;
  TFLM_ARENA_RETURN_IF_ERROR(options.Int32ByKey("T", &type));
  SignalRfftType fft_type = SignalRfftType::kInt16;
  if (type == kTypeInt32) {
    fft_type = SignalRfftType::kInt32;
  } else if (type == kTypeFloat32) {
    fft_type = SignalRfftType::kFloat32;
  } else if (type != kTypeInt16) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: type T = %s: TFLM's real FFT runs INT16, INT32 and FLOAT32 only", kOp,
                         model::TensorTypeName(static_cast<model::TensorType>(type)));
  }
  int32_t length = 0;
  TFLM_ARENA_RETURN_IF_ERROR(options.Int32At(1, "fft_length", &length));
  int32_t factors[kSignalRfftMaxFactors] = {};
  TFLM_ARENA_RETURN_IF_ERROR(SignalRfftFactor(kOp, length, factors));
  TFLM_ARENA_RETURN_IF_ERROR(InitOpData<SignalRfftOpData>(context, node));
  SignalRfftPlan& plan = SignalData<SignalRfftOpData>(node)->plan;
  plan.fft_length = length;
  plan.n = length / 2;
  plan.type = fft_type;
  std::memcpy(plan.factors, factors, sizeof(factors));
  const auto n = static_cast<size_t>(plan.n);
  const size_t bytes = SignalRfftSampleBytes(fft_type);
  TFLM_ARENA_RETURN_IF_ERROR(Allocate(context, n, bytes, &plan.twiddles));
  TFLM_ARENA_RETURN_IF_ERROR(Allocate(context, n / 2, bytes, &plan.super_twiddles));
  TFLM_ARENA_RETURN_IF_ERROR(Allocate(context, n, bytes, &plan.spectrum));
  SignalRfftTwiddles(&plan);
  return Status::Ok();
}

TensorType TensorTypeOf(SignalRfftType t) {
  return t == SignalRfftType::kInt16   ? TensorType::kInt16
         : t == SignalRfftType::kInt32 ? TensorType::kInt32
                                       : TensorType::kFloat32;
}

Status RfftPrepare(KernelContext& context, Node& node) {
  auto* data = SignalData<SignalRfftOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(SignalNodeCounts(node, kOp, 1, 1));
  model::TensorInfo in, out;
  const TensorType type = TensorTypeOf(data->plan.type);
  TFLM_ARENA_RETURN_IF_ERROR(SignalTensorInfo(context, node, kOp, false, 0, type, -1, &in));
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, true, 0, type, static_cast<int>(in.shape.size()), &out));
  const int32_t length = data->plan.fft_length;
  const int32_t row = in.shape[in.shape.size() - 1];
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "the input's last dimension", row, 1, length));
  TFLM_ARENA_RETURN_IF_ERROR(SignalRange(kOp, "the output's last dimension",
                                         out.shape[out.shape.size() - 1], length + 2, length + 2));
  const uint64_t rows = in.num_elements / static_cast<uint64_t>(row);
  if (rows * static_cast<uint64_t>(length + 2) != out.num_elements || rows > INT32_MAX) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: %llu input rows but the output holds %llu values (%d per row)", kOp,
                         static_cast<unsigned long long>(rows),
                         static_cast<unsigned long long>(out.num_elements),
                         static_cast<int>(length + 2));
  }
  data->input_length = row;
  data->rows = static_cast<int32_t>(rows);
  data->output_length = length + 2;
  return context.RequestScratchBufferInArena(
      static_cast<size_t>(length) * SignalRfftSampleBytes(data->plan.type), &data->scratch_index);
}

Status RfftInvoke(KernelContext& context, Node& node) {
  const auto* data = SignalData<const SignalRfftOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  EvalTensor* in0 = context.input(node, 0);
  EvalTensor* out0 = context.output(node, 0);
  if (in0 == nullptr || out0 == nullptr || in0->data == nullptr || out0->data == nullptr)
    return NodeNotPrepared(kOp);
  auto* work = static_cast<uint8_t*>(context.GetScratchBuffer(data->scratch_index));
  if (work == nullptr) return NodeNotPrepared(kOp);
  const size_t sample = SignalRfftSampleBytes(data->plan.type);
  const size_t row = static_cast<size_t>(data->input_length) * sample;
  const size_t length = static_cast<size_t>(data->plan.fft_length) * sample;
  const size_t out_row = static_cast<size_t>(data->output_length) * sample;
  for (int32_t r = 0; r < data->rows; ++r) {
    std::memcpy(work, in0->data + static_cast<size_t>(r) * row, row);
    std::memset(work + row, 0, length - row);  // zero padding (0.0f is all zero bits)
    SignalRfftRow(data->plan, work, out0->data + static_cast<size_t>(r) * out_row);
  }
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeCustomRegistration(kOp, RfftInit, RfftPrepare, RfftInvoke);

}  // namespace

const KernelRegistration& Register_SIGNAL_RFFT() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
