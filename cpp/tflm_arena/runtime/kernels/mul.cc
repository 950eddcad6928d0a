// MUL glue: options parsing, init / prepare / invoke over KernelContext
// (binary_glue.h; math in mul_math.cc).
#include "tflm_arena/runtime/kernels/mul.h"

#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {

const KernelRegistration& Register_MUL() {
  // MulOptions: fused_activation_function 0 (ReadFusedActivation).
  static constexpr BinaryKernelFns<MulOptions, MulOpData> kFns = {
      "MUL", model::kBuiltinMul, model::kMulOptions, PrepareMul,
      // FLOAT32 (fused activation, OpData), INT32, INT8, INT16:
      nullptr, MulFloat, MulInt32, MulInt8, MulInt16};
  return BinaryRegistration<kFns, ReadFusedActivation<MulOptions>>::kRegistration;
}

}  // namespace runtime
}  // namespace tflm_arena
