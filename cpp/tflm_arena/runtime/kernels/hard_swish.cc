// HARD_SWISH glue: init / prepare / invoke over KernelContext (unary_glue.h;
// math in hard_swish_math.cc). No builtin options.
#include "tflm_arena/runtime/kernels/hard_swish.h"

#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "HARD_SWISH";

// int8 only (TFLM has no int16 path); the output is rescaled.
Status PrepareQuantized(const model::TensorInfo& in, const model::TensorInfo& out,
                        HardSwishOpData* data) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", out));
  return PrepareHardSwishInt8(TensorScale(in), TensorZeroPoint(in), TensorScale(out),
                              TensorZeroPoint(out), data);
}

constexpr SameTypeUnaryKernel<HardSwishOpData> kKernel = {
    kOp, model::kBuiltinHardSwish, PrepareQuantized, {HardSwishFloat, HardSwishInt8, nullptr}};

}  // namespace

const KernelRegistration& Register_HARD_SWISH() {
  return SameTypeUnaryRegistration<kKernel>::kRegistration;
}

}  // namespace runtime
}  // namespace tflm_arena
