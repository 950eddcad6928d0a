// QUANTIZE kernel glue (math in quantize_math.cc).
#include "tflm_arena/runtime/kernels/quantize.h"

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "QUANTIZE";

// The (input, output) pairs TFLM's reference QUANTIZE evaluates.
bool IsFloatPair(TensorType in, TensorType out) {
  return in == TensorType::kFloat32 && (out == TensorType::kInt8 || out == TensorType::kInt16);
}

bool IsRequantizePair(TensorType in, TensorType out) {
  switch (in) {
    case TensorType::kInt8:
      return out == TensorType::kInt8 || out == TensorType::kUint8 || out == TensorType::kInt16 ||
             out == TensorType::kInt32;
    case TensorType::kInt16:
      return out == TensorType::kInt8 || out == TensorType::kInt16 || out == TensorType::kInt32;
    case TensorType::kInt32:
      return out == TensorType::kInt8 || out == TensorType::kInt16;
    case TensorType::kUint8:
      return out == TensorType::kInt8;
    default:
      return false;
  }
}

Status QuantizePrepare(KernelContext& context, Node& node) {
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryNodeInfo(context, node, kOp, &in, &out));
  if (out.scale.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output must be per-tensor quantized (has %zu scales)", kOp,
                         out.scale.size());
  }
  const bool float_pair = IsFloatPair(in.type, out.type);
  const bool requantize_pair = IsRequantizePair(in.type, out.type);
  if (!float_pair && !requantize_pair) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", kOp,
                         model::TensorTypeName(in.type), model::TensorTypeName(out.type));
  }
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameElementCount(kOp, in, out));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", out));
  auto* data = static_cast<QuantizeOpData*>(node.user_data);
  if (requantize_pair) {
    TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input", in));
    const double effective =
        static_cast<double>(TensorScale(in)) / static_cast<double>(TensorScale(out));
    TFLM_ARENA_RETURN_IF_ERROR(CheckedQuantizeMultiplier(
        kOp, "requantize", effective, &data->requantize_multiplier, &data->requantize_shift));
  }
  data->output_params.zero_point = TensorZeroPoint(out);
  data->output_params.scale = static_cast<double>(TensorScale(out));
  data->input_zero_point = TensorZeroPoint(in);
  return Status::Ok();
}

template <typename InT>
Status RequantizeFrom(const EvalTensor& in, EvalTensor& out, size_t n, const RequantizeParams& p) {
  const InT* src = in.as<const InT>();
  switch (out.type) {
    case TensorType::kInt8:
      Requantize(src, n, p, out.as<int8_t>());
      return Status::Ok();
    case TensorType::kInt16:
      Requantize(src, n, p, out.as<int16_t>());
      return Status::Ok();
    default:
      break;
  }
  return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", kOp,
                       model::TensorTypeName(in.type), model::TensorTypeName(out.type));
}

Status QuantizeInvoke(KernelContext& context, Node& node) {
  EvalTensor* in = nullptr;
  EvalTensor* out = nullptr;
  size_t n = 0;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryTensors(context, node, kOp, &in, &out, &n));
  const auto* data = static_cast<const QuantizeOpData*>(node.user_data);
  if (IsFloatPair(in->type, out->type)) {
    if (out->type == TensorType::kInt8) {
      AffineQuantize(in->as<const float>(), n, data->output_params.scale,
                     data->output_params.zero_point, out->as<int8_t>());
    } else {
      AffineQuantize(in->as<const float>(), n, data->output_params.scale,
                     data->output_params.zero_point, out->as<int16_t>());
    }
    return Status::Ok();
  }
  if (!IsRequantizePair(in->type, out->type)) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", kOp,
                         model::TensorTypeName(in->type), model::TensorTypeName(out->type));
  }
  RequantizeParams p;
  p.multiplier = data->requantize_multiplier;
  p.shift = data->requantize_shift;
  p.input_zero_point = data->input_zero_point;
  p.output_zero_point = data->output_params.zero_point;
  switch (in->type) {
    case TensorType::kInt8:
      if (out->type == TensorType::kUint8) {
        Requantize(in->as<const int8_t>(), n, p, out->as<uint8_t>());
        return Status::Ok();
      }
      if (out->type == TensorType::kInt32) {
        Requantize(in->as<const int8_t>(), n, p, out->as<int32_t>());
        return Status::Ok();
      }
      return RequantizeFrom<int8_t>(*in, *out, n, p);
    case TensorType::kInt16:
      if (out->type == TensorType::kInt32) {
        Requantize(in->as<const int16_t>(), n, p, out->as<int32_t>());
        return Status::Ok();
      }
      return RequantizeFrom<int16_t>(*in, *out, n, p);
    case TensorType::kInt32:
      return RequantizeFrom<int32_t>(*in, *out, n, p);
    case TensorType::kUint8:
      Requantize(in->as<const uint8_t>(), n, p, out->as<int8_t>());
      return Status::Ok();
    default:
      break;
  }
  return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", kOp,
                       model::TensorTypeName(in->type), model::TensorTypeName(out->type));
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinQuantize, kOp, InitOpData<QuantizeOpData>, QuantizePrepare, QuantizeInvoke);

}  // namespace

const KernelRegistration& Register_QUANTIZE() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
