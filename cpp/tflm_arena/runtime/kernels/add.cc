// ADD glue: init / prepare / invoke over KernelContext (math in add_math.cc).
//
// Persistent memory per node: AddOpData in init (60 bytes). TFLM allocates
// OpDataAdd (64 bytes). No scratch.
#include "tflm_arena/runtime/kernels/add.h"

#include <new>

#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "ADD";

Status AddPrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) {
    return NodeNotPrepared(kOp);
  }
  if (node.inputs.size() != 2 || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: expected 2 inputs and 1 output, got %zu and %zu", kOp,
                         node.inputs.size(), node.outputs.size());
  }
  // Absent options read as the format's defaults (TFLM zero-fills them).
  const AddOptions defaults;
  const AddOptions& options = node.builtin_data != nullptr ? node.options<AddOptions>() : defaults;
  if (node.inputs[0] < 0 || node.inputs[1] < 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input %d is omitted but both inputs are required", kOp,
                         node.inputs[0] < 0 ? 0 : 1);
  }
  model::TensorInfo input1, input2, output;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &input1));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, &input2));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &output));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, output));
  return PrepareAdd(options, input1, input2, output, static_cast<AddParams*>(node.user_data));
}

Status AddInvoke(KernelContext& context, Node& node) {
  const auto& params = *static_cast<const AddParams*>(node.user_data);
  const EvalTensor* input1 = context.input(node, 0);
  const EvalTensor* input2 = context.input(node, 1);
  EvalTensor* output = context.output(node, 0);
  if (input1 == nullptr || input2 == nullptr || output == nullptr) {
    return NodeNotPrepared(kOp);
  }
  const int64_t count = SafeElementCount(output->dims, static_cast<size_t>(output->rank));
  if (count == 0) return Status::Ok();
  if (input1->data == nullptr || input2->data == nullptr || output->data == nullptr) {
    return NodeNotPrepared(kOp);
  }
  if (!params.requires_broadcast) {
    // Prepare checked that both inputs and the output share one shape.
    const size_t n = static_cast<size_t>(count);
    switch (output->type) {
      case model::TensorType::kFloat32:
        AddFloat(params, n, input1->as<const float>(), input2->as<const float>(),
                 output->as<float>());
        return Status::Ok();
      case model::TensorType::kInt8:
        AddInt8(params, n, input1->as<const int8_t>(), input2->as<const int8_t>(),
                output->as<int8_t>());
        return Status::Ok();
      case model::TensorType::kInt16:
        AddInt16(params, n, input1->as<const int16_t>(), input2->as<const int16_t>(),
                 output->as<int16_t>());
        return Status::Ok();
      case model::TensorType::kInt32:
        AddInt32(n, input1->as<const int32_t>(), input2->as<const int32_t>(),
                 output->as<int32_t>());
        return Status::Ok();
      default:
        break;
    }
  } else {
    BroadcastDims dims;
    TFLM_ARENA_RETURN_IF_ERROR(MakeBroadcastDims(
        Span<const int32_t>(input1->dims, static_cast<size_t>(input1->rank)),
        Span<const int32_t>(input2->dims, static_cast<size_t>(input2->rank)),
        Span<const int32_t>(output->dims, static_cast<size_t>(output->rank)), &dims));
    switch (output->type) {
      case model::TensorType::kFloat32:
        BroadcastAddFloat(params, dims, input1->as<const float>(), input2->as<const float>(),
                          output->as<float>());
        return Status::Ok();
      case model::TensorType::kInt8:
        BroadcastAddInt8(params, dims, input1->as<const int8_t>(), input2->as<const int8_t>(),
                         output->as<int8_t>());
        return Status::Ok();
      case model::TensorType::kInt16:
        BroadcastAddInt16(params, dims, input1->as<const int16_t>(), input2->as<const int16_t>(),
                          output->as<int16_t>());
        return Status::Ok();
      case model::TensorType::kInt32:
        BroadcastAddInt32(dims, input1->as<const int32_t>(), input2->as<const int32_t>(),
                          output->as<int32_t>());
        return Status::Ok();
      default:
        break;
    }
  }
  return Status::Error(StatusCode::kUnimplemented, "%s: output type %s not supported", kOp,
                       model::TensorTypeName(output->type));
}

// AddOptions: fused_activation_function 0 (pot_scale_int16, field 1, is
// not read: TFLM's reference ADD ignores it too).
void ReadAdd(model::OptionsTable& table, AddOptions& o) {
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinAdd, kOp, InitOpData<AddParams>, AddPrepare, AddInvoke,
                     OptionsReader<AddOptions, ReadAdd>(model::kAddOptions));

}  // namespace

const KernelRegistration& Register_ADD() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
