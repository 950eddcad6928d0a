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

using model::TensorType;
constexpr const char* kOp = "MUL";

// MulOptions: fused_activation_function 0.
void ReadMul(model::OptionsTable& table, MulOptions& o) {
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
}

Status MulPrepare(KernelContext& context, Node& node) {
  return PrepareBinaryOp(context, node, kOp, PrepareMul);
}

Status MulInvoke(KernelContext& context, Node& node) {
  BinaryTensors t;
  TFLM_ARENA_RETURN_IF_ERROR(GetBinaryOpTensors(context, node, kOp, &t));
  if (t.count == 0) return Status::Ok();
  const auto& data = *static_cast<const MulOpData*>(node.user_data);
  switch (t.out->type) {
    case TensorType::kFloat32:
      t.Run<float>(MulFloat, data);
      return Status::Ok();
    case TensorType::kInt32:
      t.Run<int32_t>(MulInt32, data);
      return Status::Ok();
    case TensorType::kInt8:
      t.Run<int8_t>(MulInt8, data);
      return Status::Ok();
    case TensorType::kInt16:
      t.Run<int16_t>(MulInt16, data);
      return Status::Ok();
    default:
      return BinaryOutputTypeUnsupported(kOp, t.out->type);
  }
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinMul, kOp, InitOpData<MulOpData>, MulPrepare, MulInvoke,
                     OptionsReader<MulOptions, ReadMul>(model::kMulOptions));

}  // namespace

const KernelRegistration& Register_MUL() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
