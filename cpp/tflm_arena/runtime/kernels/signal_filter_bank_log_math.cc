#include "tflm_arena/runtime/kernels/signal_fft_auto_scale.h"
#include "tflm_arena/runtime/kernels/signal_filter_bank_log.h"

namespace tflm_arena {
namespace runtime {
namespace {

// TFLM's kLogLut (signal/src/log.cc): log2(1 + k/128) - k/128 scaled by
// 2^16, for k = 0..128, and a trailing 0.
constexpr uint16_t kLogLut[130] = {
    0,    224,  442,  654,  861,  1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329, 2490, 2646,
    2797, 2944, 3087, 3224, 3358, 3487, 3611, 3732, 3848, 3960, 4068, 4172, 4272, 4368, 4460,
    4549, 4633, 4714, 4791, 4864, 4934, 5001, 5063, 5123, 5178, 5231, 5280, 5326, 5368, 5408,
    5444, 5477, 5507, 5533, 5557, 5578, 5595, 5610, 5622, 5631, 5637, 5640, 5641, 5638, 5633,
    5626, 5615, 5602, 5586, 5568, 5547, 5524, 5498, 5470, 5439, 5406, 5370, 5332, 5291, 5249,
    5203, 5156, 5106, 5054, 5000, 4944, 4885, 4825, 4762, 4697, 4630, 4561, 4490, 4416, 4341,
    4264, 4184, 4103, 4020, 3935, 3848, 3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084, 2981,
    2875, 2768, 2659, 2549, 2437, 2323, 2207, 2090, 1971, 1851, 1729, 1605, 1480, 1353, 1224,
    1094, 963,  830,  695,  559,  421,  282,  142,  0,    0};
constexpr uint32_t kSegmentsLog2 = 7;
constexpr uint32_t kScaleLog2 = 16;
constexpr uint32_t kScale = 1u << kScaleLog2;
constexpr uint64_t kCoeff = 45426;

uint32_t FractionPart(uint32_t x, uint32_t log2x) {
  auto frac = static_cast<int32_t>(static_cast<int64_t>(x) - (int64_t{1} << log2x));
  if (log2x < kScaleLog2) {
    frac = static_cast<int32_t>(static_cast<uint32_t>(frac) << (kScaleLog2 - log2x));
  } else {
    frac = frac >> static_cast<int>(log2x - kScaleLog2);
  }
  const uint32_t seg = static_cast<uint32_t>(frac) >> (kScaleLog2 - kSegmentsLog2);
  const uint32_t unit = kScale >> kSegmentsLog2;
  const int32_t c0 = kLogLut[seg];
  const int32_t c1 = kLogLut[seg + 1];
  const auto seg_base = static_cast<int32_t>(unit * seg);
  const int32_t rel = ((c1 - c0) * (frac - seg_base)) >> kScaleLog2;
  return static_cast<uint32_t>(frac + c0 + rel);
}

}  // namespace

uint32_t SignalLog32(uint32_t x, uint32_t out_scale) {
  const uint32_t integer = SignalMostSignificantBit32(x) - 1;
  const uint32_t log2 = (integer << kScaleLog2) + FractionPart(x, integer);
  const uint32_t round = kScale / 2;
  const auto loge = static_cast<uint32_t>((kCoeff * log2 + round) >> kScaleLog2);
  return (out_scale * loge + round) >> kScaleLog2;
}

void SignalFilterBankLog(const uint32_t* input, size_t channels, int32_t output_scale,
                         uint32_t correction_bits, int16_t* output) {
  for (size_t i = 0; i < channels; ++i) {
    const uint32_t scaled = input[i] << correction_bits;
    if (scaled > 1) {
      const uint32_t v = SignalLog32(scaled, static_cast<uint32_t>(output_scale));
      output[i] = static_cast<int16_t>(v < 32767u ? v : 32767u);
    } else {
      output[i] = 0;
    }
  }
}

}  // namespace runtime
}  // namespace tflm_arena
