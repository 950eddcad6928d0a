// MAXIMUM glue (shared with the other of MAXIMUM / MINIMUM in
// maximum_minimum_glue.h; math in maximum_minimum_math.cc). No init (TFLM
// asks for no memory), no builtin options.
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/maximum_minimum_glue.h"
#include "tflm_arena/runtime/kernels/registrations.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "MAXIMUM";

Status MaximumPrepare(KernelContext& context, Node& node) {
  return MaximumMinimumPrepare(kOp, context, node);
}

Status MaximumInvoke(KernelContext& context, Node& node) {
  return MaximumMinimumInvoke(kOp, true, context, node);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinMaximum, kOp, nullptr, MaximumPrepare, MaximumInvoke);

}  // namespace

const KernelRegistration& Register_MAXIMUM() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
