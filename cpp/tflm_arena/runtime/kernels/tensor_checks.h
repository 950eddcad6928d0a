// Prepare-time checks every kernel shares, so that a model that passes
// prepare cannot make invoke read or write outside a tensor or hit undefined
// behaviour (a .tflite file is untrusted input). Each failure is a
// kInvalidArgument naming the operator, the tensor's role and the problem.
//
// Facts: TFLM reads a tensor as quantized only when it has scales and zero
// points; per-channel arrays have one entry per channel along
// quantized_dimension; the fixed-point helpers (quant_util.h) take a
// QuantizeMultiplier shift in [-31, 31] (TFLM itself CHECK-fails or shifts
// out of range beyond that).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_TENSOR_CHECKS_H_
#define TFLM_ARENA_RUNTIME_KERNELS_TENSOR_CHECKS_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace runtime {

// Largest shift QuantizeMultiplier may produce for our fixed-point helpers.
constexpr int kMaxMultiplierShift = 31;

// Quantization a kernel reads: at least one scale, as many zero points as
// scales, every scale finite and > 0, a per-channel quantized_dimension
// inside the shape, and every zero point within `t.type`'s range (INT8
// [-128, 127], UINT8 [0, 255], INT16 [-32768, 32767], INT32 the int32 range;
// other types: any int32).
Status CheckQuantization(const char* op, const char* role, const model::TensorInfo& t);

// Every zero point is 0 (TFLM's rule for symmetric int16 activations).
Status RequireZeroPointZero(const char* op, const char* role, const model::TensorInfo& t);

// QuantizeMultiplier(real) with the result checked: `real` finite and >= 0,
// resulting shift <= kMaxMultiplierShift (a tiny multiplier is flushed to 0
// with shift 0, as TFLM does). `what` names the multiplier in the message.
Status CheckedQuantizeMultiplier(const char* op, const char* what, double real, int32_t* multiplier,
                                 int* shift);

// The output tensor is not a constant (writing it would scribble over the
// model's bytes, which may also be shorter than the shape).
Status RequireWritableOutput(const char* op, const model::TensorInfo& output);

// Same rank and extents.
bool SameShape(Span<const int32_t> a, Span<const int32_t> b);

// "[1, 2, 3]" of a shape, truncated to fit `size` bytes (for messages).
const char* FormatShape(Span<const int32_t> shape, char* buffer, size_t size);

// Element count of a dims array without intermediate overflow: 0 when any
// extent is 0 (even if the leading product would overflow), else the
// product, saturated at INT64_MAX. Negative extents count as 0.
int64_t SafeElementCount(const int32_t* dims, size_t rank);
inline int64_t SafeElementCount(Span<const int32_t> shape) {
  return SafeElementCount(shape.data(), shape.size());
}

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_TENSOR_CHECKS_H_
