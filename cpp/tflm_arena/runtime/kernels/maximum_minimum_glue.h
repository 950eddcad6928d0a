// MAXIMUM / MINIMUM prepare and invoke over KernelContext, shared by
// maximum.cc and minimum.cc (they differ only in the comparison).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_MAXIMUM_MINIMUM_GLUE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_MAXIMUM_MINIMUM_GLUE_H_

#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/maximum_minimum.h"

namespace tflm_arena {
namespace runtime {

// Prepare: 2 inputs, 1 output, shapes that broadcast, one supported type.
inline Status MaximumMinimumPrepare(const char* op, KernelContext& context, Node& node) {
  model::TensorInfo in1, in2, out;
  bool broadcast = false;
  TFLM_ARENA_RETURN_IF_ERROR(
      GetBinaryNodeInfo(context, node, op, false, &in1, &in2, &out, &broadcast));
  return RequireSameTypes(op, in1, in2, out, MaximumMinimumSupports(out.type));
}

inline Status MaximumMinimumInvoke(const char* op, bool maximum, KernelContext& context,
                                   Node& node) {
  const EvalTensor* in1 = nullptr;
  const EvalTensor* in2 = nullptr;
  EvalTensor* out = nullptr;
  size_t n = 0;
  bool broadcast = false;
  BroadcastDims dims;
  TFLM_ARENA_RETURN_IF_ERROR(
      GetBinaryTensors(context, node, op, &in1, &in2, &out, &n, &broadcast, &dims));
  if (!MaximumMinimumSupports(out->type) || in1->type != out->type || in2->type != out->type) {
    return NodeNotPrepared(op);
  }
  if (n == 0) return Status::Ok();
  MaximumMinimum(maximum, out->type, broadcast, dims, n, in1->data, in2->data, out->data);
  return Status::Ok();
}

// The kernel of MAXIMUM (kMaximum) or MINIMUM: no init (TFLM asks for no
// memory), no builtin options. maximum.cc and minimum.cc register it.
template <bool kMaximum>
struct MaximumMinimumKernel {
  static constexpr const char* kOp = kMaximum ? "MAXIMUM" : "MINIMUM";
  static Status Prepare(KernelContext& context, Node& node) {
    return MaximumMinimumPrepare(kOp, context, node);
  }
  static Status Invoke(KernelContext& context, Node& node) {
    return MaximumMinimumInvoke(kOp, kMaximum, context, node);
  }
  static constexpr KernelRegistration kRegistration = MakeRegistration(
      kMaximum ? model::kBuiltinMaximum : model::kBuiltinMinimum, kOp, nullptr, Prepare, Invoke);
};

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_MAXIMUM_MINIMUM_GLUE_H_
