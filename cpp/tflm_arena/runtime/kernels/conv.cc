// CONV_2D glue: init / prepare / invoke over KernelContext (math in
// conv_math.cc).
//
// Persistent memory per node: ConvOpData in init; for int8 / int16 one array of
// 2 x output-channels int32 (multipliers, then shifts) in prepare. TFLM
// allocates its OpDataConv (72 bytes on 64-bit) plus two int32 arrays of
// output-channels entries, for float too. No scratch (TFLM requests scratch
// only for int4 filters, which we do not run).
#include "tflm_arena/runtime/kernels/conv.h"

#include <new>

#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "CONV_2D";

struct ConvOpData {
  ConvParams params;
  int32_t* per_channel = nullptr;  // quantized: multipliers[C] then shifts[C]
};

Status ConvInit(KernelContext& context, Node& node) {
  void* memory = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(sizeof(ConvOpData), &memory));
  node.user_data = new (memory) ConvOpData();
  return Status::Ok();
}

Status ConvPrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) {
    return Status::Error(StatusCode::kFailedPrecondition, "%s: prepare before init", kOp);
  }
  if (node.builtin_data == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: operator %u has no Conv2DOptions", kOp, node.index);
  }
  const size_t num_inputs = node.inputs.size();
  if ((num_inputs != 2 && num_inputs != 3) || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: expected 2 or 3 inputs and 1 output, got %zu and %zu", kOp,
                         num_inputs, node.outputs.size());
  }
  model::TensorInfo input, filter, bias, output;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &input));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, &filter));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &output));
  const bool has_bias = num_inputs == 3 && node.inputs[2] >= 0;
  if (has_bias) TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 2, &bias));

  auto* data = static_cast<ConvOpData*>(node.user_data);
  TFLM_ARENA_RETURN_IF_ERROR(PrepareConv(node.options<model::ConvOptions>(), input, filter,
                                         has_bias ? &bias : nullptr, output, &data->params));
  if (input.type != model::TensorType::kFloat32) {
    const size_t channels = static_cast<size_t>(ConvOutputChannels(filter));
    void* memory = nullptr;
    TFLM_ARENA_RETURN_IF_ERROR(
        context.AllocatePersistentBuffer(2 * channels * sizeof(int32_t), &memory));
    data->per_channel = static_cast<int32_t*>(memory);
    ConvMultipliers(input, filter, output, data->per_channel, data->per_channel + channels);
  }
  return Status::Ok();
}

Status ConvInvoke(KernelContext& context, Node& node) {
  const auto& data = *static_cast<const ConvOpData*>(node.user_data);
  const EvalTensor* input = context.input(node, 0);
  const EvalTensor* filter = context.input(node, 1);
  const EvalTensor* bias = context.input(node, 2);  // null when omitted
  EvalTensor* output = context.output(node, 0);
  if (input == nullptr || filter == nullptr || output == nullptr) {
    return Status::Error(StatusCode::kInternal, "%s: missing tensor at invoke", kOp);
  }
  const Shape4 in_shape = MakeShape4(input->dims);
  const Shape4 f_shape = MakeShape4(filter->dims);
  const Shape4 out_shape = MakeShape4(output->dims);
  switch (input->type) {
    case model::TensorType::kFloat32:
      ConvFloat(data.params, in_shape, input->as<const float>(), f_shape,
                filter->as<const float>(), bias != nullptr ? bias->as<const float>() : nullptr,
                out_shape, output->as<float>());
      return Status::Ok();
    case model::TensorType::kInt8: {
      const int32_t* multipliers = data.per_channel;
      const int32_t* shifts = data.per_channel + out_shape.depth;
      ConvPerChannelInt8(data.params, multipliers, shifts, in_shape, input->as<const int8_t>(),
                         f_shape, filter->as<const int8_t>(),
                         bias != nullptr ? bias->as<const int32_t>() : nullptr, out_shape,
                         output->as<int8_t>());
      return Status::Ok();
    }
    case model::TensorType::kInt16: {
      const bool bias64 = bias != nullptr && bias->type == model::TensorType::kInt64;
      ConvPerChannelInt16(data.params, data.per_channel, data.per_channel + out_shape.depth,
                          in_shape, input->as<const int16_t>(), f_shape,
                          filter->as<const int8_t>(),
                          bias != nullptr && !bias64 ? bias->as<const int32_t>() : nullptr,
                          bias64 ? bias->as<const int64_t>() : nullptr, out_shape,
                          output->as<int16_t>());
      return Status::Ok();
    }
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: input type %s not supported", kOp,
                           model::TensorTypeName(input->type));
  }
}

}  // namespace

const KernelRegistration& Register_CONV_2D() {
  static const KernelRegistration registration = {3, kOp, ConvInit, ConvPrepare, ConvInvoke,
                                                  nullptr};
  return registration;
}

}  // namespace runtime
}  // namespace tflm_arena
