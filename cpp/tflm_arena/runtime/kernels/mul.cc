// MUL glue: options parsing, init / prepare / invoke over KernelContext
// (math in mul_math.cc).
#include "tflm_arena/runtime/kernels/mul.h"

#include <new>

#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "MUL";

// MulOptions: fused_activation_function 0.
void ReadMul(model::OptionsTable& table, MulOptions& o) {
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
}

constexpr BinaryKernelFns<MulOptions, MulOpData> kFns = {PrepareMul, nullptr, MulFloat,
                                                         MulInt32,   MulInt8, MulInt16};

Status MulPrepare(KernelContext& context, Node& node) {
  return PrepareBinaryOp(context, node, kOp, kFns.prepare);
}

Status MulInvoke(KernelContext& context, Node& node) {
  return InvokeBinaryOp(context, node, kOp, kFns);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinMul, kOp, InitOpData<MulOpData>, MulPrepare, MulInvoke,
                     OptionsReader<MulOptions, ReadMul>(model::kMulOptions));

}  // namespace

const KernelRegistration& Register_MUL() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
