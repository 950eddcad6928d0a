#include "tflm_arena/tflm/cmsis_nn_e98ee09_sizes.h"

#include <climits>

namespace tflm_arena {
namespace tflm {
namespace {

// Computed in 128 bits (at most four int32 factors); saturated to int64.
using Wide = __int128;
int64_t Sat(Wide v) {
  constexpr Wide kMax = INT64_MAX;
  return static_cast<int64_t>(v > kMax ? kMax : v < 0 ? 0 : v);
}

constexpr int64_t kChInBlockMve = 124;  // CH_IN_BLOCK_MVE at e98ee09

Wide Columns(const CmsisConv& c) { return Wide{c.input.c} * c.filter.w * c.filter.h; }

// arm_convolve_s8_get_buffer_size.
int64_t ConvS8(CmsisNnBackend backend, const CmsisConv& c) {
  if (backend == CmsisNnBackend::kMve) return Sat(4 * ((Columns(c) + 7) / 8) * 8);
  return Sat(2 * Columns(c) * 2);
}

}  // namespace

int64_t ConvolveWrapperS8BufferSizeE98ee09(CmsisNnBackend backend, const CmsisConv& c) {
  if (c.pad_w == 0 && c.pad_h == 0 && c.stride_w == 1 && c.stride_h == 1 && c.filter.w == 1 &&
      c.filter.h == 1 && c.dilation_w == 1 && c.dilation_h == 1) {
    return 0;  // arm_convolve_1x1_s8_fast_get_buffer_size
  }
  if (c.input.h == 1 && c.output.w % 4 == 0 && c.dilation_w == 1 && c.filter.h == 1) {
    // arm_convolve_1_x_n_s8_get_buffer_size
    return backend == CmsisNnBackend::kMve ? 0 : ConvS8(backend, c);
  }
  return ConvS8(backend, c);
}

int64_t ConvolveWrapperS16BufferSizeE98ee09(CmsisNnBackend backend, const CmsisConv& c) {
  if (backend != CmsisNnBackend::kDsp) return 0;  // arm_convolve_s16_get_buffer_size
  if (Columns(c) < 512 && c.dilation_w == 1 && c.dilation_h == 1) {
    return Sat(2 * Columns(c) * 2);  // arm_convolve_fast_s16_get_buffer_size
  }
  return 0;
}

int64_t DepthwiseConvWrapperS8BufferSizeE98ee09(CmsisNnBackend backend, const CmsisConv& c) {
  if (c.input.c != c.output.c || c.input.n != 1 || c.dilation_w != 1 || c.dilation_h != 1) {
    return 0;
  }
  switch (backend) {
    case CmsisNnBackend::kMve:
      return Sat(4 * Wide{kChInBlockMve} * c.filter.w * c.filter.h);
    case CmsisNnBackend::kDsp:
      return Sat(Wide{c.input.c} * c.filter.w * c.filter.h * 2);
    case CmsisNnBackend::kScalar:
      return 0;
  }
  return 0;
}

}  // namespace tflm
}  // namespace tflm_arena
