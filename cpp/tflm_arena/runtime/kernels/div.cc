// DIV glue: options parsing, init / prepare / invoke over KernelContext
// (math in div_math.cc).
#include "tflm_arena/runtime/kernels/div.h"

#include <new>

#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "DIV";

// DivOptions: fused_activation_function 0.
void ReadDiv(model::OptionsTable& table, DivOptions& o) {
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
}

constexpr BinaryKernelFns<DivOptions, DivOpData> kFns = {PrepareDiv, DivFloat, nullptr,
                                                         DivInt32,   DivInt8,  nullptr};

Status DivPrepare(KernelContext& context, Node& node) {
  return PrepareBinaryOp(context, node, kOp, kFns.prepare);
}

Status DivInvoke(KernelContext& context, Node& node) {
  return InvokeBinaryOp(context, node, kOp, kFns);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinDiv, kOp, InitOpData<DivOpData>, DivPrepare, DivInvoke,
                     OptionsReader<DivOptions, ReadDiv>(model::kDivOptions));

}  // namespace

const KernelRegistration& Register_DIV() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
