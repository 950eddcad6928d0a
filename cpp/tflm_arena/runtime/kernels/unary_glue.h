// KernelContext glue shared by the one-input, one-output kernels (QUANTIZE,
// DEQUANTIZE, SOFTMAX, LEAKY_RELU): the prepare preamble and the invoke-time
// tensor lookup.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_UNARY_GLUE_H_
#define TFLM_ARENA_RUNTIME_KERNELS_UNARY_GLUE_H_

#include <cstddef>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {

// Prepare preamble: OpData allocated (NodeNotPrepared),
// exactly 1 input and 1 output (kInvalidArgument), then their facts.
inline Status GetUnaryNodeInfo(const KernelContext& context, const Node& node, const char* op,
                               model::TensorInfo* in, model::TensorInfo* out) {
  if (node.user_data == nullptr) {
    return NodeNotPrepared(op);
  }
  if (node.inputs.size() != 1 || node.outputs.size() != 1) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: needs exactly 1 input and 1 output, got %zu and %zu", op,
                         node.inputs.size(), node.outputs.size());
  }
  if (node.inputs[0] < 0) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: input 0 is omitted but required",
                         op);
  }
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, in));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, out));
  return RequireWritableOutput(op, *out);
}

// Prepare: input and output hold the same number of elements (elementwise
// kernels write input-many elements into the output).
inline Status RequireSameElementCount(const char* op, const model::TensorInfo& in,
                                      const model::TensorInfo& out) {
  if (in.num_elements != out.num_elements) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input has %llu elements but output has %llu", op,
                         static_cast<unsigned long long>(in.num_elements),
                         static_cast<unsigned long long>(out.num_elements));
  }
  return Status::Ok();
}

// Invoke preamble: input 0 and output 0 with data, and the OpData —
// NodeNotPrepared otherwise; `*count` gets the element count, which prepare
// made equal for both (re-checked here: it costs nothing and keeps invoke
// from trusting anything prepare did not see).
inline Status GetUnaryTensors(const KernelContext& context, const Node& node, const char* op,
                              EvalTensor** in, EvalTensor** out, size_t* count) {
  *in = context.input(node, 0);
  *out = context.output(node, 0);
  if (*in == nullptr || *out == nullptr || node.user_data == nullptr) return NodeNotPrepared(op);
  const int64_t n = SafeElementCount((*in)->dims, static_cast<size_t>((*in)->rank));
  if (n != SafeElementCount((*out)->dims, static_cast<size_t>((*out)->rank))) {
    return NodeNotPrepared(op);
  }
  if (n > 0 && ((*in)->data == nullptr || (*out)->data == nullptr)) return NodeNotPrepared(op);
  *count = static_cast<size_t>(n);
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_UNARY_GLUE_H_
