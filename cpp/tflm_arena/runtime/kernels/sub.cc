// SUB glue: options parsing, init / prepare / invoke over KernelContext
// (math in sub_math.cc).
#include "tflm_arena/runtime/kernels/sub.h"

#include <new>

#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "SUB";

// SubOptions: fused_activation_function 0, pot_scale_int16 1 (default true).
void ReadSub(model::OptionsTable& table, SubOptions& o) {
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
  o.pot_scale_int16 = table.UInt8(1, 1) != 0;
}

constexpr BinaryKernelFns<SubOptions, SubOpData> kFns = {PrepareSub, SubFloat, nullptr,
                                                         SubInt32,   SubInt8,  SubInt16};

Status SubPrepare(KernelContext& context, Node& node) {
  return PrepareBinaryOp(context, node, kOp, kFns.prepare);
}

Status SubInvoke(KernelContext& context, Node& node) {
  return InvokeBinaryOp(context, node, kOp, kFns);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinSub, kOp, InitOpData<SubOpData>, SubPrepare, SubInvoke,
                     OptionsReader<SubOptions, ReadSub>(model::kSubOptions));

}  // namespace

const KernelRegistration& Register_SUB() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
