// SUB: prepare logic and math (glue in sub.cc).
#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/add_sub_params.h"
#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/elementwise_util.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/sub.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "SUB";

// Parameters held by value: int8 stores may alias anything, so fields read
// through a reference would be reloaded after every store.
template <typename T>
struct SubQuantized {
  SubOpData p;
  int32_t Scale1(int32_t a) const {
    return ScaleShiftedInput(p.input1_offset + a, p.left_shift, p.input1_multiplier,
                             p.input1_shift);
  }
  int32_t Scale2(int32_t b) const {
    return ScaleShiftedInput(p.input2_offset + b, p.left_shift, p.input2_multiplier,
                             p.input2_shift);
  }
  T Finish(int32_t x1, int32_t x2) const {
    const int32_t raw =
        WrapAdd(MultiplyByQuantizedMultiplier(WrapSub(x1, x2), p.output_multiplier, p.output_shift),
                p.output_offset);
    return static_cast<T>(Clamp32(raw, p.output_activation_min, p.output_activation_max));
  }
  T operator()(T a, T b) const { return Finish(Scale1(a), Scale2(b)); }
};

// int8 with many elements: each input's rescaled value depends on its byte
// alone, so both are tabulated once per invoke (2 x 256 int32 on the stack;
// same values, a third of the multiplies).
struct SubInt8Tabled {
  const int32_t* t1;
  const int32_t* t2;
  SubQuantized<int8_t> q;
  int8_t operator()(int8_t a, int8_t b) const {
    return q.Finish(t1[static_cast<uint8_t>(a)], t2[static_cast<uint8_t>(b)]);
  }
};
constexpr size_t kTableMinElements = 512;

}  // namespace

int32_t ScaleShiftedInput(int32_t v, int32_t left_shift, int32_t multiplier, int32_t shift) {
  // SRDHM(v * 2^L, m) = floor((v * m + 2^(30 - L)) / 2^(31 - L)) exactly
  // (the nudge's round-half-away on the doubled product, with the 2^L
  // factored out; m > 0 so it never saturates); then the rounding right
  // shift. Same bits as MultiplyByQuantizedMultiplier(v << L, m, shift)
  // for shift <= 0, without the 64-bit division.
  const int64_t product = static_cast<int64_t>(v) * multiplier;
  const int32_t high =
      static_cast<int32_t>((product + (int64_t{1} << (30 - left_shift))) >> (31 - left_shift));
  return RoundingDivideByPOT(high, -shift);
}

Status QuantizedSubParams(model::TensorType type, float scale1, int32_t zero_point1, float scale2,
                          int32_t zero_point2, float output_scale, int32_t output_zero_point,
                          SubOpData* data) {
  return AddSubQuantizedParams(kOp, type == model::TensorType::kInt16, scale1, zero_point1, scale2,
                               zero_point2, output_scale, output_zero_point, -kMaxMultiplierShift,
                               data);
}

Status PrepareSub(const SubOptions& options, const model::TensorInfo& input1,
                  const model::TensorInfo& input2, const model::TensorInfo& output,
                  SubOpData* data) {
  using model::TensorType;
  const TensorType type = output.type;
  TFLM_ARENA_RETURN_IF_ERROR(
      RequireSameTypes(kOp, input1, input2, output,
                       type == TensorType::kFloat32 || type == TensorType::kInt8 ||
                           type == TensorType::kInt16 || type == TensorType::kInt32));
  SubOpData d;
  d.requires_broadcast = !SameShape(input1.shape, input2.shape);
  switch (type) {
    case TensorType::kInt8:
    case TensorType::kInt16:
      TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input1", input1));
      TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input2", input2));
      TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", output));
      TFLM_ARENA_RETURN_IF_ERROR(QuantizedSubParams(
          type, TensorScale(input1), TensorZeroPoint(input1), TensorScale(input2),
          TensorZeroPoint(input2), TensorScale(output), TensorZeroPoint(output), &d));
      TFLM_ARENA_RETURN_IF_ERROR(QuantizedActivationRange(
          options.activation, type, TensorScale(output), TensorZeroPoint(output),
          &d.output_activation_min, &d.output_activation_max));
      break;
    case TensorType::kInt32:
      TFLM_ARENA_RETURN_IF_ERROR(PrepareUnquantizedInt32(kOp, options.activation, input1, input2,
                                                         output, &d.output_activation_min,
                                                         &d.output_activation_max));
      break;
    default:
      break;
  }
  *data = d;
  return Status::Ok();
}

void SubFloat(model::Activation activation, bool broadcast, const BroadcastDims& dims, size_t n,
              const float* in1, const float* in2, float* out) {
  float lo = 0.0f, hi = 0.0f;
  FloatActivationRange(activation, &lo, &hi);
  RunBinary(broadcast, dims, n, in1, in2, out,
            [lo, hi](float a, float b) { return ApplyActivation(a - b, lo, hi); });
}

void SubInt32(const SubOpData& data, bool broadcast, const BroadcastDims& dims, size_t n,
              const int32_t* in1, const int32_t* in2, int32_t* out) {
  const int32_t lo = data.output_activation_min, hi = data.output_activation_max;
  RunBinary(broadcast, dims, n, in1, in2, out,
            [lo, hi](int32_t a, int32_t b) { return Clamp32(WrapSub(a, b), lo, hi); });
}

void SubInt8(const SubOpData& data, bool broadcast, const BroadcastDims& dims, size_t n,
             const int8_t* in1, const int8_t* in2, int8_t* out) {
  const SubQuantized<int8_t> q{data};
  if (n < kTableMinElements) return RunBinary(broadcast, dims, n, in1, in2, out, q);
  int32_t t1[256], t2[256];
  for (int v = -128; v < 128; ++v) {
    t1[static_cast<uint8_t>(v)] = q.Scale1(v);
    t2[static_cast<uint8_t>(v)] = q.Scale2(v);
  }
  RunBinary(broadcast, dims, n, in1, in2, out, SubInt8Tabled{t1, t2, q});
}

void SubInt16(const SubOpData& data, bool broadcast, const BroadcastDims& dims, size_t n,
              const int16_t* in1, const int16_t* in2, int16_t* out) {
  RunBinary(broadcast, dims, n, in1, in2, out, SubQuantized<int16_t>{data});
}

}  // namespace runtime
}  // namespace tflm_arena
