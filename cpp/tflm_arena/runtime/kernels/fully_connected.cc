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

#include "tflm_arena/runtime/kernels/conv_glue.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "FULLY_CONNECTED";

struct FullyConnectedOpData {
  FullyConnectedParams params;
  int32_t* per_channel = nullptr;  // per-channel int8: multipliers[units] then shifts[units]
};

Status FullyConnectedPrepare(KernelContext& context, Node& node) {
  WeightedNodeInfo t;
  TFLM_ARENA_RETURN_IF_ERROR(GetWeightedNodeInfo(context, node, kOp, /*options_name=*/nullptr, &t));
  // Absent options read as the format's defaults (TFLM zero-fills them).
  const FullyConnectedOptions defaults;
  const FullyConnectedOptions& options =
      node.builtin_data != nullptr ? node.options<FullyConnectedOptions>() : defaults;

  auto* data = static_cast<FullyConnectedOpData*>(node.user_data);
  TFLM_ARENA_RETURN_IF_ERROR(PrepareFullyConnected(options, t.input, t.weights, t.bias_or_null(),
                                                   t.output, &data->params));
  if (data->params.per_channel) {
    const size_t units = static_cast<size_t>(data->params.output_depth);
    TFLM_ARENA_RETURN_IF_ERROR(AllocatePerChannel(context, units, &data->per_channel));
    FullyConnectedPerChannelMultipliers(t.input, t.weights, t.output, data->params.output_depth,
                                        data->per_channel, data->per_channel + units);
  }
  return Status::Ok();
}

Status FullyConnectedInvoke(KernelContext& context, Node& node) {
  const auto& data = *static_cast<const FullyConnectedOpData*>(node.user_data);
  WeightedTensors t;
  TFLM_ARENA_RETURN_IF_ERROR(GetWeightedTensors(context, node, kOp, &t));
  switch (t.input->type) {
    case model::TensorType::kFloat32:
      FullyConnectedFloat(data.params, t.input->as<const float>(), t.weights->as<const float>(),
                          BiasData<float>(t.bias), t.output->as<float>());
      return Status::Ok();
    case model::TensorType::kInt8: {
      const int32_t* b = BiasData<int32_t>(t.bias);
      if (data.params.per_channel) {
        FullyConnectedPerChannelInt8(
            data.params, data.per_channel, data.per_channel + data.params.output_depth,
            t.input->as<const int8_t>(), t.weights->as<const int8_t>(), b, t.output->as<int8_t>());
      } else {
        FullyConnectedInt8(data.params, t.input->as<const int8_t>(), t.weights->as<const int8_t>(),
                           b, t.output->as<int8_t>());
      }
      return Status::Ok();
    }
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: input type %s not supported", kOp,
                           model::TensorTypeName(t.input->type));
  }
}

// FullyConnectedOptions: fused_activation_function 0, weights_format 1,
// keep_num_dims 2.
void ReadFullyConnected(model::OptionsTable& table, FullyConnectedOptions& o) {
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
  o.weights_format = table.UInt8(1, 0);
  o.keep_num_dims = table.Bool(2, false);
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinFullyConnected, kOp, InitOpData<FullyConnectedOpData>, FullyConnectedPrepare,
    FullyConnectedInvoke,
    OptionsReader<FullyConnectedOptions, ReadFullyConnected>(model::kFullyConnectedOptions));

}  // namespace

const KernelRegistration& Register_FULLY_CONNECTED() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
