// KernelContext glue shared by the one-input, one-output kernels (QUANTIZE,
// DEQUANTIZE, SOFTMAX, LEAKY_RELU, RELU, ...): the prepare preamble, the
// invoke-time tensor lookup and the per-type invoke dispatch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_UNARY_GLUE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_UNARY_GLUE_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {

// Prepare preamble: OpData allocated (NodeNotPrepared),
// exactly 1 input and 1 output (kInvalidArgument), then their facts.
inline Status GetUnaryNodeInfo(const KernelContext& context, const Node& node, const char* op,
                               model::TensorInfo* in, model::TensorInfo* out) {
  if (node.user_data == nullptr) {
    return NodeNotPrepared(op);
  }
  if (node.inputs.size() != 1 || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: needs exactly 1 input and 1 output, got %zu and %zu", op,
                         node.inputs.size(), node.outputs.size());
  }
  if (node.inputs[0] < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: input 0 is omitted but required", op);
  }
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, in));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, out));
  return RequireWritableOutput(op, *out);
}

// Prepare: input and output hold the same number of elements (elementwise
// kernels write input-many elements into the output).
inline Status RequireSameElementCount(const char* op, const model::TensorInfo& in,
                                      const model::TensorInfo& out) {
  if (in.num_elements != out.num_elements) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input has %llu elements but output has %llu", op,
                         static_cast<unsigned long long>(in.num_elements),
                         static_cast<unsigned long long>(out.num_elements));
  }
  return Status::Ok();
}

// Prepare preamble of a same-type elementwise kernel (RELU, RELU6,
// LEAKY_RELU, HARD_SWISH): GetUnaryNodeInfo, then an input of float32, int8
// or (when `int16_ok`) int16 and an output of the same type
// (kUnimplemented otherwise), holding the same number of elements.
inline Status GetSameTypeUnaryInfo(const KernelContext& context, const Node& node, const char* op,
                                   bool int16_ok, model::TensorInfo* in, model::TensorInfo* out) {
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryNodeInfo(context, node, op, in, out));
  const model::TensorType type = in->type;
  const bool supported = type == model::TensorType::kFloat32 || type == model::TensorType::kInt8 ||
                         (int16_ok && type == model::TensorType::kInt16);
  if (!supported || out->type != type) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", op,
                         model::TensorTypeName(type), model::TensorTypeName(out->type));
  }
  return RequireSameElementCount(op, *in, *out);
}

// Invoke preamble: input 0 and output 0 with data, and the OpData —
// NodeNotPrepared otherwise; `*count` gets the element count, which prepare
// made equal for both (re-checked here: it costs nothing and keeps invoke
// from trusting anything prepare did not see).
inline Status GetUnaryTensors(const KernelContext& context, const Node& node, const char* op,
                              EvalTensor** in, EvalTensor** out, size_t* count) {
  *in = context.input(node, 0);
  *out = context.output(node, 0);
  if (*in == nullptr || *out == nullptr || node.user_data == nullptr) return NodeNotPrepared(op);
  const int64_t n = SafeElementCount((*in)->dims, static_cast<size_t>((*in)->rank));
  if (n != SafeElementCount((*out)->dims, static_cast<size_t>((*out)->rank))) {
    return NodeNotPrepared(op);
  }
  if (n > 0 && ((*in)->data == nullptr || (*out)->data == nullptr)) return NodeNotPrepared(op);
  *count = static_cast<size_t>(n);
  return Status::Ok();
}

// The per-type math of an elementwise kernel whose float path needs no
// OpData; `int16` is nullptr when the kernel has no int16 path.
template <typename OpData>
struct UnaryTypedFns {
  void (*float32)(size_t n, const float* in, float* out);
  void (*int8)(const OpData& data, size_t n, const int8_t* in, int8_t* out);
  void (*int16)(const OpData& data, size_t n, const int16_t* in, int16_t* out);
};

// Invoke of such a kernel: the preamble, then the input type's math
// (kUnimplemented naming `op` for any other type).
template <typename OpData>
inline Status InvokeUnaryTyped(const KernelContext& context, const Node& node, const char* op,
                               const UnaryTypedFns<OpData>& fns) {
  EvalTensor* in = nullptr;
  EvalTensor* out = nullptr;
  size_t n = 0;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryTensors(context, node, op, &in, &out, &n));
  const auto& data = *static_cast<const OpData*>(node.user_data);
  switch (in->type) {
    case model::TensorType::kFloat32:
      fns.float32(n, in->as<const float>(), out->as<float>());
      return Status::Ok();
    case model::TensorType::kInt8:
      fns.int8(data, n, in->as<const int8_t>(), out->as<int8_t>());
      return Status::Ok();
    case model::TensorType::kInt16:
      if (fns.int16 == nullptr) break;
      fns.int16(data, n, in->as<const int16_t>(), out->as<int16_t>());
      return Status::Ok();
    default:
      break;
  }
  return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", op,
                       model::TensorTypeName(in->type));
}

// A same-type activation with OpData (RELU, RELU6, HARD_SWISH): its name,
// builtin code, per-type math (int16 accepted at prepare only when
// fns.int16 is set) and its quantized prepare, called after the input's
// quantization is checked (the output's, when it rescales, is its own).
template <typename OpData>
struct SameTypeUnaryKernel {
  using OpDataType = OpData;

  const char* op;
  model::BuiltinCode code;
  Status (*prepare_quantized)(const model::TensorInfo& in, const model::TensorInfo& out,
                              OpData* data);
  UnaryTypedFns<OpData> fns;
};

// Prepare of such a kernel: GetSameTypeUnaryInfo; FLOAT32 needs nothing
// more; otherwise the input's quantization, then prepare_quantized.
template <const auto& kKernel>
Status PrepareSameTypeUnary(KernelContext& context, Node& node) {
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(GetSameTypeUnaryInfo(
      context, node, kKernel.op, /*int16_ok=*/kKernel.fns.int16 != nullptr, &in, &out));
  if (in.type == model::TensorType::kFloat32) return Status::Ok();
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kKernel.op, "input", in));
  using OpData = typename std::remove_cv_t<std::remove_reference_t<decltype(kKernel)>>::OpDataType;
  return kKernel.prepare_quantized(in, out, static_cast<OpData*>(node.user_data));
}

template <const auto& kKernel>
Status InvokeSameTypeUnary(KernelContext& context, Node& node) {
  return InvokeUnaryTyped(context, node, kKernel.op, kKernel.fns);
}

// The registration of the kernel `kKernel` (no builtin options; OpData
// allocated at init).
template <const auto& kKernel>
struct SameTypeUnaryRegistration {
  using OpData = typename std::remove_cv_t<std::remove_reference_t<decltype(kKernel)>>::OpDataType;
  static constexpr KernelRegistration kRegistration =
      MakeRegistration(kKernel.code, kKernel.op, InitOpData<OpData>, PrepareSameTypeUnary<kKernel>,
                       InvokeSameTypeUnary<kKernel>);
};

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_UNARY_GLUE_H_
