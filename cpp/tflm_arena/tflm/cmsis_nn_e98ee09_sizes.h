// CMSIS-NN's buffer-size functions at commit e98ee09 (the CMSIS-NN the
// Arduino library bundles in src/third_party/cmsis_nn, from TFLM of
// 2023-02), where they differ from 4ab83cc's (cmsis_nn_kernels.h). GCC's
// build; per backend (bytes):
//  - arm_convolve_wrapper_s8_get_buffer_size: the fast 1x1 kernel (no
//    padding, unit stride and dilation) needs 0; else the 1xN kernel (input
//    height 1, output width a multiple of 4, unit width dilation, filter
//    height 1) needs the im2col size except on MVE (0); else
//    arm_convolve_s8_get_buffer_size: MVE 4 * round_up(C*Kw*Kh, 8), other
//    backends 2 * C*Kw*Kh int16 (no rounding up, unlike 4ab83cc).
//  - arm_convolve_wrapper_s16_get_buffer_size: DSP without MVE, when
//    Kw*Kh*C < 512 and unit dilation, the fast kernel's 2 * C*Kw*Kh int16;
//    0 otherwise and on the other backends.
//  - arm_depthwise_conv_wrapper_s8_get_buffer_size: when input channels =
//    output channels, batch 1 and unit dilation,
//    arm_depthwise_conv_s8_opt_get_buffer_size: MVE 4 * 124 (CH_IN_BLOCK_MVE)
//    * Kw*Kh, DSP C*Kw*Kh int16 (also for 3x3 filters, unlike 4ab83cc),
//    scalar 0; otherwise 0.
//  - arm_fully_connected_s8_get_buffer_size and
//    arm_convolve_1x1_s8_fast_get_buffer_size: 0 on every backend.
#ifndef TFLM_ARENA_TFLM_CMSIS_NN_E98EE09_SIZES_H_
#define TFLM_ARENA_TFLM_CMSIS_NN_E98EE09_SIZES_H_

#include <cstdint>

#include "tflm_arena/tflm/cmsis_nn_kernels.h"

namespace tflm_arena {
namespace tflm {

int64_t ConvolveWrapperS8BufferSizeE98ee09(CmsisNnBackend backend, const CmsisConv& conv);
int64_t ConvolveWrapperS16BufferSizeE98ee09(CmsisNnBackend backend, const CmsisConv& conv);
// conv.filter.c = output channels, as the kernel fills it.
int64_t DepthwiseConvWrapperS8BufferSizeE98ee09(CmsisNnBackend backend, const CmsisConv& conv);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_CMSIS_NN_E98EE09_SIZES_H_
