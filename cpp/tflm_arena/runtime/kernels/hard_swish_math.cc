// HARD_SWISH: prepare logic and math (glue in hard_swish.cc).
#include <algorithm>
#include <limits>

#include "tflm_arena/runtime/kernels/hard_swish.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "HARD_SWISH";
constexpr int16_t kInt16Max = std::numeric_limits<int16_t>::max();
constexpr int16_t kInt16Min = std::numeric_limits<int16_t>::min();

// int32 -> int16 two's-complement truncation (what TFLM's int16 stores do).
inline int16_t Wrap16(int32_t x) {
  return static_cast<int16_t>(static_cast<uint16_t>(static_cast<uint32_t>(x)));
}

// gemmlowp's 16-bit SaturatingRoundingDoublingHighMul.
int16_t Srdhm16(int16_t a, int16_t b) {
  if (a == b && a == kInt16Min) return kInt16Max;
  const int32_t ab = static_cast<int32_t>(a) * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return Wrap16((ab + nudge) / (1 << 15));
}

// TFLM's SaturatingDoublingHighMul (truncating, SQDMULH-like).
int16_t Sdhm16(int16_t a, int16_t b) {
  if (a == b && a == kInt16Min) return kInt16Max;
  return Wrap16((static_cast<int32_t>(a) * b) / (1 << 15));
}

int16_t SaturatingLeftShift16(int16_t value, int amount) {
  const int64_t r = static_cast<int64_t>(value) * (int64_t{1} << amount);
  return static_cast<int16_t>(std::max<int64_t>(kInt16Min, std::min<int64_t>(kInt16Max, r)));
}

// TFLM's DownScaleInt32ToInt16Multiplier.
int16_t DownScale(int32_t m) {
  constexpr int32_t kRounding = 1 << 15;
  if (m >= std::numeric_limits<int32_t>::max() - kRounding) return kInt16Max;
  return static_cast<int16_t>((m + kRounding) >> 16);
}

}  // namespace

int16_t RoundingDivideByPOT16(int16_t x, int exponent) {
  // The mask is formed in 64 bits and truncated to int16, as gemmlowp's Dup.
  const int16_t mask = Wrap16(static_cast<int32_t>((int64_t{1} << exponent) - 1));
  const int16_t remainder = static_cast<int16_t>(x & mask);
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return Wrap16((static_cast<int32_t>(x) >> exponent) + (remainder > threshold ? 1 : 0));
}

Status PrepareHardSwishInt8(float input_scale, int32_t input_zero_point, float output_scale,
                            int32_t output_zero_point, HardSwishOpData* data) {
  HardSwishOpData d;
  d.input_zero_point = static_cast<int16_t>(input_zero_point);
  d.output_zero_point = static_cast<int16_t>(output_zero_point);
  const float hires_input_scale = (1.0f / 128.0f) * input_scale;
  const float reluish_scale = 3.0f / 32768.0f;
  int32_t m32 = 0;
  int shift = 0;
  TFLM_ARENA_RETURN_IF_ERROR(CheckedQuantizeMultiplier(
      kOp, "output multiplier", static_cast<double>(hires_input_scale / output_scale), &m32,
      &shift));
  if (shift > 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output scale %g too small for input scale %g (output exponent "
                         "%d > 0)",
                         kOp, static_cast<double>(output_scale), static_cast<double>(input_scale),
                         shift);
  }
  d.output_multiplier_fixedpoint_int16 = DownScale(m32);
  d.output_multiplier_exponent = shift;
  TFLM_ARENA_RETURN_IF_ERROR(CheckedQuantizeMultiplier(
      kOp, "reluish multiplier", static_cast<double>(hires_input_scale / reluish_scale), &m32,
      &shift));
  d.reluish_multiplier_fixedpoint_int16 = DownScale(m32);
  d.reluish_multiplier_exponent = shift;
  *data = d;
  return Status::Ok();
}

void HardSwishFloat(size_t n, const float* in, float* out) {
  for (size_t i = 0; i < n; ++i) {
    const float x = in[i];
    out[i] = x * std::min(6.0f, std::max(0.0f, x + 3.0f)) / 6.0f;
  }
}

void HardSwishInt8(const HardSwishOpData& d, size_t n, const int8_t* in, int8_t* out) {
  for (size_t i = 0; i < n; ++i) {
    const int16_t v = Wrap16(in[i] - d.input_zero_point);
    const int16_t hires = Wrap16(v * (1 << 7));  // |v| <= 255: fits
    const int16_t preshift_out = Srdhm16(hires, d.output_multiplier_fixedpoint_int16);
    int16_t reluish = hires;
    if (d.reluish_multiplier_exponent > 0) {
      reluish = SaturatingLeftShift16(reluish, d.reluish_multiplier_exponent - 1);
    }
    reluish = Srdhm16(reluish, d.reluish_multiplier_fixedpoint_int16);
    if (d.reluish_multiplier_exponent > 0) {
      reluish = SaturatingLeftShift16(reluish, 1);
    } else if (d.reluish_multiplier_exponent < 0) {
      reluish = RoundingDivideByPOT16(reluish, -d.reluish_multiplier_exponent);
    }
    reluish = static_cast<int16_t>((reluish + (1 << 15)) >> 1);
    const int16_t preshift = Sdhm16(reluish, preshift_out);
    int16_t y = RoundingDivideByPOT16(preshift, -d.output_multiplier_exponent);
    y = Wrap16(y + d.output_zero_point);
    out[i] = static_cast<int8_t>(std::max<int16_t>(-128, std::min<int16_t>(127, y)));
  }
}

}  // namespace runtime
}  // namespace tflm_arena
