// PAD / PADV2 glue: init / prepare / invoke over KernelContext (math in
// pad_math.cc). One kernel serves both operators, as in TFLM.
#include "tflm_arena/runtime/kernels/pad.h"

#include <cstring>
#include <limits>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kInt8, TensorType::kInt16,
                                 TensorType::kInt32};

const char* OpName(const Node& node) {
  return node.registration != nullptr ? node.registration->name : "PAD";
}

Status PadPrepare(KernelContext& context, Node& node) {
  const char* op = OpName(node);
  if (node.user_data == nullptr) return NodeNotPrepared(op);
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, op, 2, 3, 1, node.inputs.size()));
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(op, out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireType(op, "input", in.type, kTypes, 4));
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(op, "input", in, "output", out));
  auto* data = static_cast<PadOpData*>(node.user_data);
  if (node.inputs.size() == 3) {
    model::TensorInfo value;
    TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 2, &value));
    TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(op, "input", in, "constant_values", value));
    if (value.num_elements != 1) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: constant_values has %llu elements, needs 1", op,
                           static_cast<unsigned long long>(value.num_elements));
    }
    if (in.type == TensorType::kInt8 &&
        (TensorZeroPoint(value) != TensorZeroPoint(out) ||
         static_cast<double>(TensorScale(value)) != static_cast<double>(TensorScale(out)))) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: constant_values must have the output's scale and zero point", op);
    }
  } else if (in.type == TensorType::kInt8) {
    const int32_t zp = TensorZeroPoint(out);
    if (zp < std::numeric_limits<int8_t>::min() || zp > std::numeric_limits<int8_t>::max()) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: output zero point %d is outside INT8",
                           op, zp);
    }
  }
  data->output_zero_point = in.type == TensorType::kInt8 ? TensorZeroPoint(out) : 0;
  const int32_t* paddings = nullptr;
  size_t count = 0;
  TFLM_ARENA_RETURN_IF_ERROR(ConstInt32Input(context, node, 1, op, "paddings", &paddings, &count));
  return PreparePad(op, in.shape.data(), static_cast<int>(in.shape.size()), out.shape.data(),
                    static_cast<int>(out.shape.size()), paddings, count, data);
}

Status PadInvoke(KernelContext& context, Node& node) {
  const char* op = OpName(node);
  const EvalTensor* in = context.input(node, 0);
  EvalTensor* out = context.output(node, 0);
  const EvalTensor* value = node.inputs.size() == 3 ? context.input(node, 2) : nullptr;
  if (node.user_data == nullptr) return NodeNotPrepared(op);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(op, in));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(op, out));
  const auto& data = *static_cast<const PadOpData*>(node.user_data);
  if (data.left_padding_count != in->rank) return NodeNotPrepared(op);
  if (value != nullptr && value->data == nullptr) return NodeNotPrepared(op);
  uint32_t pad = 0;  // float 0.0f, integer 0
  if (value != nullptr) {
    // One element of the input's type; the buffer is at least that long.
    std::memcpy(&pad, value->data, model::ElementByteSize(in->type));
  } else if (in->type == TensorType::kInt8) {
    const int8_t zp = static_cast<int8_t>(data.output_zero_point);
    pad = static_cast<uint8_t>(zp);
  }
  PadCopy(data, in->dims, in->rank, model::ElementByteSize(in->type), in->data, &pad, out->data);
  return Status::Ok();
}

constexpr KernelRegistration kPadRegistration =
    MakeRegistration(model::kBuiltinPad, "PAD", InitOpData<PadOpData>, PadPrepare, PadInvoke);

constexpr KernelRegistration kPadV2Registration =
    MakeRegistration(model::kBuiltinPadv2, "PADV2", InitOpData<PadOpData>, PadPrepare, PadInvoke);

}  // namespace

const KernelRegistration& Register_PAD() { return kPadRegistration; }

const KernelRegistration& Register_PADV2() { return kPadV2Registration; }

}  // namespace runtime
}  // namespace tflm_arena
