// FULLY_CONNECTED glue: init / prepare / invoke over KernelContext (math in
// fully_connected_math.cc).
//
// Persistent memory per node: FullyConnectedOpData in init; for per-channel
// int8 one array of 2 x units int32 (multipliers, then shifts) in prepare.
// TFLM allocates OpDataFullyConnected (64 bytes on 64-bit) plus, per
// channel, two int32 arrays of units entries. No scratch (TFLM requests
// scratch only for int4 weights).
#include "tflm_arena/runtime/kernels/fully_connected.h"

#include <new>

#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "FULLY_CONNECTED";

struct FullyConnectedOpData {
  FullyConnectedParams params;
  int32_t* per_channel = nullptr;  // per-channel int8: multipliers[units] then shifts[units]
};

Status FullyConnectedInit(KernelContext& context, Node& node) {
  void* memory = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(
      context.AllocatePersistentBuffer(sizeof(FullyConnectedOpData), &memory));
  node.user_data = new (memory) FullyConnectedOpData();
  return Status::Ok();
}

Status FullyConnectedPrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) {
    return Status::Error(StatusCode::kFailedPrecondition, "%s: prepare before init", kOp);
  }
  const size_t num_inputs = node.inputs.size();
  if ((num_inputs != 2 && num_inputs != 3) || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: expected 2 or 3 inputs and 1 output, got %zu and %zu", kOp,
                         num_inputs, node.outputs.size());
  }
  // Absent options read as the format's defaults (TFLM zero-fills them).
  const model::FullyConnectedOptions defaults;
  const model::FullyConnectedOptions& options =
      node.builtin_data != nullptr ? node.options<model::FullyConnectedOptions>() : defaults;
  model::TensorInfo input, weights, bias, output;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &input));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, &weights));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &output));
  const bool has_bias = num_inputs == 3 && node.inputs[2] >= 0;
  if (has_bias) TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 2, &bias));

  auto* data = static_cast<FullyConnectedOpData*>(node.user_data);
  TFLM_ARENA_RETURN_IF_ERROR(PrepareFullyConnected(options, input, weights,
                                                   has_bias ? &bias : nullptr, output,
                                                   &data->params));
  if (data->params.per_channel) {
    const size_t units = static_cast<size_t>(data->params.output_depth);
    void* memory = nullptr;
    TFLM_ARENA_RETURN_IF_ERROR(
        context.AllocatePersistentBuffer(2 * units * sizeof(int32_t), &memory));
    data->per_channel = static_cast<int32_t*>(memory);
    FullyConnectedPerChannelMultipliers(input, weights, output, data->params.output_depth,
                                        data->per_channel, data->per_channel + units);
  }
  return Status::Ok();
}

Status FullyConnectedInvoke(KernelContext& context, Node& node) {
  const auto& data = *static_cast<const FullyConnectedOpData*>(node.user_data);
  const EvalTensor* input = context.input(node, 0);
  const EvalTensor* weights = context.input(node, 1);
  const EvalTensor* bias = context.input(node, 2);  // null when omitted
  EvalTensor* output = context.output(node, 0);
  if (input == nullptr || weights == nullptr || output == nullptr) {
    return Status::Error(StatusCode::kInternal, "%s: missing tensor at invoke", kOp);
  }
  switch (input->type) {
    case model::TensorType::kFloat32:
      FullyConnectedFloat(data.params, input->as<const float>(), weights->as<const float>(),
                          bias != nullptr ? bias->as<const float>() : nullptr,
                          output->as<float>());
      return Status::Ok();
    case model::TensorType::kInt8: {
      const int32_t* b = bias != nullptr ? bias->as<const int32_t>() : nullptr;
      if (data.params.per_channel) {
        FullyConnectedPerChannelInt8(data.params, data.per_channel,
                                     data.per_channel + data.params.output_depth,
                                     input->as<const int8_t>(), weights->as<const int8_t>(), b,
                                     output->as<int8_t>());
      } else {
        FullyConnectedInt8(data.params, input->as<const int8_t>(), weights->as<const int8_t>(),
                           b, output->as<int8_t>());
      }
      return Status::Ok();
    }
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: input type %s not supported", kOp,
                           model::TensorTypeName(input->type));
  }
}

}  // namespace

const KernelRegistration& Register_FULLY_CONNECTED() {
  static const KernelRegistration registration = {
      9, kOp, FullyConnectedInit, FullyConnectedPrepare, FullyConnectedInvoke, nullptr};
  return registration;
}

}  // namespace runtime
}  // namespace tflm_arena
