// RELU glue: init / prepare / invoke over KernelContext (unary_glue.h; math
// in relu_math.cc). No builtin options.
#include "tflm_arena/runtime/kernels/relu.h"

#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "RELU";

// The output is rescaled; int16 needs zero points 0 (TFLM's relu.cc).
Status PrepareQuantized(const model::TensorInfo& in, const model::TensorInfo& out,
                        ReluOpData* data) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", out));
  if (in.type == model::TensorType::kInt16) {
    TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "input", in));
    TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "output", out));
  }
  return PrepareReluQuantized(in.type, TensorScale(in), TensorZeroPoint(in), TensorScale(out),
                              TensorZeroPoint(out), data);
}

constexpr SameTypeUnaryKernel<ReluOpData> kKernel = {
    kOp, model::kBuiltinRelu, PrepareQuantized, {ReluFloat, ReluInt8, ReluInt16}};

}  // namespace

const KernelRegistration& Register_RELU() {
  return SameTypeUnaryRegistration<kKernel>::kRegistration;
}

}  // namespace runtime
}  // namespace tflm_arena
