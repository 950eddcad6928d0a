// esp-nn's scratch-size functions (espressif/esp-nn, the esp_nn_get_*
// _scratch_size* functions the esp_nn kernels call in Prepare), per size set
// and per esp-nn release. Which formula a release has is data: the
// EspNnVersion a stack version names (stack_versions.h) selects it here.
#ifndef TFLM_ARENA_TFLM_ESP_NN_SCRATCH_SIZES_H_
#define TFLM_ARENA_TFLM_ESP_NN_SCRATCH_SIZES_H_

#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace tflm {

// ESP-NN's size sets (which esp_nn_get_*_scratch_size* functions a build
// links; esp-nn's include/esp_nn.h picks them by Kconfig).
enum class EspNnChip : uint8_t { kAnsiC = 0, kEsp32, kEsp32S3, kEsp32P4 };

// "ANSI C", "ESP32 (generic optimized)", "ESP32-S3", "ESP32-P4".
const char* EspNnChipName(EspNnChip chip);

// The esp-nn releases whose size functions are modelled, oldest first.
enum class EspNnVersion : uint8_t { kV1_1_2 = 0, kV1_2_0, kV1_2_1, kV1_2_2, kV1_2_3 };

// The arguments the esp_nn kernels pass: data_dims_t (width, height,
// channels) of input, filter and output, and conv_params_t /
// dw_conv_params_t (stride, padding, ch_mult), all int32 in esp-nn.
struct EspNnDims {
  int64_t width = 1, height = 1, channels = 1;
};
struct EspNnConv {
  EspNnDims input, filter, output;
  int64_t stride_w = 1, stride_h = 1;
  int64_t pad_w = 0, pad_h = 0;
  int64_t ch_mult = 1;  // depthwise only
};

// The value esp-nn's function returns (an int; the kernels request scratch
// only when it is > 0). kInvalidArgument when esp-nn's int arithmetic would
// overflow or divide by zero for these arguments.
// esp_nn_get_conv_scratch_size_{ansi,opt,esp32s3,esp32p4}
// (src/convolution/esp_nn_conv_*.c).
Status EspNnConvScratchSize(EspNnChip chip, EspNnVersion version, const EspNnConv& conv,
                            int64_t* out);
// esp_nn_get_depthwise_conv_scratch_size_{ansi,opt,esp32s3,esp32p4}
// (src/convolution/esp_nn_depthwise_conv_*.c).
Status EspNnDepthwiseConvScratchSize(EspNnChip chip, EspNnVersion version, const EspNnConv& conv,
                                     int64_t* out);
// esp_nn_get_softmax_scratch_size_{ansi,opt,esp32s3,esp32p4}
// (src/softmax/esp_nn_softmax_*.c); height is unused by every set.
Status EspNnSoftmaxScratchSize(EspNnChip chip, EspNnVersion version, int64_t width, int64_t* out);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_ESP_NN_SCRATCH_SIZES_H_
