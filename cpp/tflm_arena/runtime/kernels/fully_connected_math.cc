// FULLY_CONNECTED: prepare logic and math (glue in fully_connected.cc).
#include <cmath>
#include <cstddef>
#include <limits>

#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/conv_common.h"
#include "tflm_arena/runtime/kernels/fully_connected.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "FULLY_CONNECTED";

}  // namespace

void FullyConnectedMultiplier(float input_scale, float weights_scale, float output_scale,
                              int32_t* multiplier, int32_t* shift) {
  const float product = input_scale * weights_scale;  // rounded to float, as TFLM
  const double real = static_cast<double>(product) / static_cast<double>(output_scale);
  int s = 0;
  QuantizeMultiplier(real, multiplier, &s);
  *shift = s;
}

Status PrepareFullyConnected(const FullyConnectedOptions& options, const model::TensorInfo& input,
                             const model::TensorInfo& weights, const model::TensorInfo* bias,
                             const model::TensorInfo& output, FullyConnectedParams* params) {
  if (options.weights_format != 0) {
    return Status::Error(StatusCode::kUnimplemented,
                         "%s: weights format %u not supported (only DEFAULT)", kOp,
                         static_cast<unsigned>(options.weights_format));
  }
  WeightedKind kind = WeightedKind::kFloat32;
  TFLM_ARENA_RETURN_IF_ERROR(
      ClassifyWeightedTypes(kOp, input, weights, output, /*allow_int16=*/false, &kind));
  const bool quantized = kind == WeightedKind::kInt8;
  const size_t w_rank = weights.shape.size();
  const size_t out_rank = output.shape.size();
  if (w_rank < 2 || out_rank < 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: weights '%s' need rank >= 2 (got %zu) and output '%s' rank >= 1 "
                         "(got %zu)",
                         kOp, weights.name, w_rank, output.name, out_rank);
  }
  const int32_t units = weights.shape[w_rank - 2];
  const int32_t accum_depth = weights.shape[w_rank - 1];
  const int32_t output_depth = output.shape[out_rank - 1];
  if (output_depth != units) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output '%s' last dimension %d differs from the weights' %d units",
                         kOp, output.name, output_depth, units);
  }
  // Invoke reads units x accum_depth weights: the weights hold exactly that
  // many (leading extents of 1 only).
  if (weights.num_elements != static_cast<uint64_t>(units) * static_cast<uint64_t>(accum_depth)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: weights '%s' have %llu elements, expected units %d x depth %d", kOp,
                         weights.name, static_cast<unsigned long long>(weights.num_elements), units,
                         accum_depth);
  }
  // batches = the output's leading extents (their product fits: the whole
  // output's does, and a 0 extent anywhere makes both 0).
  const int64_t batches = units == 0 ? SafeElementCount(output.shape.data(), out_rank - 1)
                                     : static_cast<int64_t>(output.num_elements / units);
  if (batches > std::numeric_limits<int32_t>::max() ||
      static_cast<int64_t>(input.num_elements) != batches * accum_depth) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input '%s' has %llu elements, expected %lld batches x %d", kOp,
                         input.name, static_cast<unsigned long long>(input.num_elements),
                         static_cast<long long>(batches), accum_depth);
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckBias(kOp, bias, kind, units));

  FullyConnectedParams p;
  p.batches = static_cast<int32_t>(batches);
  p.output_depth = units;
  p.accum_depth = accum_depth;
  if (!quantized) {
    FloatActivationRange(options.activation, &p.float_activation_min, &p.float_activation_max);
    *params = p;
    return Status::Ok();
  }
  TFLM_ARENA_RETURN_IF_ERROR(RequireQuantizedWeighted(kOp, input, "weights", weights, output, units,
                                                      static_cast<int32_t>(w_rank - 2)));
  p.per_channel = weights.scale.size() > 1;
  const float input_scale = TensorScale(input);
  const float output_scale = TensorScale(output);
  if (p.per_channel) {
    TFLM_ARENA_RETURN_IF_ERROR(
        CheckPerChannelMultipliers(kOp, input_scale, weights.scale, output_scale, units));
  }
  if (!p.per_channel) {
    const float weights_scale = TensorScale(weights);
    if (bias != nullptr) {
      // TFLM's GetQuantizedConvolutionMultipler consistency check.
      const double product = static_cast<double>(input_scale) * static_cast<double>(weights_scale);
      const double diff = std::abs(product - static_cast<double>(TensorScale(*bias)));
      if (!(diff / static_cast<double>(output_scale) <= 0.02)) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "%s: bias scale %g differs from input scale x weights scale %g by "
                             "more than 2%% of the output scale %g",
                             kOp, static_cast<double>(TensorScale(*bias)), product,
                             static_cast<double>(output_scale));
      }
    }
    if (!(static_cast<double>(input_scale * weights_scale) >= 0.0)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: input scale x weights scale is negative", kOp);
    }
    // Same arithmetic as FullyConnectedMultiplier, checked.
    const float product = input_scale * weights_scale;
    int shift = 0;
    TFLM_ARENA_RETURN_IF_ERROR(CheckedQuantizeMultiplier(
        kOp, "output", static_cast<double>(product) / static_cast<double>(output_scale),
        &p.output_multiplier, &shift));
    p.output_shift = shift;
    p.weights_offset = -TensorZeroPoint(weights);
  }
  p.input_offset = -TensorZeroPoint(input);
  p.output_offset = TensorZeroPoint(output);
  TFLM_ARENA_RETURN_IF_ERROR(QuantizedActivationRange(
      options.activation, output.type, output_scale, TensorZeroPoint(output),
      &p.quantized_activation_min, &p.quantized_activation_max));
  *params = p;
  return Status::Ok();
}

void FullyConnectedPerChannelMultipliers(const model::TensorInfo& input,
                                         const model::TensorInfo& weights,
                                         const model::TensorInfo& output, int32_t units,
                                         int32_t* multipliers, int32_t* shifts) {
  PerChannelMultipliers(TensorScale(input), weights.scale, TensorScale(output), units, multipliers,
                        shifts);
}

namespace {

// TFLM's FullyConnected loop nest: for batch b and unit c in order,
// output[b * units + c] = unit(x, w, depth, c) with x batch b's input row and
// w unit c's weights row (`depth` entries each).
template <typename T, typename Out, typename Unit>
void FullyConnectedLoops(const FullyConnectedParams& params, const T* input, const T* weights,
                         Out* output, Unit unit) {
  const size_t depth = static_cast<size_t>(params.accum_depth);
  const size_t units = static_cast<size_t>(params.output_depth);
  for (size_t b = 0; b < static_cast<size_t>(params.batches); ++b) {
    const T* x = input + b * depth;
    for (size_t c = 0; c < units; ++c) {
      const T* w = weights + c * depth;
      output[b * units + c] = unit(x, w, depth, c);
    }
  }
}

// One int8 output: sum (w + weights_offset) * (x + input_offset) in int32,
// + bias[c], requantized by (multiplier, shift), + output offset, clamped.
inline int8_t FullyConnectedInt8Unit(const FullyConnectedParams& params, const int8_t* x,
                                     const int8_t* w, size_t depth, int32_t weights_offset,
                                     const int32_t* bias, size_t c, int32_t multiplier,
                                     int32_t shift) {
  int32_t acc = 0;
  for (size_t d = 0; d < depth; ++d) {
    acc = WrappingAdd(acc, (static_cast<int32_t>(w[d]) + weights_offset) *
                               (static_cast<int32_t>(x[d]) + params.input_offset));
  }
  if (bias != nullptr) acc = WrappingAdd(acc, bias[c]);
  acc = MultiplyByQuantizedMultiplier(acc, multiplier, shift);
  acc = ApplyActivation(WrappingAdd(acc, params.output_offset), params.quantized_activation_min,
                        params.quantized_activation_max);
  return static_cast<int8_t>(acc);
}

}  // namespace

void FullyConnectedInt8(const FullyConnectedParams& params, const int8_t* input,
                        const int8_t* weights, const int32_t* bias, int8_t* output) {
  FullyConnectedLoops(params, input, weights, output,
                      [&](const int8_t* x, const int8_t* w, size_t depth, size_t c) {
                        return FullyConnectedInt8Unit(params, x, w, depth, params.weights_offset,
                                                      bias, c, params.output_multiplier,
                                                      params.output_shift);
                      });
}

// Per channel the weights are symmetric: no weights offset (0, whatever
// params.weights_offset holds).
void FullyConnectedPerChannelInt8(const FullyConnectedParams& params,
                                  const int32_t* output_multiplier, const int32_t* output_shift,
                                  const int8_t* input, const int8_t* weights, const int32_t* bias,
                                  int8_t* output) {
  FullyConnectedLoops(params, input, weights, output,
                      [&](const int8_t* x, const int8_t* w, size_t depth, size_t c) {
                        return FullyConnectedInt8Unit(params, x, w, depth, /*weights_offset=*/0,
                                                      bias, c, output_multiplier[c],
                                                      output_shift[c]);
                      });
}

void FullyConnectedFloat(const FullyConnectedParams& params, const float* input,
                         const float* weights, const float* bias, float* output) {
  FullyConnectedLoops(params, input, weights, output,
                      [&](const float* x, const float* w, size_t depth, size_t c) {
                        float total = 0.0f;
                        for (size_t d = 0; d < depth; ++d) total += x[d] * w[d];
                        const float bias_value = bias != nullptr ? bias[c] : 0.0f;
                        return ApplyActivation(total + bias_value, params.float_activation_min,
                                               params.float_activation_max);
                      });
}

}  // namespace runtime
}  // namespace tflm_arena
