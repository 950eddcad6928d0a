#include "tflm_arena/tflm/kernel_shapes.h"

#include <algorithm>

namespace tflm_arena {
namespace tflm {

int64_t ConvPadding(model::Padding padding, int64_t stride, int64_t dilation, int64_t in,
                    int64_t filter) {
  if (stride <= 0 || dilation <= 0 || filter <= 0 || in < 0) return 0;
  const int64_t effective = (filter - 1) * dilation + 1;
  int64_t out = 0;
  if (padding == model::Padding::kSame) {
    out = (in + stride - 1) / stride;
  } else if (padding == model::Padding::kValid) {
    out = (in + stride - effective) / stride;
  }  // any other value: TFLM's parser makes it kTfLitePaddingUnknown, out 0
  if (out < 0) return 0;
  return std::max<int64_t>((out - 1) * stride + effective - in, 0) / 2;
}

}  // namespace tflm
}  // namespace tflm_arena
