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
Status ParseDiv(model::OptionsTable& table, void* out) {
  DivOptions o;
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
  new (out) DivOptions(o);
  return Status::Ok();
}

// Absent options read as the format's defaults (TFLM zero-fills them).
DivOptions OptionsOf(const Node& node) {
  return node.builtin_data != nullptr ? node.options<DivOptions>() : DivOptions();
}

Status DivPrepare(KernelContext& context, Node& node) {
  model::TensorInfo in1, in2, out;
  bool broadcast = false;
  TFLM_ARENA_RETURN_IF_ERROR(
      GetBinaryNodeInfo(context, node, kOp, true, &in1, &in2, &out, &broadcast));
  return PrepareDiv(OptionsOf(node), in1, in2, out, static_cast<DivOpData*>(node.user_data));
}

Status DivInvoke(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  const auto& data = *static_cast<const DivOpData*>(node.user_data);
  const EvalTensor* in1 = nullptr;
  const EvalTensor* in2 = nullptr;
  EvalTensor* out = nullptr;
  size_t n = 0;
  bool broadcast = false;
  BroadcastDims dims;
  TFLM_ARENA_RETURN_IF_ERROR(
      GetBinaryTensors(context, node, kOp, &in1, &in2, &out, &n, &broadcast, &dims));
  if (n == 0) return Status::Ok();
  switch (out->type) {
    case TensorType::kFloat32:
      DivFloat(OptionsOf(node).activation, broadcast, dims, n, in1->as<const float>(),
               in2->as<const float>(), out->as<float>());
      return Status::Ok();
    case TensorType::kInt32:
      DivInt32(data, broadcast, dims, n, in1->as<const int32_t>(), in2->as<const int32_t>(),
               out->as<int32_t>());
      return Status::Ok();
    case TensorType::kInt8:
      DivInt8(data, broadcast, dims, n, in1->as<const int8_t>(), in2->as<const int8_t>(),
              out->as<int8_t>());
      return Status::Ok();
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: output type %s not supported", kOp,
                           model::TensorTypeName(out->type));
  }
}

}  // namespace

const KernelRegistration& Register_DIV() {
  static const KernelRegistration r = {
      model::kBuiltinDiv, kOp, InitOpData<DivOpData>, DivPrepare, DivInvoke, nullptr,
      MakeOptionsParser<DivOptions>(29, "DivOptions", ParseDiv)};
  return r;
}

}  // namespace runtime
}  // namespace tflm_arena
