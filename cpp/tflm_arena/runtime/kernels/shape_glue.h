// Prepare / invoke glue shared by the data-movement kernels (STRIDED_SLICE,
// PAD, CONCATENATION, TRANSPOSE, SQUEEZE, EXPAND_DIMS, PACK, UNPACK, SPLIT,
// GATHER, MEAN): node arity, constant int32 index tensors (begin / end /
// paddings / perm / axis, which TFLM reads from the flatbuffer in prepare),
// and the element types each kernel accepts. These kernels move elements
// without arithmetic, so they work on bytes of ElementByteSize(type).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SHAPE_GLUE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SHAPE_GLUE_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/reshape.h"  // ReshapeCopy
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {

// Largest rank the reference kernels of these operators handle (TFLM
// extends shapes to at most 5 dimensions; several ask for <= 4).
constexpr int kShapeOpMaxRank = 6;

// Input count in [min_inputs, max_inputs], exactly `outputs` outputs, the
// first `required` inputs present (not -1).
inline Status CheckArity(const Node& node, const char* op, size_t min_inputs, size_t max_inputs,
                         size_t outputs, size_t required) {
  if (node.inputs.size() < min_inputs || node.inputs.size() > max_inputs) {
    if (min_inputs == max_inputs) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: needs %zu inputs, got %zu", op,
                           min_inputs, node.inputs.size());
    }
    return Status::Error(StatusCode::kInvalidArgument, "%s: needs %zu to %zu inputs, got %zu", op,
                         min_inputs, max_inputs, node.inputs.size());
  }
  if (node.outputs.size() != outputs) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: needs %zu outputs, got %zu", op,
                         outputs, node.outputs.size());
  }
  for (size_t i = 0; i < required && i < node.inputs.size(); ++i) {
    if (node.inputs[i] < 0) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: input %zu is omitted but required",
                           op, i);
    }
  }
  for (size_t i = 0; i < node.outputs.size(); ++i) {
    if (node.outputs[i] < 0) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: output %zu is omitted", op, i);
    }
  }
  return Status::Ok();
}

// A constant int32 input (TFLM reads it with GetTensorData<int32_t> in
// prepare and rejects non-constant ones): its data and element count.
inline Status ConstInt32Input(const KernelContext& context, const Node& node, size_t i,
                              const char* op, const char* role, const int32_t** data,
                              size_t* count) {
  model::TensorInfo info;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, i, &info));
  if (info.type != model::TensorType::kInt32) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: %s tensor is %s, needs INT32", op, role,
                         model::TensorTypeName(info.type));
  }
  const EvalTensor* t = context.input(node, i);
  if (!info.has_constant_data || t == nullptr || (info.num_elements > 0 && t->data == nullptr)) {
    return Status::Error(StatusCode::kUnimplemented, "%s: non-constant %s tensor is not supported",
                         op, role);
  }
  *data = t->as<const int32_t>();
  *count = static_cast<size_t>(info.num_elements);
  return Status::Ok();
}

// `type` is one of `allowed` (count entries); kUnimplemented otherwise.
inline Status RequireType(const char* op, const char* role, model::TensorType type,
                          const model::TensorType* allowed, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (allowed[i] == type) return Status::Ok();
  }
  return Status::Error(StatusCode::kUnimplemented, "%s: %s type %s not supported", op, role,
                       model::TensorTypeName(type));
}

// Same element type for two tensors.
inline Status RequireSameType(const char* op, const char* role_a, const model::TensorInfo& a,
                              const char* role_b, const model::TensorInfo& b) {
  if (a.type != b.type) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: %s is %s but %s is %s", op, role_a,
                         model::TensorTypeName(a.type), role_b, model::TensorTypeName(b.type));
  }
  return Status::Ok();
}

// Rank at most `max_rank`.
inline Status RequireMaxRank(const char* op, const char* role, const model::TensorInfo& t,
                             size_t max_rank) {
  if (t.shape.size() > max_rank) {
    return Status::Error(StatusCode::kUnimplemented, "%s: %s has rank %zu, at most %zu supported",
                         op, role, t.shape.size(), max_rank);
  }
  return Status::Ok();
}

// Invoke: a tensor with elements has memory (NodeNotPrepared otherwise).
inline Status RequireData(const char* op, const EvalTensor* t) {
  if (t == nullptr) return NodeNotPrepared(op);
  if (t->data == nullptr && t->num_elements() > 0) return NodeNotPrepared(op);
  return Status::Ok();
}

// Invoke of SQUEEZE / EXPAND_DIMS: the input's bytes into the output (prepare
// made the element counts and types equal; NodeNotPrepared naming `op` when
// they are not, or a tensor has no data).
inline Status InvokeCopyReshaped(const KernelContext& context, const Node& node, const char* op) {
  const EvalTensor* in = context.input(node, 0);
  EvalTensor* out = context.output(node, 0);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(op, in));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(op, out));
  const int64_t n = in->num_elements();
  if (n != out->num_elements() || in->type != out->type) return NodeNotPrepared(op);
  ReshapeCopy(in->data, out->data, static_cast<size_t>(n) * model::ElementByteSize(in->type));
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SHAPE_GLUE_H_
