#include "tflm_arena/runtime/kernels/all_kernels.h"

#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {

namespace {
using RegisterFn = const KernelRegistration& (*)();
constexpr RegisterFn kShipped[kNumShippedKernels] = {
    &Register_FULLY_CONNECTED, &Register_CONV_2D,         &Register_DEPTHWISE_CONV_2D,
    &Register_ADD,             &Register_AVERAGE_POOL_2D, &Register_MAX_POOL_2D,
    &Register_SOFTMAX,         &Register_RESHAPE,         &Register_QUANTIZE,
    &Register_DEQUANTIZE,
};
}  // namespace

const KernelRegistration* FindShippedKernel(model::BuiltinCode code) {
  for (RegisterFn fn : kShipped) {
    const KernelRegistration& r = fn();
    if (r.builtin_code == code) return &r;
  }
  return nullptr;
}

Status AddKernelsForModel(const model::Model& model, OpResolver* resolver) {
  for (size_t s = 0; s < model.num_subgraphs(); ++s) {
    for (size_t i = 0; i < model.num_operators(s); ++i) {
      model::OperatorInfo op;
      TFLM_ARENA_RETURN_IF_ERROR(model.op(s, i, &op));
      if (resolver->FindBuiltin(op.builtin_code) != nullptr) continue;
      const KernelRegistration* kernel = FindShippedKernel(op.builtin_code);
      if (kernel == nullptr) {
        const char* name = model::BuiltinCodeName(op.builtin_code);
        if (op.builtin_code == model::kBuiltinCustom) {
          return Status::Error(StatusCode::kUnimplemented,
                               "operator %zu (subgraph %zu): custom operator '%s' is not supported",
                               i, s, op.custom_code);
        }
        return Status::Error(StatusCode::kUnimplemented,
                             "operator %zu (%s, subgraph %zu): tflm_arena has no kernel for %s yet",
                             i, name != nullptr ? name : "unknown builtin", s,
                             name != nullptr ? name : "this operator");
      }
      TFLM_ARENA_RETURN_IF_ERROR(resolver->AddBuiltin(*kernel));
    }
  }
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena
