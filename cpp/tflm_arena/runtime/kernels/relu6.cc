// RELU6 glue: init / prepare / invoke over KernelContext (unary_glue.h; math
// in relu_math.cc). No builtin options.
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/relu.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"
#include "tflm_arena/runtime/kernels/unary_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

// TFLM reads only the input's quantization (the output is not rescaled).
Status PrepareQuantized(const model::TensorInfo& in, const model::TensorInfo& /*out*/,
                        Relu6OpData* data) {
  PrepareRelu6Quantized(in.type, TensorScale(in), TensorZeroPoint(in), data);
  return Status::Ok();
}

constexpr SameTypeUnaryKernel<Relu6OpData> kKernel = {
    "RELU6", model::kBuiltinRelu6, PrepareQuantized, {Relu6Float, Relu6Int8, Relu6Int16}};

}  // namespace

const KernelRegistration& Register_RELU6() {
  return SameTypeUnaryRegistration<kKernel>::kRegistration;
}

}  // namespace runtime
}  // namespace tflm_arena
