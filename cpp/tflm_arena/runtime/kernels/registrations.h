// Every kernel tflm_arena ships, one registration function per builtin
// operator (each defined in its own file under runtime/kernels/). The
// resolver picks from these the ones a model needs.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_REGISTRATIONS_H_
#define TFLM_ARENA_RUNTIME_KERNELS_REGISTRATIONS_H_

#include "tflm_arena/runtime/kernel_api.h"

namespace tflm_arena {
namespace runtime {

const KernelRegistration& Register_FULLY_CONNECTED();
const KernelRegistration& Register_CONV_2D();
const KernelRegistration& Register_DEPTHWISE_CONV_2D();
const KernelRegistration& Register_ADD();
const KernelRegistration& Register_AVERAGE_POOL_2D();
const KernelRegistration& Register_MAX_POOL_2D();
const KernelRegistration& Register_SOFTMAX();
const KernelRegistration& Register_RESHAPE();
const KernelRegistration& Register_QUANTIZE();
const KernelRegistration& Register_DEQUANTIZE();

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_REGISTRATIONS_H_
