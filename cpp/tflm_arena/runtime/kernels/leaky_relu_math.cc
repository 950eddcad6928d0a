// LEAKY_RELU math (see leaky_relu.h).
#include <cmath>
#include <limits>

#include "tflm_arena/runtime/kernels/leaky_relu.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "LEAKY_RELU";

// QuantizeMultiplier of a real that may be negative (alpha < 0), with the
// shift our fixed-point helpers accept.
Status SignedMultiplier(const char* what, double real, int32_t* multiplier, int32_t* shift) {
  if (!std::isfinite(real)) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: %s multiplier %g is not finite", kOp,
                         what, real);
  }
  int s = 0;
  QuantizeMultiplier(real, multiplier, &s);
  if (s > kMaxMultiplierShift) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: %s multiplier %g is too large (shift %d > %d)", kOp, what, real, s,
                         kMaxMultiplierShift);
  }
  *shift = s;
  return Status::Ok();
}

template <typename T>
void LeakyReluQuantized(const LeakyReluOpData& data, size_t count, const T* input, T* output) {
  constexpr int32_t kMin = std::numeric_limits<T>::min();
  constexpr int32_t kMax = std::numeric_limits<T>::max();
  const bool alpha_negative = data.output_multiplier_alpha < 0;
  // Negated in uint32 so INT32_MIN wraps to itself, as it does in TFLM.
  const int32_t alpha_multiplier =
      alpha_negative
          ? static_cast<int32_t>(0u - static_cast<uint32_t>(data.output_multiplier_alpha))
          : data.output_multiplier_alpha;
  for (size_t i = 0; i < count; ++i) {
    const int32_t d = static_cast<int32_t>(input[i]) - data.input_zero_point;
    int32_t y = data.output_zero_point;
    if (d >= 0) {
      y += MultiplyByQuantizedMultiplier(d, data.output_multiplier_identity,
                                         data.output_shift_identity);
    } else {
      const int32_t scaled =
          MultiplyByQuantizedMultiplier(d, alpha_multiplier, data.output_shift_alpha);
      y += alpha_negative ? -scaled : scaled;
    }
    output[i] = static_cast<T>(y < kMin ? kMin : (y > kMax ? kMax : y));
  }
}

}  // namespace

Status PrepareLeakyReluQuantized(float alpha, float input_scale, int32_t input_zero_point,
                                 float output_scale, int32_t output_zero_point,
                                 LeakyReluOpData* data) {
  data->input_zero_point = input_zero_point;
  data->output_zero_point = output_zero_point;
  // In double, left to right: what the tflite_micro wheel computes (the
  // float-typed expression in TFLM's source rounds differently; measured
  // on identity and alpha multipliers, tests_py/test_kernel_leaky_relu.py).
  const double alpha_real = static_cast<double>(input_scale) * static_cast<double>(alpha) /
                            static_cast<double>(output_scale);
  const double identity_real = static_cast<double>(input_scale) / static_cast<double>(output_scale);
  TFLM_ARENA_RETURN_IF_ERROR(SignedMultiplier("alpha", alpha_real, &data->output_multiplier_alpha,
                                              &data->output_shift_alpha));
  return SignedMultiplier("identity", identity_real, &data->output_multiplier_identity,
                          &data->output_shift_identity);
}

void LeakyReluFloat(float alpha, size_t count, const float* input, float* output) {
  for (size_t i = 0; i < count; ++i) {
    const float x = input[i];
    output[i] = x > 0 ? x : x * alpha;
  }
}

void LeakyReluInt8(const LeakyReluOpData& data, size_t count, const int8_t* input, int8_t* output) {
  LeakyReluQuantized(data, count, input, output);
}

void LeakyReluInt16(const LeakyReluOpData& data, size_t count, const int16_t* input,
                    int16_t* output) {
  LeakyReluQuantized(data, count, input, output);
}

}  // namespace runtime
}  // namespace tflm_arena
