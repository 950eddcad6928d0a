// MUL glue: options parsing, init / prepare / invoke over KernelContext
// (binary_glue.h; math in mul_math.cc).
#include "tflm_arena/runtime/kernels/mul.h"

#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

// MulOptions: fused_activation_function 0 (ReadFusedActivation).
constexpr BinaryKernelFns<MulOptions, MulOpData> kFns = {"MUL",    PrepareMul, nullptr, MulFloat,
                                                         MulInt32, MulInt8,    MulInt16};

constexpr KernelRegistration kRegistration =
    MakeBinaryRegistration<kFns, ReadFusedActivation<MulOptions>>(model::kBuiltinMul,
                                                                  model::kMulOptions);

}  // namespace

const KernelRegistration& Register_MUL() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
