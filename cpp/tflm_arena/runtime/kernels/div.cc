// DIV glue: options parsing, init / prepare / invoke over KernelContext
// (binary_glue.h; math in div_math.cc).
#include "tflm_arena/runtime/kernels/div.h"

#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {

const KernelRegistration& Register_DIV() {
  // DivOptions: fused_activation_function 0 (ReadFusedActivation).
  static constexpr BinaryKernelFns<DivOptions, DivOpData> kFns = {
      "DIV", model::kBuiltinDiv, model::kDivOptions, PrepareDiv,
      // FLOAT32 (fused activation, OpData), INT32, INT8, INT16:
      DivFloat, nullptr, DivInt32, DivInt8, nullptr};
  return BinaryRegistration<kFns, ReadFusedActivation<DivOptions>>::kRegistration;
}

}  // namespace runtime
}  // namespace tflm_arena
