// SVDF glue: options parsing, init / prepare / invoke over KernelContext
// (math in svdf_math.cc).
#include "tflm_arena/runtime/kernels/svdf.h"

#include <initializer_list>
#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SVDF";
constexpr size_t kInput = 0, kWeightsFeature = 1, kWeightsTime = 2, kBias = 3, kState = 4;

// SVDFOptions: rank 0, fused_activation_function 1,
// asymmetric_quantize_inputs 2.
void ReadSvdf(model::OptionsTable& table, SvdfOptions& o) {
  o.rank = table.Int32(0, 0);
  o.activation = static_cast<model::Activation>(table.UInt8(1, 0));
  o.asymmetric_quantize_inputs = table.Bool(2, false);
}

Status SvdfPrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  if (node.builtin_data == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: operator %u has no SVDFOptions", kOp,
                         node.index);
  }
  if (node.inputs.size() != 5 || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: expected 5 inputs and 1 output, got %zu and %zu", kOp,
                         node.inputs.size(), node.outputs.size());
  }
  for (size_t i : {kInput, kWeightsFeature, kWeightsTime, kState}) {
    if (node.inputs[i] < 0) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: input %zu is omitted but required",
                           kOp, i);
    }
  }
  model::TensorInfo input, wf, wt, bias, state, output;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, kInput, &input));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, kWeightsFeature, &wf));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, kWeightsTime, &wt));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, kState, &state));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &output));
  const bool has_bias = node.inputs[kBias] >= 0;
  if (has_bias) TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, kBias, &bias));
  SvdfTensors t;
  t.input = &input;
  t.weights_feature = &wf;
  t.weights_time = &wt;
  t.bias = has_bias ? &bias : nullptr;
  t.state = &state;
  t.output = &output;
  auto* data = static_cast<SvdfOpData*>(node.user_data);
  SvdfDims d;
  TFLM_ARENA_RETURN_IF_ERROR(PrepareSvdf(node.options<SvdfOptions>(), t, &d, data));
  const size_t batch_filters = static_cast<size_t>(d.batch) * static_cast<size_t>(d.filters);
  int index = -1;
  // int32 accumulators or floats: 4 bytes each either way.
  TFLM_ARENA_RETURN_IF_ERROR(context.RequestScratchBufferInArena(batch_filters * 4, &index));
  data->scratch_index = index;
  if (input.type == TensorType::kInt8) {
    const size_t batch_units = static_cast<size_t>(d.batch) * static_cast<size_t>(d.units);
    TFLM_ARENA_RETURN_IF_ERROR(
        context.RequestScratchBufferInArena(batch_units * sizeof(int32_t), &index));
    data->scratch_output_index = index;
  }
  return Status::Ok();
}

Status Present(const EvalTensor* t) {
  if (t == nullptr ||
      (t->data == nullptr && SafeElementCount(t->dims, static_cast<size_t>(t->rank)) > 0)) {
    return NodeNotPrepared(kOp);
  }
  return Status::Ok();
}

Status SvdfInvoke(KernelContext& context, Node& node) {
  if (node.user_data == nullptr || node.builtin_data == nullptr) return NodeNotPrepared(kOp);
  const auto& data = *static_cast<const SvdfOpData*>(node.user_data);
  const EvalTensor* input = context.input(node, kInput);
  const EvalTensor* wf = context.input(node, kWeightsFeature);
  const EvalTensor* wt = context.input(node, kWeightsTime);
  const EvalTensor* bias = context.input(node, kBias);  // null when omitted
  EvalTensor* state = context.input(node, kState);
  EvalTensor* output = context.output(node, 0);
  for (const EvalTensor* t : {input, wf, wt, static_cast<const EvalTensor*>(state),
                              static_cast<const EvalTensor*>(output)}) {
    TFLM_ARENA_RETURN_IF_ERROR(Present(t));
  }
  if (bias != nullptr) TFLM_ARENA_RETURN_IF_ERROR(Present(bias));
  const SvdfOptions& o = node.options<SvdfOptions>();
  SvdfDims d;
  d.batch = input->dim(0);
  d.input_size = input->dim(1);
  d.filters = wf->dim(0);
  d.rank = o.rank;
  d.units = d.filters / d.rank;
  d.memory = wt->dim(1);
  void* scratch = context.GetScratchBuffer(data.scratch_index);
  if (scratch == nullptr) return NodeNotPrepared(kOp);
  if (input->type == TensorType::kFloat32) {
    SvdfFloat(d, o.activation, input->as<const float>(), wf->as<const float>(),
              wt->as<const float>(), bias != nullptr ? bias->as<const float>() : nullptr,
              state->as<float>(), static_cast<float*>(scratch), output->as<float>());
    return Status::Ok();
  }
  auto* scratch_output = static_cast<int32_t*>(context.GetScratchBuffer(data.scratch_output_index));
  if (scratch_output == nullptr) return NodeNotPrepared(kOp);
  const int32_t* bias32 = bias != nullptr ? bias->as<const int32_t>() : nullptr;
  if (wt->type == TensorType::kInt16) {
    SvdfInt16State(d, data, input->as<const int8_t>(), wf->as<const int8_t>(),
                   wt->as<const int16_t>(), bias32, state->as<int16_t>(),
                   static_cast<int32_t*>(scratch), scratch_output, output->as<int8_t>());
  } else {
    SvdfInt8State(d, data, input->as<const int8_t>(), wf->as<const int8_t>(),
                  wt->as<const int8_t>(), bias32, state->as<int8_t>(),
                  static_cast<int32_t*>(scratch), scratch_output, output->as<int8_t>());
  }
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinSvdf, kOp, InitOpData<SvdfOpData>, SvdfPrepare, SvdfInvoke,
                     OptionsReader<SvdfOptions, ReadSvdf>(model::kSVDFOptions));

}  // namespace

const KernelRegistration& Register_SVDF() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
