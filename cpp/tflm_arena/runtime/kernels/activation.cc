#include "tflm_arena/runtime/kernels/activation.h"

#include <cmath>
#include <limits>

namespace tflm_arena {
namespace runtime {
namespace {

// q(f) = zero_point + round(f / scale), with the division and the rounding in
// float (half away from zero) and an int32 range check, as TFLM's Quantize.
bool QuantizeBound(float scale, int32_t zero_point, float f, int32_t* q) {
  const float rounded = std::round(f / scale);
  const bool fits = rounded >= static_cast<float>(std::numeric_limits<int32_t>::min()) &&
                    rounded <= static_cast<float>(std::numeric_limits<int32_t>::max());
  if (!fits) return false;
  // static_cast<float>(INT32_MAX) is 2^31, which passes the check above
  // exactly as in TFLM; clamp before converting to keep the conversion
  // defined (TFLM's conversion is undefined there).
  const double r = rounded >= 2147483648.0f ? 2147483647.0 : static_cast<double>(rounded);
  *q = static_cast<int32_t>(static_cast<int64_t>(zero_point) + static_cast<int64_t>(r));
  return true;
}

}  // namespace

void FloatActivationRange(model::Activation activation, float* act_min, float* act_max) {
  switch (activation) {
    case model::Activation::kRelu:
      *act_min = 0.0f;
      *act_max = std::numeric_limits<float>::max();
      return;
    case model::Activation::kRelu6:
      *act_min = 0.0f;
      *act_max = 6.0f;
      return;
    case model::Activation::kReluN1To1:
      *act_min = -1.0f;
      *act_max = 1.0f;
      return;
    default:
      *act_min = std::numeric_limits<float>::lowest();
      *act_max = std::numeric_limits<float>::max();
      return;
  }
}

Status QuantizedActivationRange(model::Activation activation, model::TensorType output_type,
                                float output_scale, int32_t output_zero_point, int32_t* act_min,
                                int32_t* act_max) {
  int32_t qmin = 0;
  int32_t qmax = 0;
  switch (output_type) {
    case model::TensorType::kInt8:
      qmin = -128;
      qmax = 127;
      break;
    case model::TensorType::kUint8:
      qmin = 0;
      qmax = 255;
      break;
    case model::TensorType::kInt16:
      qmin = -32768;
      qmax = 32767;
      break;
    default:
      return Status::Error(StatusCode::kInvalidArgument,
                           "quantized activation range: output type %s is not quantized "
                           "(INT8, UINT8 or INT16)",
                           model::TensorTypeName(output_type));
  }
  float low = 0.0f;
  float high = 0.0f;
  bool has_low = true;
  bool has_high = true;
  switch (activation) {
    case model::Activation::kRelu:
      has_high = false;
      break;
    case model::Activation::kRelu6:
      high = 6.0f;
      break;
    case model::Activation::kReluN1To1:
      low = -1.0f;
      high = 1.0f;
      break;
    default:
      has_low = has_high = false;
      break;
  }
  *act_min = qmin;
  *act_max = qmax;
  int32_t q = 0;
  if (has_low) {
    if (!QuantizeBound(output_scale, output_zero_point, low, &q)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "quantized activation range: %g / scale %g does not fit int32",
                           static_cast<double>(low), static_cast<double>(output_scale));
    }
    *act_min = q > qmin ? q : qmin;
  }
  if (has_high) {
    if (!QuantizeBound(output_scale, output_zero_point, high, &q)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "quantized activation range: %g / scale %g does not fit int32",
                           static_cast<double>(high), static_cast<double>(output_scale));
    }
    *act_max = q < qmax ? q : qmax;
  }
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena
