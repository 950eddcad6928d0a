// UNIDIRECTIONAL_SEQUENCE_LSTM prepare checks and math (see
// unidirectional_sequence_lstm.h).
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "tflm_arena/runtime/kernels/conv_common.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/sigmoid.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unidirectional_sequence_lstm.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "UNIDIRECTIONAL_SEQUENCE_LSTM";
constexpr int32_t kInt16Min = std::numeric_limits<int16_t>::min();
constexpr int32_t kInt16Max = std::numeric_limits<int16_t>::max();

// --- the step's building blocks (TFLM's lstm_internal) -----------------------

int32_t Clamp(int32_t x, int32_t lo, int32_t hi) { return x < lo ? lo : (x > hi ? hi : x); }

// out[r][o] = requantize(sum_d (w[o][d] + w_off) * (in[r][d] + in_off) + bias[o]).
template <typename Act, typename Weight, typename Bias>
void FcQuantized(const LstmFcParams& p, int32_t rows, int32_t depth, int32_t units,
                 const Act* input, const Weight* weights, const Bias* bias, int16_t* output) {
  for (int32_t r = 0; r < rows; ++r) {
    const Act* in = input + static_cast<size_t>(r) * depth;
    for (int32_t o = 0; o < units; ++o) {
      const Weight* w = weights + static_cast<size_t>(o) * depth;
      Bias acc = 0;
      for (int32_t d = 0; d < depth; ++d) {
        const int32_t term = (static_cast<int32_t>(w[d]) + p.weights_offset) *
                             (static_cast<int32_t>(in[d]) + p.input_offset);
        acc = Accumulate(acc, static_cast<Bias>(term));
      }
      if (bias != nullptr) acc = Accumulate(acc, bias[o]);
      int32_t scaled = 0;
      if (sizeof(Bias) == 8) {
        scaled = MultiplyByQuantizedMultiplier64(static_cast<int64_t>(acc), p.multiplier, p.shift);
      } else {
        scaled = MultiplyByQuantizedMultiplier(static_cast<int32_t>(acc), p.multiplier, p.shift);
      }
      scaled = Clamp(WrappingAdd(scaled, p.output_offset), p.act_min, p.act_max);
      output[static_cast<size_t>(r) * units + o] = static_cast<int16_t>(scaled);
    }
  }
}

void FcFloat(int32_t rows, int32_t depth, int32_t units, const float* input, const float* weights,
             const float* bias, float* output) {
  for (int32_t r = 0; r < rows; ++r) {
    const float* in = input + static_cast<size_t>(r) * depth;
    for (int32_t o = 0; o < units; ++o) {
      const float* w = weights + static_cast<size_t>(o) * depth;
      float total = 0.0f;
      for (int32_t d = 0; d < depth; ++d) total += in[d] * w[d];
      output[static_cast<size_t>(r) * units + o] = total + (bias != nullptr ? bias[o] : 0.0f);
    }
  }
}

void AddInPlace(size_t n, int16_t* a, const int16_t* b) {
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<int16_t>(Clamp(static_cast<int32_t>(a[i]) + b[i], kInt16Min, kInt16Max));
  }
}
void AddInPlace(size_t n, float* a, const float* b) {
  for (size_t i = 0; i < n; ++i) a[i] = a[i] + b[i];
}

template <typename Out>
void MulQuantized(const LstmMulParams& p, size_t n, const int16_t* a, const int16_t* b, Out* out) {
  for (size_t i = 0; i < n; ++i) {
    const int32_t product = static_cast<int32_t>(a[i]) * static_cast<int32_t>(b[i]);
    const int32_t y =
        WrappingAdd(p.output_offset, MultiplyByQuantizedMultiplier(product, p.multiplier, p.shift));
    out[i] = static_cast<Out>(Clamp(y, p.act_min, p.act_max));
  }
}
void MulFloat(size_t n, const float* a, const float* b, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
}

// TFLM's reference_ops::Logistic for float (with its cut-offs).
void SigmoidFloat(size_t n, float* x) {
  for (size_t i = 0; i < n; ++i) {
    const float v = x[i];
    if (v > 16.619047164916992188f) {
      x[i] = 1.0f;
    } else if (v < -9.0f) {
      x[i] = std::exp(v);
    } else {
      x[i] = 1.0f / (1.0f + std::exp(-v));
    }
  }
}

void TanhFloat(size_t n, const float* in, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = std::tanh(in[i]);
}

// Where one step reads and writes (TFLM's LstmStepManager).
struct Step {
  size_t input_offset = 0, output_offset = 0, state_offset = 0;
  int32_t rows = 1;  // batch rows processed at once
};

// The cell-type specific parts of a step.
struct QuantizedCell {
  const LstmParams& p;
  void Activate(LstmGate gate, size_t n, int16_t* x) const {
    if (gate == kCellGate) {
      LstmTanhInt16(0, 0, n, x, x);  // Q3.12 input: cell_state_scale_power -12
    } else {
      LstmSigmoidInt16(n, x, x);
    }
  }
  void Clip(size_t n, int16_t* c) const {
    if (!(p.cell_clip > 0)) return;
    const int16_t hi = p.quantized_cell_clip;
    const int16_t lo = static_cast<int16_t>(-hi);
    for (size_t i = 0; i < n; ++i) {
      const int16_t m = c[i] < hi ? c[i] : hi;
      c[i] = m < lo ? lo : m;
    }
  }
  void CellTanh(size_t n, const int16_t* c, int16_t* out) const {
    int32_t shift = 15 + p.cell_scale_power - 3;
    int32_t multiplier = 0;
    if (shift < 0) {
      shift = -shift;
      multiplier = 3;
    }
    LstmTanhInt16(multiplier, shift, n, c, out);
  }
  void ForgetTimesCell(size_t n, const int16_t* f, int16_t* c) const {
    MulQuantized(p.forget_cell_mul, n, f, c, c);
  }
  void InputTimesCellGate(size_t n, const int16_t* i, const int16_t* g, int16_t* out) const {
    MulQuantized(p.input_mul, n, i, g, out);
  }
  template <typename Act>
  void Hidden(size_t n, const int16_t* tanh_c, const int16_t* o, Act* h) const {
    MulQuantized(p.output_mul, n, tanh_c, o, h);
  }
};

struct FloatCell {
  const LstmParams& p;
  void Activate(LstmGate gate, size_t n, float* x) const {
    if (gate == kCellGate) {
      TanhFloat(n, x, x);
    } else {
      SigmoidFloat(n, x);
    }
  }
  void Clip(size_t n, float* c) const {
    if (!(p.cell_clip > 0)) return;
    const float hi = p.cell_clip, lo = -p.cell_clip;
    for (size_t i = 0; i < n; ++i) {
      const float m = c[i] < hi ? c[i] : hi;  // std::min(clip, v)
      c[i] = m < lo ? lo : m;                 // std::max(m, -clip)
    }
  }
  void CellTanh(size_t n, const float* c, float* out) const { TanhFloat(n, c, out); }
  void ForgetTimesCell(size_t n, const float* f, float* c) const { MulFloat(n, f, c, c); }
  void InputTimesCellGate(size_t n, const float* i, const float* g, float* out) const {
    MulFloat(n, i, g, out);
  }
  void Hidden(size_t n, const float* tanh_c, const float* o, float* h) const {
    MulFloat(n, tanh_c, o, h);
  }
};

// gate = act(FC(x, W_x, b) + FC(h, W_h)) into `out`, `tmp` the second FC.
template <typename Act, typename Weight, typename Bias, typename Cell, typename CellOps>
void Gate(const LstmParams& p, const CellOps& ops, LstmGate g, const Step& s,
          const LstmData<Act, Weight, Bias, Cell>& d, Cell* out, Cell* tmp) {
  const Act* x = d.input + s.input_offset;
  const Act* h = d.hidden_state + s.state_offset;
  if constexpr (std::is_same<Act, float>::value) {
    FcFloat(s.rows, p.input_dim, p.state_dim, x, d.input_weights[g], d.bias[g], out);
    FcFloat(s.rows, p.state_dim, p.state_dim, h, d.recurrent_weights[g], nullptr, tmp);
  } else {
    FcQuantized(p.input_fc[g], s.rows, p.input_dim, p.state_dim, x, d.input_weights[g], d.bias[g],
                out);
    FcQuantized(p.recurrent_fc[g], s.rows, p.state_dim, p.state_dim, h, d.recurrent_weights[g],
                static_cast<const Bias*>(nullptr), tmp);
  }
  const size_t n = static_cast<size_t>(s.rows) * static_cast<size_t>(p.state_dim);
  AddInPlace(n, out, tmp);
  ops.Activate(g, n, out);
}

template <typename Act, typename Weight, typename Bias, typename Cell, typename CellOps>
void LstmStep(const LstmParams& p, const CellOps& ops, const Step& s,
              const LstmData<Act, Weight, Bias, Cell>& d) {
  Cell* const* b = d.buffers;
  const size_t n = static_cast<size_t>(s.rows) * static_cast<size_t>(p.state_dim);
  Gate(p, ops, kForgetGate, s, d, b[0], b[3]);
  Gate(p, ops, kInputGate, s, d, b[1], b[3]);
  Gate(p, ops, kCellGate, s, d, b[2], b[3]);
  Cell* c = d.cell_state + s.state_offset;
  ops.ForgetTimesCell(n, b[0], c);
  ops.InputTimesCellGate(n, b[1], b[2], b[1]);
  AddInPlace(n, c, b[1]);
  ops.Clip(n, c);
  Gate(p, ops, kOutputGate, s, d, b[1], b[3]);
  ops.CellTanh(n, c, b[0]);
  Act* h = d.hidden_state + s.state_offset;
  ops.Hidden(n, b[0], b[1], h);
  std::memcpy(d.output + s.output_offset, h, n * sizeof(Act));
}

// TFLM's EvalLstm loop and step offsets.
template <typename Act, typename Weight, typename Bias, typename Cell, typename CellOps>
void EvalLstm(const LstmParams& p, const CellOps& ops, const LstmData<Act, Weight, Bias, Cell>& d) {
  const size_t in_dim = static_cast<size_t>(p.input_dim);
  const size_t state = static_cast<size_t>(p.state_dim);
  Step s;
  if (p.time_major) {
    s.rows = p.batch;
    for (int32_t t = 0; t < p.time_steps; ++t) {
      LstmStep(p, ops, s, d);
      s.input_offset += in_dim * static_cast<size_t>(p.batch);
      s.output_offset += state * static_cast<size_t>(p.batch);
    }
    return;
  }
  for (int32_t b = 0; b < p.batch; ++b) {
    for (int32_t t = 0; t < p.time_steps; ++t) {
      LstmStep(p, ops, s, d);
      s.input_offset += in_dim;
      s.output_offset += state;
    }
    s.state_offset += state;
  }
}

// --- prepare -----------------------------------------------------------------

Status Fail(const char* fmt, int a) {
  return Status::Error(StatusCode::kInvalidArgument, fmt, kOp, a);
}
Status Fail(const char* fmt, const char* what, int a) {
  return Status::Error(StatusCode::kInvalidArgument, fmt, kOp, what, a);
}
Status Fail(const char* fmt, int a, int b) {
  return Status::Error(StatusCode::kInvalidArgument, fmt, kOp, a, b);
}

Status RequireShape(const model::TensorInfo& t, int index, int32_t d0, int32_t d1) {
  const bool ok = d1 < 0 ? (t.shape.size() == 1 && t.shape[0] == d0)
                         : (t.shape.size() == 2 && t.shape[0] == d0 && t.shape[1] == d1);
  if (!ok) {
    char text[64];
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: operand %d '%s' has shape %s, expected [%d%s%d]", kOp, index, t.name,
                         FormatShape(t.shape, text, sizeof(text)), d0, d1 < 0 ? "" : ", ",
                         d1 < 0 ? 0 : d1);
  }
  return Status::Ok();
}

// The FC multiplier TFLM derives: double(float(in * w)) / double(2^-12).
Status FcParams(const model::TensorInfo& in, const model::TensorInfo& w, LstmFcParams* p) {
  const double product = static_cast<double>(TensorScale(in) * TensorScale(w));
  int shift = 0;
  TFLM_ARENA_RETURN_IF_ERROR(CheckedQuantizeMultiplier(
      kOp, "gate fully connected", product / static_cast<double>(0.000244140625f), &p->multiplier,
      &shift));
  p->shift = shift;
  p->input_offset = -TensorZeroPoint(in);
  p->weights_offset = -TensorZeroPoint(w);
  p->output_offset = 0;
  p->act_min = kInt16Min;
  p->act_max = kInt16Max;
  return Status::Ok();
}

Status MulParams(float a, float b, float out_scale, TensorType out_type, int32_t zp,
                 LstmMulParams* p) {
  const double real =
      static_cast<double>(a) * static_cast<double>(b) / static_cast<double>(out_scale);
  int shift = 0;
  TFLM_ARENA_RETURN_IF_ERROR(
      CheckedQuantizeMultiplier(kOp, "gate product", real, &p->multiplier, &shift));
  p->shift = shift;
  p->output_offset = zp;
  p->act_min = out_type == TensorType::kInt8 ? -128 : kInt16Min;
  p->act_max = out_type == TensorType::kInt8 ? 127 : kInt16Max;
  return Status::Ok();
}

bool Omittable(int i) { return (i >= 9 && i <= 11) || i == 16 || i == 17 || i >= 20; }

}  // namespace

void LstmSigmoidInt16(size_t count, const int16_t* input, int16_t* output) {
  // Inputs in Q3.12: TFLM's int16 logistic with no input rescale (x * 3).
  LogisticInt16(SigmoidOpData(), count, input, output);
}

void LstmTanhInt16(int32_t input_multiplier, int32_t input_left_shift, size_t count,
                   const int16_t* input, int16_t* output) {
  // TFLM's LSTM calls its int16 tanh kernel with these two fields.
  SigmoidOpData data;
  data.input_multiplier = input_multiplier;
  data.input_left_shift = input_left_shift;
  TanhInt16(data, count, input, output);
}

Status PrepareLstm(const LstmOptions& options, const LstmTensorInfos& t, LstmParams* params) {
  for (int i = 0; i < 24; ++i) {
    if (Omittable(i) && t.operand[i] != nullptr) {
      return Fail(
          "%s: operand %d must be omitted (TFLM runs no peephole, projection or layer "
          "norm)",
          i);
    }
    if (!Omittable(i) && t.operand[i] == nullptr) {
      return Fail("%s: operand %d is omitted but required (TFLM runs no CIFG)", i);
    }
  }
  const model::TensorInfo& in = *t.operand[0];
  const model::TensorInfo& hidden = *t.operand[18];
  const model::TensorInfo& cell = *t.operand[19];
  const model::TensorInfo& out = *t.output;
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
  if (!hidden.is_variable || !cell.is_variable) {
    return Fail("%s: the %s state (operand %d) is not a variable tensor",
                hidden.is_variable ? "cell" : "hidden", hidden.is_variable ? 19 : 18);
  }
  // Types.
  const TensorType act = in.type, weight = t.operand[2]->type, bias = t.operand[13]->type;
  for (int i = 1; i <= 8; ++i) {
    if (t.operand[i]->type != weight) return Fail("%s: weights operand %d differs in type", i);
  }
  for (int i = 12; i <= 15; ++i) {
    if (t.operand[i]->type != bias) return Fail("%s: bias operand %d differs in type", i);
  }
  const bool is_float =
      act == TensorType::kFloat32 && weight == act && bias == act && cell.type == act;
  const bool is_int8 = act == TensorType::kInt8 && weight == TensorType::kInt8 &&
                       bias == TensorType::kInt32 && cell.type == TensorType::kInt16;
  const bool is_int16 = act == TensorType::kInt16 && weight == TensorType::kInt8 &&
                        bias == TensorType::kInt64 && cell.type == TensorType::kInt16;
  if (!(is_float || is_int8 || is_int16) || hidden.type != act || out.type != act) {
    return Status::Error(StatusCode::kUnimplemented,
                         "%s: input %s, weights %s, bias %s, cell state %s, hidden state %s, "
                         "output %s not supported (supported: all FLOAT32; INT8 or INT16 "
                         "activations with INT8 weights, INT32 / INT64 bias, INT16 cell state)",
                         kOp, model::TensorTypeName(act), model::TensorTypeName(weight),
                         model::TensorTypeName(bias), model::TensorTypeName(cell.type),
                         model::TensorTypeName(hidden.type), model::TensorTypeName(out.type));
  }
  if (options.activation != model::Activation::kTanh) {
    return Fail("%s: cell gate activation %d not supported (TFLM runs TANH)",
                static_cast<int>(options.activation));
  }
  // Shapes.
  LstmParams p;
  if (in.shape.size() != 3 || hidden.shape.size() != 2 || out.shape.size() != 3) {
    return Fail("%s: input and output must be rank 3 and the hidden state rank 2 (got %d, %d)",
                static_cast<int>(in.shape.size()), static_cast<int>(hidden.shape.size()));
  }
  p.time_major = options.time_major;
  p.batch = options.time_major ? in.shape[1] : in.shape[0];
  p.time_steps = options.time_major ? in.shape[0] : in.shape[1];
  p.input_dim = in.shape[2];
  p.state_dim = hidden.shape[1];
  if (p.batch < 1 || p.time_steps < 1 || p.input_dim < 1 || p.state_dim < 1) {
    return Fail("%s: empty input or state (input dim %d, state dim %d)", p.input_dim, p.state_dim);
  }
  for (int i = 1; i <= 4; ++i) {
    TFLM_ARENA_RETURN_IF_ERROR(RequireShape(*t.operand[i], i, p.state_dim, p.input_dim));
    TFLM_ARENA_RETURN_IF_ERROR(RequireShape(*t.operand[i + 4], i + 4, p.state_dim, p.state_dim));
    TFLM_ARENA_RETURN_IF_ERROR(RequireShape(*t.operand[i + 11], i + 11, p.state_dim, -1));
  }
  const int64_t states = static_cast<int64_t>(p.batch) * p.state_dim;
  if (static_cast<int64_t>(hidden.num_elements) != states ||
      static_cast<int64_t>(cell.num_elements) != states) {
    return Fail("%s: hidden and cell states must hold batch x state = %d elements",
                static_cast<int>(states));
  }
  if (out.shape[0] != in.shape[0] || out.shape[1] != in.shape[1] || out.shape[2] != p.state_dim) {
    return Fail(
        "%s: the output's shape must be the input's with the last extent the state "
        "size %d",
        p.state_dim);
  }
  p.cell_clip = options.cell_clip;
  if (is_float) {
    *params = p;
    return Status::Ok();
  }
  // Quantization.
  static const char* const kRoles[24] = {"input",
                                         "input-to-input weights",
                                         "input-to-forget weights",
                                         "input-to-cell weights",
                                         "input-to-output weights",
                                         "recurrent-to-input weights",
                                         "recurrent-to-forget weights",
                                         "recurrent-to-cell weights",
                                         "recurrent-to-output weights",
                                         "",
                                         "",
                                         "",
                                         "input gate bias",
                                         "forget gate bias",
                                         "cell gate bias",
                                         "output gate bias",
                                         "",
                                         "",
                                         "hidden state",
                                         "cell state",
                                         "",
                                         "",
                                         "",
                                         ""};
  for (int i : {0, 1, 2, 3, 4, 5, 6, 7, 8, 18, 19}) {
    TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, kRoles[i], *t.operand[i]));
    if (i >= 1 && i <= 8 && t.operand[i]->scale.size() != 1) {
      return Status::Error(StatusCode::kUnimplemented,
                           "%s: per-channel %s not supported (TFLM's LSTM reads one scale)", kOp,
                           kRoles[i]);
    }
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", out));
  for (int g = 0; g < 4; ++g) {
    TFLM_ARENA_RETURN_IF_ERROR(FcParams(in, *t.operand[1 + g], &p.input_fc[g]));
    TFLM_ARENA_RETURN_IF_ERROR(FcParams(hidden, *t.operand[5 + g], &p.recurrent_fc[g]));
  }
  const float cell_scale = TensorScale(cell);
  // CheckedLog2: log2 in float, rounded half away from zero.
  const float log2_scale = std::log(cell_scale) * (1.0f / std::log(2.0f));
  p.cell_scale_power = static_cast<int32_t>(std::round(log2_scale));
  if (p.cell_scale_power < -43 || p.cell_scale_power > 1) {
    return Fail("%s: cell state scale 2^%d is outside the int16 tanh's input range",
                p.cell_scale_power);
  }
  p.quantized_cell_clip = static_cast<int16_t>(std::fmin(
      std::fmax(static_cast<double>(options.cell_clip) / static_cast<double>(cell_scale), -32768.0),
      32767.0));
  constexpr float kQ15 = 0.000030517578125f;  // 2^-15: sigmoid / tanh outputs
  TFLM_ARENA_RETURN_IF_ERROR(
      MulParams(kQ15, cell_scale, cell_scale, TensorType::kInt16, 0, &p.forget_cell_mul));
  TFLM_ARENA_RETURN_IF_ERROR(
      MulParams(kQ15, kQ15, cell_scale, TensorType::kInt16, 0, &p.input_mul));
  TFLM_ARENA_RETURN_IF_ERROR(MulParams(kQ15, kQ15, TensorScale(hidden), hidden.type,
                                       TensorZeroPoint(hidden), &p.output_mul));
  *params = p;
  return Status::Ok();
}

void LstmFloat(const LstmParams& p, const LstmData<float, float, float, float>& d) {
  EvalLstm(p, FloatCell{p}, d);
}

void LstmInt8(const LstmParams& p, const LstmData<int8_t, int8_t, int32_t, int16_t>& d) {
  EvalLstm(p, QuantizedCell{p}, d);
}

void LstmInt16(const LstmParams& p, const LstmData<int16_t, int8_t, int64_t, int16_t>& d) {
  EvalLstm(p, QuantizedCell{p}, d);
}

}  // namespace runtime
}  // namespace tflm_arena
