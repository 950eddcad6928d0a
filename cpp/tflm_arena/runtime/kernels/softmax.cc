// SOFTMAX kernel glue (math in softmax_math.cc).
#include "tflm_arena/runtime/kernels/softmax.h"

#include <cmath>
#include <cstdint>
#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SOFTMAX";

Status SoftmaxPrepare(KernelContext& context, Node& node) {
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryNodeInfo(context, node, kOp, &in, &out));
  if (in.shape.empty()) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: input must have rank >= 1", kOp);
  }
  // Invoke walks rows of the last dimension in both tensors: same shape.
  if (!SameShape(in.shape, out.shape)) {
    char a[64], b[64];
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output shape %s differs from input shape %s", kOp,
                         FormatShape(out.shape, b, sizeof(b)), FormatShape(in.shape, a, sizeof(a)));
  }
  const int32_t row_length = in.shape[in.shape.size() - 1];
  if (row_length > 0 &&
      in.num_elements / static_cast<uint64_t>(row_length) > static_cast<uint64_t>(INT32_MAX)) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: more than %d rows", kOp, INT32_MAX);
  }
  // Options absent: TFLM's parser leaves beta zero-initialised.
  const float beta = node.builtin_data != nullptr ? node.options<SoftmaxOptions>().beta : 0.0f;

  auto* data = static_cast<SoftmaxOpData*>(node.user_data);

  const bool int8_to_int8 = in.type == TensorType::kInt8 && out.type == TensorType::kInt8;
  const bool int8_to_int16 = in.type == TensorType::kInt8 && out.type == TensorType::kInt16;
  const bool int16_to_int16 = in.type == TensorType::kInt16 && out.type == TensorType::kInt16;
  const bool float_to_float = in.type == TensorType::kFloat32 && out.type == TensorType::kFloat32;
  if (!(int8_to_int8 || int8_to_int16 || int16_to_int16 || float_to_float)) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input %s, output %s not supported", kOp,
                         model::TensorTypeName(in.type), model::TensorTypeName(out.type));
  }

  if (float_to_float) {
    data->beta = static_cast<double>(beta);
    return Status::Ok();
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input", in));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", out));

  if (int16_to_int16) {
    // Same order as TFLM: the two LUTs, then the parameters.
    void* exp_lut = nullptr;
    void* recip_lut = nullptr;
    TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(kSoftmaxInt16LutBytes, &exp_lut));
    TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(kSoftmaxInt16LutBytes, &recip_lut));
    data->exp_lut = static_cast<int16_t*>(exp_lut);
    data->one_over_one_plus_x_lut = static_cast<int16_t*>(recip_lut);
    if (TensorZeroPoint(in) != 0 || TensorZeroPoint(out) != 0 ||
        !(std::fabs(TensorScale(out) - 1.f / 32768) <= 0.001f * 1.f / 32768)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: int16 needs zero points 0 and output scale 1/32768 (got input "
                           "zero point %d, output scale %g zero point %d)",
                           kOp, static_cast<int>(TensorZeroPoint(in)),
                           static_cast<double>(TensorScale(out)),
                           static_cast<int>(TensorZeroPoint(out)));
    }
    // The int32 sum of a row's exps (each <= 32767) must not overflow.
    const int32_t depth = in.shape[in.shape.size() - 1];
    if (depth > kSoftmaxInt16MaxDepth) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: int16 rows of %d values exceed %d (the sum of exps would "
                           "overflow int32)",
                           kOp, static_cast<int>(depth), kSoftmaxInt16MaxDepth);
    }
    GenerateSoftmaxInt16Luts(data->exp_lut, data->one_over_one_plus_x_lut);
    data->zero_point = TensorZeroPoint(out);
    data->scale = TensorScale(out);
    const double real =
        static_cast<double>(TensorScale(in)) * static_cast<double>(beta) / (10.0 / 65535.0);
    int shift = 0;
    TFLM_ARENA_RETURN_IF_ERROR(CheckedQuantizeMultiplier(kOp, "input (beta x scale)", real,
                                                         &data->input_multiplier, &shift));
    data->input_left_shift = shift;
    return Status::Ok();
  }

  if (int8_to_int16) {
    if (TensorZeroPoint(out) != -32768 ||
        !(std::fabs(TensorScale(out) - 1.f / 65536) <= 0.001f * 1.f / 65536)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: int16 output needs scale 1/65536 and zero point -32768 (got %g, "
                           "%d)",
                           kOp, static_cast<double>(TensorScale(out)),
                           static_cast<int>(TensorZeroPoint(out)));
    }
  } else if (TensorZeroPoint(out) != -128 || !(TensorScale(out) == 1.f / 256)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: int8 output needs scale 1/256 and zero point -128 (got %g, %d)", kOp,
                         static_cast<double>(TensorScale(out)),
                         static_cast<int>(TensorZeroPoint(out)));
  }
  SoftmaxInt8Params p;
  if (!PrepareSoftmaxInt8Params(static_cast<double>(beta), static_cast<double>(TensorScale(in)),
                                &p)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: beta * input_scale * 2^26 must exceed 1 (beta %g, scale %g)", kOp,
                         static_cast<double>(beta), static_cast<double>(TensorScale(in)));
  }
  data->input_multiplier = p.input_multiplier;
  data->input_left_shift = p.input_left_shift;
  data->diff_min = p.diff_min;
  return Status::Ok();
}

Status SoftmaxInvoke(KernelContext& context, Node& node) {
  EvalTensor* in = nullptr;
  EvalTensor* out = nullptr;
  size_t n = 0;
  TFLM_ARENA_RETURN_IF_ERROR(GetUnaryTensors(context, node, kOp, &in, &out, &n));
  if (in->rank < 1 || out->rank < 1) return NodeNotPrepared(kOp);
  if (n == 0) return Status::Ok();  // no rows (and no empty-row arithmetic)
  const auto* data = static_cast<const SoftmaxOpData*>(node.user_data);
  const int32_t depth = in->dim(in->rank - 1);
  // n > 0: every extent is positive and their product fits.
  const int32_t outer = static_cast<int32_t>(static_cast<int64_t>(n) / depth);

  switch (in->type) {
    case TensorType::kFloat32:
      SoftmaxFloat(static_cast<float>(data->beta), outer, depth, in->as<const float>(),
                   out->as<float>());
      return Status::Ok();
    case TensorType::kInt8: {
      SoftmaxInt8Params p;
      p.input_multiplier = data->input_multiplier;
      p.input_left_shift = data->input_left_shift;
      p.diff_min = data->diff_min;
      if (out->type == TensorType::kInt16) {
        SoftmaxInt8ToInt16(p, outer, depth, in->as<const int8_t>(), out->as<int16_t>());
      } else {
        SoftmaxInt8(p, outer, depth, in->as<const int8_t>(), out->as<int8_t>());
      }
      return Status::Ok();
    }
    case TensorType::kInt16: {
      SoftmaxInt16Params p;
      p.input_multiplier = data->input_multiplier;
      p.input_left_shift = data->input_left_shift;
      p.exp_lut = data->exp_lut;
      p.one_over_one_plus_x_lut = data->one_over_one_plus_x_lut;
      SoftmaxInt16(p, outer, depth, in->as<const int16_t>(), out->as<int16_t>());
      return Status::Ok();
    }
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                           model::TensorTypeName(in->type));
  }
}

// SoftmaxOptions: beta 0.
void ReadSoftmax(model::OptionsTable& table, SoftmaxOptions& o) { o.beta = table.Float(0, 0.0f); }

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinSoftmax, kOp, InitOpData<SoftmaxOpData>, SoftmaxPrepare, SoftmaxInvoke,
    OptionsReader<SoftmaxOptions, ReadSoftmax>(model::kSoftmaxOptions));

}  // namespace

const KernelRegistration& Register_SOFTMAX() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
