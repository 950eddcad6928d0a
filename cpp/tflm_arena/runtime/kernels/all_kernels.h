// The table of every kernel we ship, and a helper that fills a resolver with
// exactly the kernels one model needs (the generated-resolver idea of TFLM's
// gen_micro_mutable_op_resolver, done at run time).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_ALL_KERNELS_H_
#define TFLM_ARENA_RUNTIME_KERNELS_ALL_KERNELS_H_

#include <cstddef>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_list.h"
#include "tflm_arena/runtime/op_resolver.h"

namespace tflm_arena {
namespace runtime {

// Expands to a term of the sum `0 +1 +1 ...`; parentheses would make it a call.
#define TFLM_ARENA_COUNT_KERNEL(NAME) +1  // NOLINT(bugprone-macro-parentheses)
constexpr size_t kNumShippedKernels = 0 TFLM_ARENA_SHIPPED_KERNELS(TFLM_ARENA_COUNT_KERNEL);
constexpr size_t kNumShippedCustomKernels =
    0 TFLM_ARENA_SHIPPED_CUSTOM_KERNELS(TFLM_ARENA_COUNT_KERNEL);
#undef TFLM_ARENA_COUNT_KERNEL
// A resolver with room for every shipped kernel, builtin and custom.
constexpr size_t kNumAllShippedKernels = kNumShippedKernels + kNumShippedCustomKernels;

// The shipped kernel for a builtin code, or nullptr.
const KernelRegistration* FindShippedKernel(model::BuiltinCode code);

// The shipped kernel of custom operator `custom_code`, or nullptr.
const KernelRegistration* FindShippedCustomKernel(const char* custom_code);

// Adds to `resolver` the shipped kernel of every distinct operator (builtin
// or custom) in the model (all subgraphs), once each. Fails (kUnimplemented) naming every
// operator type we have no kernel for (CheckKernelsFor).
Status AddKernelsForModel(const model::Model& model, OpResolver* resolver);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_ALL_KERNELS_H_
