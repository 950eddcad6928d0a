// CONCATENATION glue: options parsing, init / prepare / invoke over
// KernelContext (math in concatenation_math.cc).
#include "tflm_arena/runtime/kernels/concatenation.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "CONCATENATION";
constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kInt8,  TensorType::kInt16,
                                 TensorType::kInt32,   TensorType::kInt64, TensorType::kBool};

// ConcatenationOptions: axis 0, fused_activation_function 1.
void ReadConcatenation(model::OptionsTable& table, ConcatenationOptions& o) {
  o.axis = table.Int32(0, 0);
  o.activation = table.UInt8(1, 0);
}

Status ConcatenationPrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(
      CheckArity(node, kOp, 1, kConcatenationMaxInputs, 1, node.inputs.size()));
  const ConcatenationOptions options =
      node.builtin_data != nullptr ? node.options<ConcatenationOptions>() : ConcatenationOptions();
  if (options.activation != static_cast<int32_t>(model::Activation::kNone)) {
    return Status::Error(StatusCode::kUnimplemented,
                         "%s: fused activation %d not supported (only NONE)", kOp,
                         options.activation);
  }
  model::TensorInfo out;
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireType(kOp, "output", out.type, kTypes, 6));
  TFLM_ARENA_RETURN_IF_ERROR(RequireMaxRank(kOp, "output", out, kConcatenationMaxRank));
  const int rank = static_cast<int>(out.shape.size());
  const int n = static_cast<int>(node.inputs.size());
  const int32_t* shapes[kConcatenationMaxInputs] = {};
  for (int i = 0; i < n; ++i) {
    model::TensorInfo in;
    TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, static_cast<size_t>(i), &in));
    TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(kOp, "an input", in, "the output", out));
    if (static_cast<int>(in.shape.size()) != rank) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: input %d has rank %zu, output %d",
                           kOp, i, in.shape.size(), rank);
    }
    if (in.type == TensorType::kInt8 &&
        (static_cast<double>(TensorScale(in)) != static_cast<double>(TensorScale(out)) ||
         TensorZeroPoint(in) != TensorZeroPoint(out))) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: input %d must have the output's scale and zero point", kOp, i);
    }
    if (in.type == TensorType::kInt16 && TensorZeroPoint(in) != 0) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: input %d zero point must be 0", kOp,
                           i);
    }
    shapes[i] = in.shape.data();
  }
  if (out.type == TensorType::kInt16 && TensorZeroPoint(out) != 0) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: output zero point must be 0", kOp);
  }
  int axis = 0;
  TFLM_ARENA_RETURN_IF_ERROR(
      PrepareConcatenation(options.axis, shapes, n, out.shape.data(), rank, &axis));
  auto* data = static_cast<ConcatenationOpData*>(node.user_data);
  data->axis = static_cast<int8_t>(axis);
  data->inputs_count = static_cast<uint16_t>(n);
  return Status::Ok();
}

Status ConcatenationInvoke(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  const auto& data = *static_cast<const ConcatenationOpData*>(node.user_data);
  const int n = data.inputs_count;
  EvalTensor* out = context.output(node, 0);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, out));
  if (n == 0 || static_cast<size_t>(n) != node.inputs.size()) return NodeNotPrepared(kOp);
  const int32_t* shapes[kConcatenationMaxInputs];
  const uint8_t* inputs[kConcatenationMaxInputs];
  for (int i = 0; i < n; ++i) {
    const EvalTensor* in = context.input(node, static_cast<size_t>(i));
    TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, in));
    if (in->rank != out->rank) return NodeNotPrepared(kOp);
    shapes[i] = in->dims;
    inputs[i] = in->data;
  }
  ConcatenationCopy(data.axis, shapes, inputs, n, out->dims, out->rank,
                    model::ElementByteSize(out->type), out->data);
  return Status::Ok();
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinConcatenation, kOp, InitOpData<ConcatenationOpData>, ConcatenationPrepare,
    ConcatenationInvoke,
    OptionsReader<ConcatenationOptions, ReadConcatenation>(model::kConcatenationOptions));

}  // namespace

const KernelRegistration& Register_CONCATENATION() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
