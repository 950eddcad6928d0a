// SUB glue: options parsing, init / prepare / invoke over KernelContext
// (binary_glue.h; math in sub_math.cc).
#include "tflm_arena/runtime/kernels/sub.h"

#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

// SubOptions: fused_activation_function 0, pot_scale_int16 1 (default true).
void ReadSub(model::OptionsTable& table, SubOptions& o) {
  ReadFusedActivation(table, o);
  o.pot_scale_int16 = table.UInt8(1, 1) != 0;
}

constexpr BinaryKernelFns<SubOptions, SubOpData> kFns = {"SUB",    PrepareSub, SubFloat, nullptr,
                                                         SubInt32, SubInt8,    SubInt16};

constexpr KernelRegistration kRegistration =
    MakeBinaryRegistration<kFns, ReadSub>(model::kBuiltinSub, model::kSubOptions);

}  // namespace

const KernelRegistration& Register_SUB() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
