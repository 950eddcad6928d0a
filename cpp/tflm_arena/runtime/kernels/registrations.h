// Every kernel tflm_arena ships (kernel_list.h), one registration function
// per builtin or custom operator, each defined in its own file under runtime/kernels/.
// The resolver picks from these the ones a model needs.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_REGISTRATIONS_H_
#define TFLM_ARENA_RUNTIME_KERNELS_REGISTRATIONS_H_

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_list.h"

namespace tflm_arena {
namespace runtime {

#define TFLM_ARENA_DECLARE_KERNEL(NAME) const KernelRegistration& Register_##NAME();
TFLM_ARENA_SHIPPED_KERNELS(TFLM_ARENA_DECLARE_KERNEL)
TFLM_ARENA_SHIPPED_CUSTOM_KERNELS(TFLM_ARENA_DECLARE_KERNEL)
#undef TFLM_ARENA_DECLARE_KERNEL

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_REGISTRATIONS_H_
