#include "tflm_arena/runtime/kernels/all_kernels.h"

#include "tflm_arena/core/c_string.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {

namespace {
using RegisterFn = const KernelRegistration& (*)();
#define TFLM_ARENA_KERNEL_ENTRY(NAME) &Register_##NAME,
constexpr RegisterFn kShipped[kNumShippedKernels] = {
    TFLM_ARENA_SHIPPED_KERNELS(TFLM_ARENA_KERNEL_ENTRY)};
constexpr RegisterFn kShippedCustom[kNumShippedCustomKernels] = {
    TFLM_ARENA_SHIPPED_CUSTOM_KERNELS(TFLM_ARENA_KERNEL_ENTRY)};
#undef TFLM_ARENA_KERNEL_ENTRY
}  // namespace

const KernelRegistration* FindShippedKernel(model::BuiltinCode code) {
  for (RegisterFn fn : kShipped) {
    const KernelRegistration& r = fn();
    if (r.builtin_code == code) return &r;
  }
  return nullptr;
}

const KernelRegistration* FindShippedCustomKernel(const char* custom_code) {
  for (RegisterFn fn : kShippedCustom) {
    const KernelRegistration& r = fn();
    if (SameCString(r.name, custom_code)) return &r;
  }
  return nullptr;
}

Status AddKernelsForModel(const model::Model& model, OpResolver* resolver) {
  for (size_t s = 0; s < model.num_subgraphs(); ++s) {
    for (size_t i = 0; i < model.num_operators(s); ++i) {
      model::OperatorInfo op;
      TFLM_ARENA_RETURN_IF_ERROR(model.op(s, i, &op));
      if (resolver->Find(op) != nullptr) continue;
      if (op.builtin_code == model::kBuiltinCustom) {
        const KernelRegistration* kernel = FindShippedCustomKernel(op.custom_code);
        if (kernel != nullptr) TFLM_ARENA_RETURN_IF_ERROR(resolver->AddCustom(*kernel));
      } else {
        const KernelRegistration* kernel = FindShippedKernel(op.builtin_code);
        if (kernel != nullptr) TFLM_ARENA_RETURN_IF_ERROR(resolver->AddBuiltin(*kernel));
      }
    }
  }
  // Every operator tflm_arena cannot run, named at once.
  return CheckResolverHasKernels(model, *resolver);
}

}  // namespace runtime
}  // namespace tflm_arena
