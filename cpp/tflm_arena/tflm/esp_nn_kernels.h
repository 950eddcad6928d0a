// TFLM as Espressif ships it for its chips: espressif/esp-tflite-micro (a
// TFLM fork, commit 99f49e1) with the ESP-NN kernels of espressif/esp-nn
// (the release a stack version names, esp_nn_scratch_sizes.h). Built with ESP-NN, the seven kernels
// of esp-tflite-micro's tensorflow/lite/micro/kernels/esp_nn/ (add, conv, depthwise_conv,
// fully_connected, mul, pooling, softmax) replace the reference ones (its CMakeLists.txt, with
// -DESP_NN on every file).
//
// Three of them differ in memory from the reference kernels:
//  - conv.cc and depthwise_conv.cc: Init allocates NodeData {OpDataConv;
//    int buffer_idx} (60 bytes, not 56), and Prepare, for int8 input,
//    requests one scratch buffer of esp_nn_get_{conv,depthwise_conv}_scratch_size
//    bytes when that is > 0 (after CalculateOpDataConv* and the int4 scratch);
//  - softmax.cc: Init allocates NodeData {SoftmaxParams; int buffer_idx}
//    (64 bytes: SoftmaxParams is 56 and 8-aligned), and Prepare, for int8
//    input and output, requests esp_nn_get_softmax_scratch_size(dims[1],
//    dims[2]) bytes when > 0.
// add, fully_connected, mul and pooling allocate what the reference kernels
// allocate (same OpData, the reference Prepare helpers).
//
// ESP-NN's include/esp_nn.h picks the size functions by Kconfig:
// CONFIG_NN_ANSI_C -> the ANSI C set (esp_nn_ansi_c.h); CONFIG_NN_OPTIMIZED
// (the default) -> ESP32-S3 (esp_nn_esp32s3.h), ESP32-P4 (esp_nn_esp32p4.h)
// or, for every other chip (ESP32, S2, C3, C6, ...), the generic optimized
// set (esp_nn_generic_opt.h).
//
// The struct layout is the 32-bit "cortex-m" one (target_abi.h): Xtensa
// (ESP32, S3) and RISC-V ILP32 (P4) GCC lay TFLM's structs out as
// arm-linux-gnueabihf does (4-byte pointers and enums, 8-aligned int64 and
// double).
#ifndef TFLM_ARENA_TFLM_ESP_NN_KERNELS_H_
#define TFLM_ARENA_TFLM_ESP_NN_KERNELS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/tflm/esp_nn_scratch_sizes.h"
#include "tflm_arena/tflm/kernel_table.h"

namespace tflm_arena {
namespace tflm {

// The scratch request of an esp_nn kernel's Prepare (StepKind::kEspNn, rule in Step::a).
enum class EspNnRule : uint8_t { kConv = 0, kDepthwiseConv, kSoftmax };

// The scratch requests (bytes, in order) `rule` makes for operator
// `op_index` of subgraph `sg`; errors name what the model gets wrong.
Status EspNnPrepare(EspNnRule rule, EspNnChip chip, EspNnVersion version, const model::Model& model,
                    size_t sg, size_t op_index, const model::OperatorInfo& op,
                    std::vector<uint64_t>* out);

// The esp_nn rows followed by the reference rows of every other operator.
Span<const KernelRow> EspNnKernels();
// The esp_nn rows only (one per operator of the seven kernels/esp_nn/ files).
Span<const KernelRow> EspNnOwnKernels();

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_ESP_NN_KERNELS_H_
