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
Status ParseSub(model::OptionsTable& table, void* out) {
  SubOptions o;
  o.activation = static_cast<model::Activation>(table.UInt8(0, 0));
  o.pot_scale_int16 = table.UInt8(1, 1) != 0;
  new (out) SubOptions(o);
  return Status::Ok();
}

// Absent options read as the format's defaults (TFLM zero-fills them).
SubOptions OptionsOf(const Node& node) {
  return node.builtin_data != nullptr ? node.options<SubOptions>() : SubOptions();
}

Status SubPrepare(KernelContext& context, Node& node) {
  model::TensorInfo in1, in2, out;
  bool broadcast = false;
  TFLM_ARENA_RETURN_IF_ERROR(
      GetBinaryNodeInfo(context, node, kOp, true, &in1, &in2, &out, &broadcast));
  return PrepareSub(OptionsOf(node), in1, in2, out, static_cast<SubOpData*>(node.user_data));
}

Status SubInvoke(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  const auto& data = *static_cast<const SubOpData*>(node.user_data);
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
      SubFloat(OptionsOf(node).activation, broadcast, dims, n, in1->as<const float>(),
               in2->as<const float>(), out->as<float>());
      return Status::Ok();
    case TensorType::kInt32:
      SubInt32(data, broadcast, dims, n, in1->as<const int32_t>(), in2->as<const int32_t>(),
               out->as<int32_t>());
      return Status::Ok();
    case TensorType::kInt8:
      SubInt8(data, broadcast, dims, n, in1->as<const int8_t>(), in2->as<const int8_t>(),
              out->as<int8_t>());
      return Status::Ok();
    case TensorType::kInt16:
      SubInt16(data, broadcast, dims, n, in1->as<const int16_t>(), in2->as<const int16_t>(),
               out->as<int16_t>());
      return Status::Ok();
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: output type %s not supported", kOp,
                           model::TensorTypeName(out->type));
  }
}

}  // namespace

const KernelRegistration& Register_SUB() {
  static const KernelRegistration r = {
      model::kBuiltinSub, kOp, InitOpData<SubOpData>, SubPrepare, SubInvoke, nullptr,
      MakeOptionsParser<SubOptions>(28, "SubOptions", ParseSub)};
  return r;
}

}  // namespace runtime
}  // namespace tflm_arena
