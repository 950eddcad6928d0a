// TRANSPOSE_CONV glue: options parsing, init / prepare / invoke over
// KernelContext (math in transpose_conv_math.cc).
#include "tflm_arena/runtime/kernels/transpose_conv.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "TRANSPOSE_CONV";
// Input positions (TFLM's kTransposeConv*Tensor); input 0, the output shape,
// is not read.
constexpr size_t kFilter = 1, kInput = 2, kBias = 3;

// TransposeConvOptions: padding 0, stride_w 1, stride_h 2,
// fused_activation_function 3, quantized_bias_type 4.
void ReadTransposeConv(model::OptionsTable& table, TransposeConvOptions& o) {
  o.padding = static_cast<model::Padding>(table.UInt8(0, 0));
  o.stride_w = table.Int32(1, 0);
  o.stride_h = table.Int32(2, 0);
  o.activation = static_cast<model::Activation>(table.UInt8(3, 0));
  o.quantized_bias_type = table.Int8(4, 0);
}

bool HasBias(const Node& node) { return node.inputs.size() == 4 && node.inputs[kBias] >= 0; }

Status TransposeConvPrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  if (node.builtin_data == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: operator %u has no %s", kOp, node.index,
                         model::OptionsTypeName(model::kTransposeConvOptions));
  }
  if ((node.inputs.size() != 3 && node.inputs.size() != 4) || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: expected 3 or 4 inputs and 1 output, got %zu and %zu", kOp,
                         node.inputs.size(), node.outputs.size());
  }
  if (node.inputs[kFilter] < 0 || node.inputs[kInput] < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: the %s (input %zu) is omitted", kOp,
                         node.inputs[kFilter] < 0 ? "filter" : "input",
                         node.inputs[kFilter] < 0 ? kFilter : kInput);
  }
  model::TensorInfo input, filter, bias, output;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, kInput, &input));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, kFilter, &filter));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &output));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, output));
  const bool has_bias = HasBias(node);
  if (has_bias) TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, kBias, &bias));
  auto* data = static_cast<TransposeConvOpData*>(node.user_data);
  TFLM_ARENA_RETURN_IF_ERROR(PrepareTransposeConv(node.options<TransposeConvOptions>(), input,
                                                  filter, has_bias ? &bias : nullptr, output,
                                                  &data->params));
  // As TFLM: the per-channel arrays for every type, two allocations.
  const size_t channels = static_cast<size_t>(filter.shape[0]);
  void* memory = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(channels * sizeof(int32_t), &memory));
  data->multipliers = static_cast<int32_t*>(memory);
  TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(channels * sizeof(int32_t), &memory));
  data->shifts = static_cast<int32_t*>(memory);
  if (input.type == TensorType::kFloat32) return Status::Ok();
  const size_t out_elements = static_cast<size_t>(SafeElementCount(output.shape));
  const size_t acc_bytes = input.type == TensorType::kInt8 ? sizeof(int32_t) : sizeof(int64_t);
  int index = -1;
  TFLM_ARENA_RETURN_IF_ERROR(context.RequestScratchBufferInArena(out_elements * acc_bytes, &index));
  data->scratch_index = index;
  if (input.type == TensorType::kInt16 && has_bias && bias.type == TensorType::kInt16) {
    TFLM_ARENA_RETURN_IF_ERROR(
        context.RequestScratchBufferInArena(channels * sizeof(int64_t), &index));
    data->bias_scratch_index = index;
  }
  PerChannelMultipliers(TensorScale(input), filter.scale, TensorScale(output),
                        static_cast<int32_t>(channels), data->multipliers, data->shifts);
  return Status::Ok();
}

// The tensor's data, or NodeNotPrepared when it has elements but no memory.
Status Present(const EvalTensor* t) {
  if (t == nullptr ||
      (t->data == nullptr && SafeElementCount(t->dims, static_cast<size_t>(t->rank)) > 0)) {
    return NodeNotPrepared(kOp);
  }
  return Status::Ok();
}

Status TransposeConvInvoke(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  const auto& data = *static_cast<const TransposeConvOpData*>(node.user_data);
  const EvalTensor* input = context.input(node, kInput);
  const EvalTensor* filter = context.input(node, kFilter);
  const EvalTensor* bias = HasBias(node) ? context.input(node, kBias) : nullptr;
  EvalTensor* output = context.output(node, 0);
  TFLM_ARENA_RETURN_IF_ERROR(Present(input));
  TFLM_ARENA_RETURN_IF_ERROR(Present(filter));
  TFLM_ARENA_RETURN_IF_ERROR(Present(output));
  if (bias != nullptr) TFLM_ARENA_RETURN_IF_ERROR(Present(bias));
  if (data.shifts == nullptr) return NodeNotPrepared(kOp);
  const Shape4 is = MakeShape4(input->dims);
  const Shape4 fs = MakeShape4(filter->dims);
  const Shape4 os = MakeShape4(output->dims);
  switch (input->type) {
    case TensorType::kFloat32:
      TransposeConvFloat(data.params, is, input->as<const float>(), fs, filter->as<const float>(),
                         bias != nullptr ? bias->as<const float>() : nullptr, os,
                         output->as<float>());
      return Status::Ok();
    case TensorType::kInt8: {
      auto* scratch = static_cast<int32_t*>(context.GetScratchBuffer(data.scratch_index));
      if (scratch == nullptr) return NodeNotPrepared(kOp);
      TransposeConvInt8(data.params, data.multipliers, data.shifts, is, input->as<const int8_t>(),
                        fs, filter->as<const int8_t>(),
                        bias != nullptr ? bias->as<const int32_t>() : nullptr, os,
                        output->as<int8_t>(), scratch);
      return Status::Ok();
    }
    case TensorType::kInt16: {
      auto* scratch = static_cast<int64_t*>(context.GetScratchBuffer(data.scratch_index));
      if (scratch == nullptr) return NodeNotPrepared(kOp);
      const int64_t* bias64 = nullptr;
      if (bias != nullptr && bias->type == TensorType::kInt16) {
        // Widened into its own scratch, as TFLM does.
        auto* wide = static_cast<int64_t*>(context.GetScratchBuffer(data.bias_scratch_index));
        if (wide == nullptr) return NodeNotPrepared(kOp);
        const int16_t* narrow = bias->as<const int16_t>();
        for (int32_t c = 0; c < os.depth; ++c) wide[c] = narrow[c];
        bias64 = wide;
      } else if (bias != nullptr) {
        bias64 = bias->as<const int64_t>();
      }
      TransposeConvInt16(data.params, data.multipliers, data.shifts, is, input->as<const int16_t>(),
                         fs, filter->as<const int8_t>(), bias64, os, output->as<int16_t>(),
                         scratch);
      return Status::Ok();
    }
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: input type %s not supported", kOp,
                           model::TensorTypeName(input->type));
  }
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinTransposeConv, kOp, InitOpData<TransposeConvOpData>, TransposeConvPrepare,
    TransposeConvInvoke,
    OptionsReader<TransposeConvOptions, ReadTransposeConv>(model::kTransposeConvOptions));

}  // namespace

const KernelRegistration& Register_TRANSPOSE_CONV() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
