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

using model::TensorType;
constexpr const char* kOp = "DIV";

// DivOptions: fused_activation_function 0.
void ReadDiv(model::OptionsTable& table, DivOptions& o) {
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
}

Status DivPrepare(KernelContext& context, Node& node) {
  return PrepareBinaryOp(context, node, kOp, PrepareDiv);
}

Status DivInvoke(KernelContext& context, Node& node) {
  BinaryTensors t;
  TFLM_ARENA_RETURN_IF_ERROR(GetBinaryOpTensors(context, node, kOp, &t));
  if (t.count == 0) return Status::Ok();
  const auto& data = *static_cast<const DivOpData*>(node.user_data);
  switch (t.out->type) {
    case TensorType::kFloat32:
      t.Run<float>(DivFloat, OptionsOrDefault<DivOptions>(node).activation);
      return Status::Ok();
    case TensorType::kInt32:
      t.Run<int32_t>(DivInt32, data);
      return Status::Ok();
    case TensorType::kInt8:
      t.Run<int8_t>(DivInt8, data);
      return Status::Ok();
    default:
      return BinaryOutputTypeUnsupported(kOp, t.out->type);
  }
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinDiv, kOp, InitOpData<DivOpData>, DivPrepare, DivInvoke,
                     OptionsReader<DivOptions, ReadDiv>(model::kDivOptions));

}  // namespace

const KernelRegistration& Register_DIV() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
