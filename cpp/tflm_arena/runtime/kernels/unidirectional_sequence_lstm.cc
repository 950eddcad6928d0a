// UNIDIRECTIONAL_SEQUENCE_LSTM glue: options parsing, init / prepare /
// invoke over KernelContext (math in unidirectional_sequence_lstm_math.cc).
#include "tflm_arena/runtime/kernels/unidirectional_sequence_lstm.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "UNIDIRECTIONAL_SEQUENCE_LSTM";
constexpr size_t kOperands = 24;
constexpr size_t kHiddenState = 18, kCellState = 19;

// UnidirectionalSequenceLSTMOptions: fused_activation_function 0,
// cell_clip 1, proj_clip 2, time_major 3, asymmetric_quantize_inputs 4,
// diagonal_recurrent_tensors 5.
void ReadLstm(model::OptionsTable& table, LstmOptions& o) {
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
  o.cell_clip = table.Float(1, 0.0f);
  o.proj_clip = table.Float(2, 0.0f);
  o.time_major = table.Bool(3, false);
  o.asymmetric_quantize_inputs = table.Bool(4, false);
  o.diagonal_recurrent_tensors = table.Bool(5, false);
}

Status LstmPrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  if (node.builtin_data == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: operator %u has no UnidirectionalSequenceLSTMOptions", kOp,
                         node.index);
  }
  if (node.inputs.size() != kOperands || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: expected 24 inputs and 1 output, got %zu and %zu", kOp,
                         node.inputs.size(), node.outputs.size());
  }
  model::TensorInfo infos[kOperands];
  model::TensorInfo output;
  LstmTensorInfos t;
  for (size_t i = 0; i < kOperands; ++i) {
    if (node.inputs[i] < 0) continue;
    TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, i, &infos[i]));
    t.operand[i] = &infos[i];
  }
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &output));
  t.output = &output;
  auto* data = static_cast<LstmOpData*>(node.user_data);
  TFLM_ARENA_RETURN_IF_ERROR(PrepareLstm(node.options<LstmOptions>(), t, &data->params));
  const size_t cell_bytes = infos[kCellState].type == TensorType::kFloat32 ? 4 : 2;
  const size_t bytes = static_cast<size_t>(data->params.batch) *
                       static_cast<size_t>(data->params.state_dim) * cell_bytes;
  for (int i = 0; i < 4; ++i) {
    int index = -1;
    TFLM_ARENA_RETURN_IF_ERROR(context.RequestScratchBufferInArena(bytes, &index));
    data->buffer_indices[i] = index;
  }
  return Status::Ok();
}

// Operand i's data (null when omitted); `ok` false when it should have
// memory and has none.
template <typename T>
T* DataOf(const KernelContext& context, const Node& node, size_t i, bool* ok) {
  const EvalTensor* t = context.input(node, i);
  if (t == nullptr) return nullptr;
  if (t->data == nullptr && SafeElementCount(t->dims, static_cast<size_t>(t->rank)) > 0) {
    *ok = false;
  }
  return t->as<T>();
}

template <typename Act, typename Weight, typename Bias, typename Cell>
Status Run(KernelContext& context, const Node& node, const LstmOpData& data,
           void (*run)(const LstmParams&, const LstmData<Act, Weight, Bias, Cell>&)) {
  LstmData<Act, Weight, Bias, Cell> d;
  bool ok = true;
  d.input = DataOf<const Act>(context, node, 0, &ok);
  for (int g = 0; g < 4; ++g) {
    d.input_weights[g] = DataOf<const Weight>(context, node, 1 + g, &ok);
    d.recurrent_weights[g] = DataOf<const Weight>(context, node, 5 + g, &ok);
    d.bias[g] = DataOf<const Bias>(context, node, 12 + g, &ok);
    d.buffers[g] = static_cast<Cell*>(context.GetScratchBuffer(data.buffer_indices[g]));
    if (d.buffers[g] == nullptr || d.input_weights[g] == nullptr ||
        d.recurrent_weights[g] == nullptr || d.bias[g] == nullptr) {
      ok = false;
    }
  }
  d.hidden_state = DataOf<Act>(context, node, kHiddenState, &ok);
  d.cell_state = DataOf<Cell>(context, node, kCellState, &ok);
  const EvalTensor* out = context.output(node, 0);
  if (out == nullptr || out->data == nullptr || d.input == nullptr || d.hidden_state == nullptr ||
      d.cell_state == nullptr || !ok) {
    return NodeNotPrepared(kOp);
  }
  d.output = out->as<Act>();
  run(data.params, d);
  return Status::Ok();
}

Status LstmInvoke(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  const auto& data = *static_cast<const LstmOpData*>(node.user_data);
  const EvalTensor* input = context.input(node, 0);
  if (input == nullptr) return NodeNotPrepared(kOp);
  switch (input->type) {
    case TensorType::kFloat32:
      return Run(context, node, data, LstmFloat);
    case TensorType::kInt8:
      return Run(context, node, data, LstmInt8);
    case TensorType::kInt16:
      return Run(context, node, data, LstmInt16);
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: input type %s not supported", kOp,
                           model::TensorTypeName(input->type));
  }
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinUnidirectionalSequenceLstm, kOp, InitOpData<LstmOpData>, LstmPrepare, LstmInvoke,
    OptionsReader<LstmOptions, ReadLstm>(model::kUnidirectionalSequenceLSTMOptions));

}  // namespace

const KernelRegistration& Register_UNIDIRECTIONAL_SEQUENCE_LSTM() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
