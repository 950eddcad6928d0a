// UNIDIRECTIONAL_SEQUENCE_LSTM: float32; int8 activations with int8
// weights, int32 biases and an int16 cell state; int16 activations with int8
// weights, int64 biases and an int16 cell state — as TFLM's reference kernel
// (micro/kernels/unidirectional_sequence_lstm.cc, lstm_eval.{h,cc},
// lstm_eval_common.cc).
//
// Operands (TFLM's kLstm*Tensor): 0 input [batch, time, input] (or [time,
// batch, input] when time_major), 1-4 input-to-{input, forget, cell, output}
// weights [state, input], 5-8 recurrent-to-{...} weights [state, state],
// 12-15 {input, forget, cell, output} gate biases [state], 18 hidden state
// and 19 cell state (variable tensors, batch x state elements). Like TFLM:
// no CIFG, peephole (9-11), projection (16-17) or layer norm (20-23) — those
// operands must be omitted. The operator's intermediates are not read.
//
// Per time step (and per batch unless time_major), as TFLM's LstmStep:
//   gate = act(FC(x_t, W_x, b) + FC(h, W_h)) for forget, input, cell (the
//   cell gate's act is the options' activation, TANH) and output gates
//   (sigmoid), with the two FCs' int16 outputs (scale 2^-12) added with
//   saturation; c = forget * c + input * cell_gate (each product a
//   requantizing Mul, the sum saturating), clipped to +-cell_clip when > 0;
//   h = tanh(c) * output_gate; the output row is a copy of h.
// Quantized pieces reproduced bit for bit: the FC multipliers
// double(float(in_scale * w_scale)) / 2^-12, the Mul multipliers
// 2^-15 * {c_scale, 2^-15, 2^-15} / {c_scale, c_scale, h_scale} in double,
// the int16 sigmoid / tanh of the 256-entry table with linear interpolation
// (reference_integer_ops::Logistic / Tanh), tanh(c)'s input shift from
// log2(cell scale), and the clip quantized by double(clip) / double(scale).
//
// Memory per node, as TFLM: the 688-byte OpData (persistent, init); four
// scratch buffers of batch x state cell-type elements (int16 or float).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_UNIDIRECTIONAL_SEQUENCE_LSTM_H_
#define TFLM_ARENA_RUNTIME_KERNELS_UNIDIRECTIONAL_SEQUENCE_LSTM_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace runtime {

// UnidirectionalSequenceLSTMOptions.
struct LstmOptions {
  model::Activation activation = model::Activation::kNone;
  float cell_clip = 0.0f;
  float proj_clip = 0.0f;
  bool time_major = false;
  bool asymmetric_quantize_inputs = false;
  bool diagonal_recurrent_tensors = false;
};

// One quantized fully connected product (TFLM's FullyConnectedParams).
struct LstmFcParams {
  int32_t input_offset = 0;
  int32_t weights_offset = 0;
  int32_t output_offset = 0;
  int32_t multiplier = 0;
  int32_t shift = 0;
  int32_t act_min = 0;
  int32_t act_max = 0;
};

// One requantizing elementwise product (TFLM's ArithmeticParams subset).
struct LstmMulParams {
  int32_t output_offset = 0;
  int32_t multiplier = 0;
  int32_t shift = 0;
  int32_t act_min = 0;
  int32_t act_max = 0;
};

// The gates in operand order (weights 1 + g and 5 + g, bias 12 + g).
enum LstmGate { kInputGate = 0, kForgetGate = 1, kCellGate = 2, kOutputGate = 3 };

// Everything prepare derives.
struct LstmParams {
  bool time_major = false;
  int32_t batch = 0, time_steps = 0, input_dim = 0, state_dim = 0;
  float cell_clip = 0.0f;
  int16_t quantized_cell_clip = 0;
  int32_t cell_scale_power = 0;  // log2 of the int16 cell state's scale
  LstmFcParams input_fc[4];      // by LstmGate
  LstmFcParams recurrent_fc[4];
  LstmMulParams forget_cell_mul, input_mul, output_mul;
};

// The OpData: the params and the four scratch indices, padded to TFLM's
// OpDataLSTM (688 bytes on 64-bit) so the persistent figures match.
struct LstmOpData {
  LstmParams params;
  int32_t buffer_indices[4] = {-1, -1, -1, -1};
  uint8_t reserved_[688 - sizeof(LstmParams) - 4 * sizeof(int32_t)];
};
static_assert(sizeof(LstmOpData) == 688, "LstmOpData must be TFLM's OpDataLSTM size");

// The model facts of operands 0..23 (null = omitted) and the output.
struct LstmTensorInfos {
  const model::TensorInfo* operand[24] = {};
  const model::TensorInfo* output = nullptr;
};

// Checks a node (present and omitted operands, types, shapes, variable
// states, quantization) and fills `params`.
Status PrepareLstm(const LstmOptions& options, const LstmTensorInfos& t, LstmParams* params);

// The data an invoke reads and writes. Weights by LstmGate: input_weights[g]
// is operand 1 + g; recurrent_weights[g] 5 + g; bias[g] 12 + g.
template <typename Act, typename Weight, typename Bias, typename Cell>
struct LstmData {
  const Act* input = nullptr;
  const Weight* input_weights[4] = {};
  const Weight* recurrent_weights[4] = {};
  const Bias* bias[4] = {};
  Act* hidden_state = nullptr;
  Cell* cell_state = nullptr;
  Act* output = nullptr;
  Cell* buffers[4] = {};  // batch x state each
};

void LstmFloat(const LstmParams& p, const LstmData<float, float, float, float>& d);
void LstmInt8(const LstmParams& p, const LstmData<int8_t, int8_t, int32_t, int16_t>& d);
void LstmInt16(const LstmParams& p, const LstmData<int16_t, int8_t, int64_t, int16_t>& d);

// TFLM's int16 sigmoid (input Q3.12, output Q0.15) and tanh (input shifted
// by `input_left_shift` / scaled by `input_multiplier` as
// reference_integer_ops::Tanh, output Q0.15), in place allowed.
void LstmSigmoidInt16(size_t count, const int16_t* input, int16_t* output);
void LstmTanhInt16(int32_t input_multiplier, int32_t input_left_shift, size_t count,
                   const int16_t* input, int16_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_UNIDIRECTIONAL_SEQUENCE_LSTM_H_
