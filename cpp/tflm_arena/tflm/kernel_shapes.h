// Shape arithmetic TFLM's optimized-kernel Prepares share with the reference
// ones, as the CMSIS-NN and ESP-NN size models need it.
#ifndef TFLM_ARENA_TFLM_KERNEL_SHAPES_H_
#define TFLM_ARENA_TFLM_KERNEL_SHAPES_H_

#include <cstdint>

#include "tflm_arena/model/builtin_options.h"

namespace tflm_arena {
namespace tflm {

// The leading padding of one spatial dimension, as TFLM's padding.h computes
// it (ComputeOutSize, then ComputePaddingWithOffset without the offset) and
// CalculateOpDataConv / CalculateOpDataDepthwiseConv store: 0 for a
// non-positive stride, dilation or filter or a negative input. A padding
// value the schema does not define is parsed by TFLM as
// kTfLitePaddingUnknown, for which ComputeOutSize returns 0 and the padding
// is computed from that output size, as here.
// Example: ConvPadding(model::Padding::kSame, 1, 1, 8, 3) -> 1;
// ConvPadding(model::Padding(7), 1, 1, 8, 5) -> 0 (-1 + 5 - 8 < 0), and
// with a filter of 12: (-1 + 12 - 8) / 2 = 1.
int64_t ConvPadding(model::Padding padding, int64_t stride, int64_t dilation, int64_t in,
                    int64_t filter);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_KERNEL_SHAPES_H_
