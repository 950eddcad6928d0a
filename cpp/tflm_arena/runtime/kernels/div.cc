// DIV glue: options parsing, init / prepare / invoke over KernelContext
// (binary_glue.h; math in div_math.cc).
#include "tflm_arena/runtime/kernels/div.h"

#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

// DivOptions: fused_activation_function 0 (ReadFusedActivation).
constexpr BinaryKernelFns<DivOptions, DivOpData> kFns = {"DIV",    PrepareDiv, DivFloat, nullptr,
                                                         DivInt32, DivInt8,    nullptr};

constexpr KernelRegistration kRegistration =
    MakeBinaryRegistration<kFns, ReadFusedActivation<DivOptions>>(model::kBuiltinDiv,
                                                                  model::kDivOptions);

}  // namespace

const KernelRegistration& Register_DIV() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
