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

using model::TensorType;
constexpr const char* kOp = "SUB";

// SubOptions: fused_activation_function 0, pot_scale_int16 1 (default true).
void ReadSub(model::OptionsTable& table, SubOptions& o) {
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
  o.pot_scale_int16 = table.UInt8(1, 1) != 0;
}

Status SubPrepare(KernelContext& context, Node& node) {
  return PrepareBinaryOp(context, node, kOp, PrepareSub);
}

Status SubInvoke(KernelContext& context, Node& node) {
  BinaryTensors t;
  TFLM_ARENA_RETURN_IF_ERROR(GetBinaryOpTensors(context, node, kOp, &t));
  if (t.count == 0) return Status::Ok();
  const auto& data = *static_cast<const SubOpData*>(node.user_data);
  switch (t.out->type) {
    case TensorType::kFloat32:
      t.Run<float>(SubFloat, OptionsOrDefault<SubOptions>(node).activation);
      return Status::Ok();
    case TensorType::kInt32:
      t.Run<int32_t>(SubInt32, data);
      return Status::Ok();
    case TensorType::kInt8:
      t.Run<int8_t>(SubInt8, data);
      return Status::Ok();
    case TensorType::kInt16:
      t.Run<int16_t>(SubInt16, data);
      return Status::Ok();
    default:
      return BinaryOutputTypeUnsupported(kOp, t.out->type);
  }
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinSub, kOp, InitOpData<SubOpData>, SubPrepare, SubInvoke,
                     OptionsReader<SubOptions, ReadSub>(model::kSubOptions));

}  // namespace

const KernelRegistration& Register_SUB() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
