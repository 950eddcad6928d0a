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
constexpr int32_t kTypeInt16 = 7;  // the format's TensorType INT16

Status Allocate(KernelContext& context, size_t count, SignalComplex16** out) {
  void* p = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(count * sizeof(SignalComplex16), &p));
  *out = static_cast<SignalComplex16*>(p);
  return Status::Ok();
}

Status RfftInit(KernelContext& context, Node& node) {
  model::FlexbufferMap options;
  TFLM_ARENA_RETURN_IF_ERROR(SignalOptions(context, node, kOp, &options));
  int32_t type = 0;
  TFLM_ARENA_RETURN_IF_ERROR(options.Int32ByKey("T", &type));
  if (type != kTypeInt16) {
    return Status::Error(StatusCode::kUnimplemented,
                         "%s: type T = %s: our runtime's real FFT runs INT16 only (TFLM's also "
                         "runs INT32 and FLOAT32)",
                         kOp, model::TensorTypeName(static_cast<model::TensorType>(type)));
  }
  int32_t length = 0;
  TFLM_ARENA_RETURN_IF_ERROR(options.Int32At(1, "fft_length", &length));
  int32_t factors[kSignalRfftMaxFactors] = {};
  TFLM_ARENA_RETURN_IF_ERROR(SignalRfftFactor(kOp, length, factors));
  TFLM_ARENA_RETURN_IF_ERROR(InitOpData<SignalRfftOpData>(context, node));
  SignalRfftInt16Plan& plan = SignalData<SignalRfftOpData>(node)->plan;
  plan.fft_length = length;
  plan.n = length / 2;
  std::memcpy(plan.factors, factors, sizeof(factors));
  const auto n = static_cast<size_t>(plan.n);
  TFLM_ARENA_RETURN_IF_ERROR(Allocate(context, n, &plan.twiddles));
  TFLM_ARENA_RETURN_IF_ERROR(Allocate(context, n / 2, &plan.super_twiddles));
  TFLM_ARENA_RETURN_IF_ERROR(Allocate(context, n, &plan.spectrum));
  SignalRfftTwiddles(&plan);
  return Status::Ok();
}

Status RfftPrepare(KernelContext& context, Node& node) {
  auto* data = SignalData<SignalRfftOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(SignalNodeCounts(node, kOp, 1, 1));
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(
      SignalTensorInfo(context, node, kOp, false, 0, TensorType::kInt16, -1, &in));
  TFLM_ARENA_RETURN_IF_ERROR(SignalTensorInfo(context, node, kOp, true, 0, TensorType::kInt16,
                                              static_cast<int>(in.shape.size()), &out));
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
  return context.RequestScratchBufferInArena(static_cast<size_t>(length) * sizeof(int16_t),
                                             &data->scratch_index);
}

Status RfftInvoke(KernelContext& context, Node& node) {
  const auto* data = SignalData<const SignalRfftOpData>(node);
  if (data == nullptr) return NodeNotPrepared(kOp);
  EvalTensor* in[1] = {};
  EvalTensor* out[1] = {};
  TFLM_ARENA_RETURN_IF_ERROR(SignalTensors(context, node, kOp, in, 1, out, 1));
  auto* work = static_cast<int16_t*>(context.GetScratchBuffer(data->scratch_index));
  if (work == nullptr) return NodeNotPrepared(kOp);
  const auto row = static_cast<size_t>(data->input_length);
  const auto length = static_cast<size_t>(data->plan.fft_length);
  const int16_t* input = in[0]->as<const int16_t>();
  int16_t* output = out[0]->as<int16_t>();
  for (int32_t r = 0; r < data->rows; ++r) {
    std::memcpy(work, input + static_cast<size_t>(r) * row, row * sizeof(int16_t));
    std::memset(work + row, 0, (length - row) * sizeof(int16_t));
    SignalRfftInt16(
        data->plan, work,
        reinterpret_cast<SignalComplex16*>(output + static_cast<size_t>(r) *
                                                        static_cast<size_t>(data->output_length)));
  }
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeCustomRegistration(kOp, RfftInit, RfftPrepare, RfftInvoke);

}  // namespace

const KernelRegistration& Register_SIGNAL_RFFT() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
