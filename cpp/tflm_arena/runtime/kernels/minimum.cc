// MINIMUM glue (shared with the other of MAXIMUM / MINIMUM in
// maximum_minimum_glue.h; math in maximum_minimum_math.cc). No init (TFLM
// asks for no memory), no builtin options.
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/maximum_minimum_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "MINIMUM";

Status MinimumPrepare(KernelContext& context, Node& node) {
  return MaximumMinimumPrepare(kOp, context, node);
}

Status MinimumInvoke(KernelContext& context, Node& node) {
  return MaximumMinimumInvoke(kOp, false, context, node);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinMinimum, kOp, nullptr, MinimumPrepare, MinimumInvoke);

}  // namespace

const KernelRegistration& Register_MINIMUM() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
