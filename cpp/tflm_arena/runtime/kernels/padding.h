// Output size and implicit zero padding of windowed operators (convolution,
// depthwise convolution, pooling), computed exactly as TFLM does.
//
// Facts (TFLM kernels/padding.h):
//   effective filter = (filter - 1) * dilation + 1
//   SAME:  out = (in + stride - 1) / stride
//   VALID: out = (in + stride - effective filter) / stride
//   stride 0 gives out = 0 (TFLM's way of signalling the error)
//   total padding = max(0, (out - 1) * stride + effective filter - in);
//   the leading side gets total / 2, the odd pixel (total % 2) goes to the
//   trailing side and is reported as the offset.
// All divisions truncate toward zero, as in C++.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_PADDING_H_
#define TFLM_ARENA_RUNTIME_KERNELS_PADDING_H_

#include <cstdint>

#include "tflm_arena/model/builtin_options.h"

namespace tflm_arena {
namespace runtime {

// TFLM's TfLitePaddingValues: padding before the first row / column, and the
// extra pixel after the last one when the total padding is odd.
struct PaddingValues {
  int32_t width = 0;
  int32_t height = 0;
  int32_t width_offset = 0;
  int32_t height_offset = 0;
};

// Output extent of one spatial dimension.
int32_t ComputeOutSize(model::Padding padding, int32_t image_size, int32_t filter_size,
                       int32_t stride, int32_t dilation);

// Leading padding of one dimension for a given output size; *offset gets the
// odd trailing pixel (0 or 1).
int32_t ComputePaddingWithOffset(int32_t stride, int32_t dilation, int32_t in_size,
                                 int32_t filter_size, int32_t out_size, int32_t* offset);

// Both dimensions at once (TFLM's ComputePaddingHeightWidth). Writes the
// computed output height / width (callers that take the output shape from the
// model may ignore them, as TFLM does).
PaddingValues ComputePaddingHeightWidth(int32_t stride_height, int32_t stride_width,
                                        int32_t dilation_height, int32_t dilation_width,
                                        int32_t in_height, int32_t in_width, int32_t filter_height,
                                        int32_t filter_width, model::Padding padding,
                                        int32_t* out_height, int32_t* out_width);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_PADDING_H_
