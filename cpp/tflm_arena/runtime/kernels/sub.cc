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

}  // namespace

const KernelRegistration& Register_SUB() {
  static constexpr BinaryKernelFns<SubOptions, SubOpData> kFns = {
      "SUB", model::kBuiltinSub, model::kSubOptions, PrepareSub,
      // FLOAT32 (fused activation, OpData), INT32, INT8, INT16:
      SubFloat, nullptr, SubInt32, SubInt8, SubInt16};
  return BinaryRegistration<kFns, ReadSub>::kRegistration;
}

}  // namespace runtime
}  // namespace tflm_arena
