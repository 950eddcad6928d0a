// MAXIMUM: the kernel shared with the other of MAXIMUM / MINIMUM
// (MaximumMinimumKernel in maximum_minimum_glue.h; math in
// maximum_minimum_math.cc).
#include "tflm_arena/runtime/kernels/maximum_minimum_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {

const KernelRegistration& Register_MAXIMUM() { return MaximumMinimumKernel<true>::kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
