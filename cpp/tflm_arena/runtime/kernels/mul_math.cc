// MUL: prepare logic and math (glue in mul.cc).
#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/elementwise_util.h"
#include "tflm_arena/runtime/kernels/mul.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "MUL";

template <typename T>
struct MulQuantized {
  int32_t zp1, zp2, zp_out, multiplier, shift, lo, hi;
  T operator()(T a, T b) const {
    // |a - zp| <= 65535 for int16 with zp 0 (32768), 255 for int8: the
    // product fits int32.
    const int32_t product = (a - zp1) * (b - zp2);
    const int32_t raw = WrapAdd(zp_out, MultiplyByQuantizedMultiplier(product, multiplier, shift));
    return static_cast<T>(Clamp32(raw, lo, hi));
  }
};

template <typename T>
MulQuantized<T> QuantizedOp(const MulOpData& d) {
  return MulQuantized<T>{d.input1_zero_point,    d.input2_zero_point, d.output_zero_point,
                         d.output_multiplier,    d.output_shift,      d.output_activation_min,
                         d.output_activation_max};
}

}  // namespace

Status PrepareMul(const MulOptions& options, const model::TensorInfo& input1,
                  const model::TensorInfo& input2, const model::TensorInfo& output,
                  MulOpData* data) {
  using model::TensorType;
  const TensorType type = output.type;
  TFLM_ARENA_RETURN_IF_ERROR(
      RequireSameTypes(kOp, input1, input2, output,
                       type == TensorType::kFloat32 || type == TensorType::kInt8 ||
                           type == TensorType::kInt16 || type == TensorType::kInt32));
  MulOpData d;
  switch (type) {
    case TensorType::kInt8:
    case TensorType::kInt16: {
      TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input1", input1));
      TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input2", input2));
      TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", output));
      if (type == TensorType::kInt16) {
        TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "input1", input1));
        TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "input2", input2));
        TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "output", output));
      }
      TFLM_ARENA_RETURN_IF_ERROR(QuantizedActivationRange(
          options.activation, type, TensorScale(output), TensorZeroPoint(output),
          &d.output_activation_min, &d.output_activation_max));
      const double real = static_cast<double>(TensorScale(input1)) *
                          static_cast<double>(TensorScale(input2)) /
                          static_cast<double>(TensorScale(output));
      int shift = 0;
      TFLM_ARENA_RETURN_IF_ERROR(
          CheckedQuantizeMultiplier(kOp, "output multiplier", real, &d.output_multiplier, &shift));
      d.output_shift = shift;
      d.input1_zero_point = TensorZeroPoint(input1);
      d.input2_zero_point = TensorZeroPoint(input2);
      d.output_zero_point = TensorZeroPoint(output);
      break;
    }
    case TensorType::kInt32:
      TFLM_ARENA_RETURN_IF_ERROR(PrepareUnquantizedInt32(kOp, options.activation, input1, input2,
                                                         output, &d.output_activation_min,
                                                         &d.output_activation_max));
      break;
    default:
      FloatActivationRange(options.activation, &d.output_activation_min_f32,
                           &d.output_activation_max_f32);
      break;
  }
  *data = d;
  return Status::Ok();
}

void MulFloat(const MulOpData& data, bool broadcast, const BroadcastDims& dims, size_t n,
              const float* in1, const float* in2, float* out) {
  const float lo = data.output_activation_min_f32, hi = data.output_activation_max_f32;
  RunBinary(broadcast, dims, n, in1, in2, out,
            [lo, hi](float a, float b) { return ApplyActivation(a * b, lo, hi); });
}

void MulInt32(const MulOpData& data, bool broadcast, const BroadcastDims& dims, size_t n,
              const int32_t* in1, const int32_t* in2, int32_t* out) {
  const int32_t lo = data.output_activation_min, hi = data.output_activation_max;
  RunBinary(broadcast, dims, n, in1, in2, out,
            [lo, hi](int32_t a, int32_t b) { return Clamp32(WrapMul(a, b), lo, hi); });
}

void MulInt8(const MulOpData& data, bool broadcast, const BroadcastDims& dims, size_t n,
             const int8_t* in1, const int8_t* in2, int8_t* out) {
  RunBinary(broadcast, dims, n, in1, in2, out, QuantizedOp<int8_t>(data));
}

void MulInt16(const MulOpData& data, bool broadcast, const BroadcastDims& dims, size_t n,
              const int16_t* in1, const int16_t* in2, int16_t* out) {
  RunBinary(broadcast, dims, n, in1, in2, out, QuantizedOp<int16_t>(data));
}

}  // namespace runtime
}  // namespace tflm_arena
