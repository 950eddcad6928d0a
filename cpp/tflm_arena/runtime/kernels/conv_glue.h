// KernelContext glue shared by the weighted kernels (CONV_2D,
// DEPTHWISE_CONV_2D, FULLY_CONNECTED): OpData allocation, the prepare
// preamble (node checks and tensor facts), the per-channel multiplier array
// and the invoke-time tensor lookup. CONV_2D and DEPTHWISE_CONV_2D share
// their whole prepare (PrepareConvNode) and invoke (InvokeConvNode). Math
// stays in the *_math.cc files.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_CONV_GLUE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_CONV_GLUE_H_

#include <cstddef>
#include <cstdint>
#include <new>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/conv_common.h"

namespace tflm_arena {
namespace runtime {

// The model facts of a weighted node: input 0, weights (filter) 1, optional
// bias 2, output 0.
struct WeightedNodeInfo {
  model::TensorInfo input, weights, bias, output;
  bool has_bias = false;
  const model::TensorInfo* bias_or_null() const { return has_bias ? &bias : nullptr; }
};

// Prepare preamble: OpData allocated (NodeNotPrepared), options present when `options_name` is not
// null (kInvalidArgument naming it), 2 or 3 inputs and 1 output (kInvalidArgument), then the
// tensors' facts (input, weights, output, then the bias when input 2 is
// present and not -1).
Status GetWeightedNodeInfo(const KernelContext& context, const Node& node, const char* op,
                           const char* options_name, WeightedNodeInfo* info);

// One persistent array of 2 x `channels` int32: multipliers, then shifts.
Status AllocatePerChannel(KernelContext& context, size_t channels, int32_t** per_channel);

// Invoke: the node's runtime tensors; NodeNotPrepared
// when input, weights or output is absent. `bias` is null when omitted.
struct WeightedTensors {
  const EvalTensor* input = nullptr;
  const EvalTensor* weights = nullptr;
  const EvalTensor* bias = nullptr;
  EvalTensor* output = nullptr;
};
Status GetWeightedTensors(const KernelContext& context, const Node& node, const char* op,
                          WeightedTensors* tensors);

// An optional bias tensor's data as T, null when the bias is omitted.
template <typename T>
const T* BiasData(const EvalTensor* bias) {
  return bias != nullptr ? bias->as<const T>() : nullptr;
}

// OpData of CONV_2D and DEPTHWISE_CONV_2D.
struct ConvOpData {
  ConvParams params;
  int32_t* per_channel = nullptr;  // quantized: multipliers[C] then shifts[C]
};

// The whole CONV_2D / DEPTHWISE_CONV_2D prepare: the preamble (requiring
// options named `options_name`), `prepare` into ConvOpData::params, then for
// quantized inputs `output_channels(filter)` per-channel multipliers and
// shifts from `multipliers`.
template <typename Options>
Status PrepareConvNode(KernelContext& context, Node& node, const char* op, const char* options_name,
                       Status (*prepare)(const Options&, const model::TensorInfo&,
                                         const model::TensorInfo&, const model::TensorInfo*,
                                         const model::TensorInfo&, ConvParams*),
                       int32_t (*output_channels)(const model::TensorInfo&),
                       void (*multipliers)(const model::TensorInfo&, const model::TensorInfo&,
                                           const model::TensorInfo&, int32_t*, int32_t*)) {
  WeightedNodeInfo t;
  TFLM_ARENA_RETURN_IF_ERROR(GetWeightedNodeInfo(context, node, op, options_name, &t));
  auto* data = static_cast<ConvOpData*>(node.user_data);
  TFLM_ARENA_RETURN_IF_ERROR(prepare(node.options<Options>(), t.input, t.weights, t.bias_or_null(),
                                     t.output, &data->params));
  if (t.input.type != model::TensorType::kFloat32) {
    const size_t channels = static_cast<size_t>(output_channels(t.weights));
    TFLM_ARENA_RETURN_IF_ERROR(AllocatePerChannel(context, channels, &data->per_channel));
    multipliers(t.input, t.weights, t.output, data->per_channel, data->per_channel + channels);
  }
  return Status::Ok();
}

// The math a CONV_2D / DEPTHWISE_CONV_2D invoke runs (ConvFloat,
// ConvPerChannelInt8, ConvPerChannelInt16 and the depthwise equivalents).
using ConvFloatFn = void (*)(const ConvParams& params, const Shape4& input_shape,
                             const float* input, const Shape4& filter_shape, const float* filter,
                             const float* bias, const Shape4& output_shape, float* output);
using ConvInt8Fn = void (*)(const ConvParams& params, const int32_t* output_multiplier,
                            const int32_t* output_shift, const Shape4& input_shape,
                            const int8_t* input, const Shape4& filter_shape, const int8_t* filter,
                            const int32_t* bias, const Shape4& output_shape, int8_t* output);
using ConvInt16Fn = void (*)(const ConvParams& params, const int32_t* output_multiplier,
                             const int32_t* output_shift, const Shape4& input_shape,
                             const int16_t* input, const Shape4& filter_shape, const int8_t* filter,
                             const int32_t* bias32, const int64_t* bias64,
                             const Shape4& output_shape, int16_t* output);

// The whole CONV_2D / DEPTHWISE_CONV_2D invoke: GetWeightedTensors, the NHWC
// shapes from the runtime tensors, then by input type `run_float`,
// `run_int8` or `run_int16` (null: not run) with the per-channel multipliers
// and shifts; kUnimplemented for any other input type. An INT64 bias goes to
// run_int16 as bias64, any other as bias32.
Status InvokeConvNode(KernelContext& context, Node& node, const char* op, ConvFloatFn run_float,
                      ConvInt8Fn run_int8, ConvInt16Fn run_int16);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_CONV_GLUE_H_
