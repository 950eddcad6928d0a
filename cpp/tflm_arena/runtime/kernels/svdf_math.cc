// SVDF prepare checks and math (see svdf.h).
#include <cmath>
#include <limits>

#include "tflm_arena/runtime/kernels/conv_common.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/svdf.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "SVDF";

Status Rank2(const char* role, const model::TensorInfo& t, int32_t* rows, int32_t* cols) {
  if (t.shape.size() != 2 || t.shape[0] < 1 || t.shape[1] < 1) {
    char text[64];
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: %s '%s' must be rank 2 with non-zero extents, got %s", kOp, role,
                         t.name, FormatShape(t.shape, text, sizeof(text)));
  }
  *rows = t.shape[0];
  *cols = t.shape[1];
  return Status::Ok();
}

Status Mismatch(const char* what, int64_t got, int64_t want) {
  return Status::Error(StatusCode::kInvalidArgument, "%s: %s is %lld, expected %lld", kOp, what,
                       static_cast<long long>(got), static_cast<long long>(want));
}

Status Types(const SvdfTensors& t, bool* quantized) {
  const TensorType in = t.input->type;
  const TensorType wf = t.weights_feature->type, wt = t.weights_time->type;
  const TensorType st = t.state->type, out = t.output->type;
  const TensorType bias = t.bias != nullptr ? t.bias->type : TensorType::kFloat32;
  if (in == TensorType::kFloat32 && wf == in && wt == in && st == in && out == in &&
      (t.bias == nullptr || bias == TensorType::kFloat32)) {
    *quantized = false;
    return Status::Ok();
  }
  // The time weights' type is the state's (TFLM reads the state as it).
  if (in == TensorType::kInt8 && wf == TensorType::kInt8 && out == TensorType::kInt8 &&
      (wt == TensorType::kInt16 || wt == TensorType::kInt8) && st == wt &&
      (t.bias == nullptr || bias == TensorType::kInt32)) {
    *quantized = true;
    return Status::Ok();
  }
  return Status::Error(StatusCode::kUnimplemented,
                       "%s: input %s, weights_feature %s, weights_time %s, bias %s, state %s, "
                       "output %s not supported (supported: all FLOAT32; INT8 input, "
                       "weights_feature and output, INT32 bias, INT16 or INT8 weights_time and "
                       "state of the same type)",
                       kOp, model::TensorTypeName(in), model::TensorTypeName(wf),
                       model::TensorTypeName(wt),
                       t.bias != nullptr ? model::TensorTypeName(bias) : "(none)",
                       model::TensorTypeName(st), model::TensorTypeName(out));
}

// TFLM's float expression a * b / c, widened afterwards.
double FloatScale(float a, float b, float c) { return static_cast<double>(a * b / c); }

// The fused activation as TFLM's ActivationValFloat (unknown codes: none, as
// TFLM's parser maps them).
float Activate(model::Activation act, float a) {
  switch (act) {
    case model::Activation::kRelu:
      return a < 0.0f ? 0.0f : a;
    case model::Activation::kReluN1To1: {
      const float lo = a < 1.0f ? a : 1.0f;
      return lo < -1.0f ? -1.0f : lo;
    }
    case model::Activation::kRelu6: {
      const float lo = a < 6.0f ? a : 6.0f;
      return lo < 0.0f ? 0.0f : lo;
    }
    case model::Activation::kTanh:
      return std::tanh(a);
    case model::Activation::kSignBit:
      return std::signbit(a) ? 1.0f : 0.0f;
    default:
      return a;
  }
}

// Step 1: the whole state moves left by one element.
template <typename T>
void ShiftState(T* state, size_t count) {
  for (size_t i = 1; i < count; ++i) state[i - 1] = state[i];
}

template <typename T>
void SvdfInteger(const SvdfDims& d, const SvdfOpData& data, const int8_t* input,
                 const int8_t* weights_feature, const T* weights_time, const int32_t* bias,
                 T* state, int32_t* scratch, int32_t* scratch_output, int8_t* output) {
  const size_t filters = static_cast<size_t>(d.filters);
  const size_t memory = static_cast<size_t>(d.memory);
  ShiftState(state, static_cast<size_t>(d.batch) * filters * memory);
  constexpr int32_t kStateMin = std::numeric_limits<T>::min();
  constexpr int32_t kStateMax = std::numeric_limits<T>::max();
  for (int32_t b = 0; b < d.batch; ++b) {
    const int8_t* in = input + static_cast<size_t>(b) * d.input_size;
    T* state_b = state + static_cast<size_t>(b) * filters * memory;
    for (size_t f = 0; f < filters; ++f) {
      const int8_t* w = weights_feature + f * d.input_size;
      int32_t dot = 0;
      for (int32_t c = 0; c < d.input_size; ++c) {
        dot = WrappingAdd(dot, w[c] * (static_cast<int32_t>(in[c]) - data.input_zero_point));
      }
      dot = MultiplyByQuantizedMultiplier(dot, data.effective_scale_1_a, data.effective_scale_1_b);
      dot = dot < kStateMin ? kStateMin : (dot > kStateMax ? kStateMax : dot);
      state_b[f * memory + memory - 1] = static_cast<T>(WrappingAdd(data.state_zero_point, dot));
    }
  }
  for (int32_t b = 0; b < d.batch; ++b) {
    const T* state_b = state + static_cast<size_t>(b) * filters * memory;
    int32_t* scratch_b = scratch + static_cast<size_t>(b) * filters;
    for (size_t f = 0; f < filters; ++f) {
      const T* wt = weights_time + f * memory;
      const T* s = state_b + f * memory;
      int32_t acc = 0;
      for (size_t j = 0; j < memory; ++j) {
        acc = WrappingAdd(acc, static_cast<int32_t>(wt[j]) *
                                   (static_cast<int32_t>(s[j]) - data.state_zero_point));
      }
      scratch_b[f] = acc;
    }
  }
  const size_t units = static_cast<size_t>(d.units);
  for (int32_t b = 0; b < d.batch; ++b) {
    int32_t* out_b = scratch_output + static_cast<size_t>(b) * units;
    const int32_t* scratch_b = scratch + static_cast<size_t>(b) * filters;
    for (size_t u = 0; u < units; ++u) {
      int32_t acc = bias != nullptr ? bias[u] : 0;
      for (int32_t r = 0; r < d.rank; ++r) acc = WrappingAdd(acc, scratch_b[u * d.rank + r]);
      out_b[u] = acc;
    }
  }
  const size_t n = static_cast<size_t>(d.batch) * units;
  for (size_t i = 0; i < n; ++i) {
    int32_t y = MultiplyByQuantizedMultiplier(scratch_output[i], data.effective_scale_2_a,
                                              data.effective_scale_2_b);
    y = WrappingAdd(y, data.output_zero_point);
    output[i] = static_cast<int8_t>(y < -128 ? -128 : (y > 127 ? 127 : y));
  }
}

}  // namespace

Status PrepareSvdf(const SvdfOptions& options, const SvdfTensors& t, SvdfDims* dims,
                   SvdfOpData* data) {
  SvdfDims d;
  int32_t wf_cols = 0, wt_rows = 0, state_batch = 0, state_cols = 0, out_batch = 0, out_units = 0;
  TFLM_ARENA_RETURN_IF_ERROR(Rank2("input", *t.input, &d.batch, &d.input_size));
  TFLM_ARENA_RETURN_IF_ERROR(Rank2("weights_feature", *t.weights_feature, &d.filters, &wf_cols));
  TFLM_ARENA_RETURN_IF_ERROR(Rank2("weights_time", *t.weights_time, &wt_rows, &d.memory));
  TFLM_ARENA_RETURN_IF_ERROR(Rank2("activation state", *t.state, &state_batch, &state_cols));
  TFLM_ARENA_RETURN_IF_ERROR(Rank2("output", *t.output, &out_batch, &out_units));
  if (options.rank < 1 || d.filters % options.rank != 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: rank %d must be >= 1 and divide the %d filters", kOp, options.rank,
                         d.filters);
  }
  d.rank = options.rank;
  d.units = d.filters / d.rank;
  if (wf_cols != d.input_size) return Mismatch("weights_feature's width", wf_cols, d.input_size);
  if (wt_rows != d.filters) return Mismatch("weights_time's height", wt_rows, d.filters);
  if (state_batch != d.batch) return Mismatch("the state's batch", state_batch, d.batch);
  if (static_cast<int64_t>(state_cols) != static_cast<int64_t>(d.memory) * d.filters) {
    return Mismatch("the state's width", state_cols, static_cast<int64_t>(d.memory) * d.filters);
  }
  if (out_batch != d.batch) return Mismatch("the output's batch", out_batch, d.batch);
  if (out_units != d.units) return Mismatch("the output's width", out_units, d.units);
  if (t.bias != nullptr && (t.bias->shape.size() != 1 || t.bias->shape[0] != d.units)) {
    return Mismatch("the bias's element count", static_cast<int64_t>(t.bias->num_elements),
                    d.units);
  }
  if (!t.state->is_variable) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: the activation state '%s' (input 4) is not a variable tensor", kOp,
                         t.state->name);
  }
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, *t.output));
  bool quantized = false;
  TFLM_ARENA_RETURN_IF_ERROR(Types(t, &quantized));
  *dims = d;
  if (!quantized) return Status::Ok();
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input", *t.input));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "weights_feature", *t.weights_feature));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "weights_time", *t.weights_time));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "activation state", *t.state));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", *t.output));
  const float in_s = TensorScale(*t.input), wf_s = TensorScale(*t.weights_feature);
  const float wt_s = TensorScale(*t.weights_time), st_s = TensorScale(*t.state);
  const float out_s = TensorScale(*t.output);
  if (t.bias != nullptr) {
    TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "bias", *t.bias));
    const double want = static_cast<double>(st_s * wt_s);
    if (!(std::fabs(static_cast<double>(TensorScale(*t.bias)) - want) < 1e-5)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: bias scale %g is not state scale x weights_time scale (%g)", kOp,
                           static_cast<double>(TensorScale(*t.bias)), want);
    }
  }
  int shift1 = 0, shift2 = 0;
  TFLM_ARENA_RETURN_IF_ERROR(CheckedQuantizeMultiplier(
      kOp, "effective_scale_1", FloatScale(in_s, wf_s, st_s), &data->effective_scale_1_a, &shift1));
  TFLM_ARENA_RETURN_IF_ERROR(CheckedQuantizeMultiplier(kOp, "effective_scale_2",
                                                       FloatScale(st_s, wt_s, out_s),
                                                       &data->effective_scale_2_a, &shift2));
  data->effective_scale_1_b = shift1;
  data->effective_scale_2_b = shift2;
  data->input_zero_point = TensorZeroPoint(*t.input);
  data->output_zero_point = TensorZeroPoint(*t.output);
  data->state_zero_point = TensorZeroPoint(*t.state);
  return Status::Ok();
}

void SvdfFloat(const SvdfDims& d, model::Activation activation, const float* input,
               const float* weights_feature, const float* weights_time, const float* bias,
               float* state, float* scratch, float* output) {
  const size_t filters = static_cast<size_t>(d.filters);
  const size_t memory = static_cast<size_t>(d.memory);
  ShiftState(state, static_cast<size_t>(d.batch) * filters * memory);
  for (int32_t b = 0; b < d.batch; ++b) {
    const float* in = input + static_cast<size_t>(b) * d.input_size;
    float* state_b = state + static_cast<size_t>(b) * filters * memory;
    for (size_t f = 0; f < filters; ++f) {
      const float* w = weights_feature + f * d.input_size;
      float dot = 0.0f;
      for (int32_t c = 0; c < d.input_size; ++c) dot += w[c] * in[c];
      state_b[f * memory + memory - 1] = dot;
    }
  }
  for (int32_t b = 0; b < d.batch; ++b) {
    const float* state_b = state + static_cast<size_t>(b) * filters * memory;
    float* scratch_b = scratch + static_cast<size_t>(b) * filters;
    for (size_t f = 0; f < filters; ++f) {
      const float* wt = weights_time + f * memory;
      const float* s = state_b + f * memory;
      float acc = 0.0f;
      for (size_t j = 0; j < memory; ++j) acc += wt[j] * s[j];
      scratch_b[f] = acc;
    }
  }
  const size_t units = static_cast<size_t>(d.units);
  for (int32_t b = 0; b < d.batch; ++b) {
    float* out_b = output + static_cast<size_t>(b) * units;
    const float* scratch_b = scratch + static_cast<size_t>(b) * filters;
    for (size_t u = 0; u < units; ++u) {
      float acc = bias != nullptr ? bias[u] : 0.0f;
      for (int32_t r = 0; r < d.rank; ++r) acc += scratch_b[u * d.rank + r];
      out_b[u] = Activate(activation, acc);
    }
  }
}

void SvdfInt16State(const SvdfDims& d, const SvdfOpData& data, const int8_t* input,
                    const int8_t* weights_feature, const int16_t* weights_time, const int32_t* bias,
                    int16_t* state, int32_t* scratch, int32_t* scratch_output, int8_t* output) {
  SvdfInteger(d, data, input, weights_feature, weights_time, bias, state, scratch, scratch_output,
              output);
}

void SvdfInt8State(const SvdfDims& d, const SvdfOpData& data, const int8_t* input,
                   const int8_t* weights_feature, const int8_t* weights_time, const int32_t* bias,
                   int8_t* state, int32_t* scratch, int32_t* scratch_output, int8_t* output) {
  SvdfInteger(d, data, input, weights_feature, weights_time, bias, state, scratch, scratch_output,
              output);
}

}  // namespace runtime
}  // namespace tflm_arena
