#include "tflm_arena/runtime/kernels/conv_glue.h"

#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {

Status GetWeightedNodeInfo(const KernelContext& context, const Node& node, const char* op,
                           const char* options_name, WeightedNodeInfo* info) {
  if (node.user_data == nullptr) {
    return NodeNotPrepared(op);
  }
  if (options_name != nullptr && node.builtin_data == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: operator %u has no %s", op, node.index,
                         options_name);
  }
  const size_t num_inputs = node.inputs.size();
  if ((num_inputs != 2 && num_inputs != 3) || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: expected 2 or 3 inputs and 1 output, got %zu and %zu", op, num_inputs,
                         node.outputs.size());
  }
  if (node.inputs[0] < 0 || node.inputs[1] < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: input %d (%s) is omitted but required",
                         op, node.inputs[0] < 0 ? 0 : 1, node.inputs[0] < 0 ? "input" : "weights");
  }
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &info->input));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, &info->weights));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &info->output));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(op, info->output));
  info->has_bias = num_inputs == 3 && node.inputs[2] >= 0;
  if (info->has_bias) TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 2, &info->bias));
  return Status::Ok();
}

Status AllocatePerChannel(KernelContext& context, size_t channels, int32_t** per_channel) {
  void* memory = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(
      context.AllocatePersistentBuffer(2 * channels * sizeof(int32_t), &memory));
  *per_channel = static_cast<int32_t*>(memory);
  return Status::Ok();
}

Status GetWeightedTensors(const KernelContext& context, const Node& node, const char* op,
                          WeightedTensors* tensors) {
  tensors->input = context.input(node, 0);
  tensors->weights = context.input(node, 1);
  tensors->bias = context.input(node, 2);  // null when omitted
  tensors->output = context.output(node, 0);
  if (tensors->input == nullptr || tensors->weights == nullptr || tensors->output == nullptr) {
    return NodeNotPrepared(op);
  }
  // A tensor with elements but no memory would be dereferenced as null.
  const EvalTensor* all[4] = {tensors->input, tensors->weights, tensors->bias, tensors->output};
  for (const EvalTensor* t : all) {
    if (t != nullptr && t->data == nullptr &&
        SafeElementCount(t->dims, static_cast<size_t>(t->rank)) > 0) {
      return NodeNotPrepared(op);
    }
  }
  return Status::Ok();
}

Status InvokeConvNode(KernelContext& context, Node& node, const char* op, ConvFloatFn run_float,
                      ConvInt8Fn run_int8, ConvInt16Fn run_int16) {
  const auto& data = *static_cast<const ConvOpData*>(node.user_data);
  WeightedTensors t;
  TFLM_ARENA_RETURN_IF_ERROR(GetWeightedTensors(context, node, op, &t));
  const Shape4 in_shape = MakeShape4(t.input->dims);
  const Shape4 f_shape = MakeShape4(t.weights->dims);
  const Shape4 out_shape = MakeShape4(t.output->dims);
  switch (t.input->type) {
    case model::TensorType::kFloat32:
      run_float(data.params, in_shape, t.input->as<const float>(), f_shape,
                t.weights->as<const float>(), BiasData<float>(t.bias), out_shape,
                t.output->as<float>());
      return Status::Ok();
    case model::TensorType::kInt8: {
      const int32_t* multipliers = data.per_channel;
      const int32_t* shifts = data.per_channel + out_shape.depth;
      run_int8(data.params, multipliers, shifts, in_shape, t.input->as<const int8_t>(), f_shape,
               t.weights->as<const int8_t>(), BiasData<int32_t>(t.bias), out_shape,
               t.output->as<int8_t>());
      return Status::Ok();
    }
    case model::TensorType::kInt16: {
      if (run_int16 == nullptr) break;
      const bool bias64 = t.bias != nullptr && t.bias->type == model::TensorType::kInt64;
      run_int16(data.params, data.per_channel, data.per_channel + out_shape.depth, in_shape,
                t.input->as<const int16_t>(), f_shape, t.weights->as<const int8_t>(),
                bias64 ? nullptr : BiasData<int32_t>(t.bias),
                bias64 ? BiasData<int64_t>(t.bias) : nullptr, out_shape, t.output->as<int16_t>());
      return Status::Ok();
    }
    default:
      break;
  }
  return Status::Error(StatusCode::kUnimplemented, "%s: input type %s not supported", op,
                       model::TensorTypeName(t.input->type));
}

}  // namespace runtime
}  // namespace tflm_arena
