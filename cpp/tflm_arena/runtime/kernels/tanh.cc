// TANH: the kernel shared with the other of LOGISTIC / TANH
// (SigmoidKernel in sigmoid_glue.h; math in sigmoid_math.cc).
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/sigmoid_glue.h"

namespace tflm_arena {
namespace runtime {

const KernelRegistration& Register_TANH() {
  return SigmoidKernel<SigmoidKind::kTanh>::kRegistration;
}

}  // namespace runtime
}  // namespace tflm_arena
