#include "tflm_arena/runtime/kernels/padding.h"

namespace tflm_arena {
namespace runtime {
namespace {

// 64-bit intermediate: a malformed model cannot overflow the arithmetic; for
// every model TFLM computes without overflow the result is the same.
int32_t EffectiveFilterSize(int32_t filter_size, int32_t dilation) {
  return static_cast<int32_t>((static_cast<int64_t>(filter_size) - 1) * dilation + 1);
}

}  // namespace

int32_t ComputeOutSize(model::Padding padding, int32_t image_size, int32_t filter_size,
                       int32_t stride, int32_t dilation) {
  if (stride == 0) return 0;
  const int64_t effective = EffectiveFilterSize(filter_size, dilation);
  switch (padding) {
    case model::Padding::kSame:
      return static_cast<int32_t>((static_cast<int64_t>(image_size) + stride - 1) / stride);
    case model::Padding::kValid:
      return static_cast<int32_t>((static_cast<int64_t>(image_size) + stride - effective) / stride);
  }
  return 0;
}

int32_t ComputePaddingWithOffset(int32_t stride, int32_t dilation, int32_t in_size,
                                 int32_t filter_size, int32_t out_size, int32_t* offset) {
  const int64_t effective = EffectiveFilterSize(filter_size, dilation);
  int64_t total = (static_cast<int64_t>(out_size) - 1) * stride + effective - in_size;
  if (total < 0) total = 0;
  *offset = static_cast<int32_t>(total % 2);
  return static_cast<int32_t>(total / 2);
}

PaddingValues ComputePaddingHeightWidth(int32_t stride_height, int32_t stride_width,
                                        int32_t dilation_height, int32_t dilation_width,
                                        int32_t in_height, int32_t in_width, int32_t filter_height,
                                        int32_t filter_width, model::Padding padding,
                                        int32_t* out_height, int32_t* out_width) {
  *out_width = ComputeOutSize(padding, in_width, filter_width, stride_width, dilation_width);
  *out_height = ComputeOutSize(padding, in_height, filter_height, stride_height, dilation_height);
  PaddingValues values;
  values.height = ComputePaddingWithOffset(stride_height, dilation_height, in_height, filter_height,
                                           *out_height, &values.height_offset);
  values.width = ComputePaddingWithOffset(stride_width, dilation_width, in_width, filter_width,
                                          *out_width, &values.width_offset);
  return values;
}

}  // namespace runtime
}  // namespace tflm_arena
