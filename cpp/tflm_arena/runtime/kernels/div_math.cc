// DIV: prepare logic and math (glue in div.cc).
#include <limits>

#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/div.h"
#include "tflm_arena/runtime/kernels/elementwise_util.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/softmax.h"  // SoftmaxOneOverOnePlusX
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "DIV";
constexpr int kMaxOutputShift = 23;  // see div.h

// TFLM's CountLeadingSignBits for int32 (0 -> 31).
inline int CountLeadingSignBits(int32_t x) { return x == 0 ? 31 : __builtin_clrsb(x); }

// TFLM's GetReciprocal(x, 31, &bits) for x >= 1: 1 / x as a Q0.31 value of
// 1 / (x / 2^bits) (gemmlowp's one_over_one_plus_x on the normalized x).
inline int32_t Reciprocal(int32_t x, int* bits_over_unit) {
  const int headroom_plus_one = __builtin_clz(static_cast<uint32_t>(x));
  *bits_over_unit = 31 - headroom_plus_one;
  const int32_t shifted_minus_one =
      static_cast<int32_t>((static_cast<uint32_t>(x) << headroom_plus_one) - (uint32_t{1} << 31));
  return SoftmaxOneOverOnePlusX(shifted_minus_one);
}

// TFLM's RoundingDivideByPOT (gemmlowp) for any exponent >= 0. Past 31 its
// shifts are undefined in C++; the wheel (x86-64) runs them as the machine
// does: the 64-bit mask (1ll << e) - 1 with the count taken mod 64,
// truncated to 32 bits, and the 32-bit arithmetic shift with the count mod
// 32. So a quotient far below one step does not round to 0 (e = 32: 0
// becomes 1). Reproduced so outputs stay identical (measured on every int8
// pair, tests_py/test_kernel_binary_elementwise.py).
int32_t RoundingDivideByPOTAsTflm(int32_t x, int exponent) {
  if (exponent <= 31) return RoundingDivideByPOT(x, exponent);
  const int32_t mask =
      static_cast<int32_t>(static_cast<uint32_t>((uint64_t{1} << (exponent & 63)) - 1));
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> (exponent & 31)) + (remainder > threshold ? 1 : 0);
}

}  // namespace

Status PrepareDiv(const DivOptions& options, const model::TensorInfo& input1,
                  const model::TensorInfo& input2, const model::TensorInfo& output,
                  DivOpData* data) {
  using model::TensorType;
  const TensorType type = output.type;
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameTypes(
      kOp, input1, input2, output,
      type == TensorType::kFloat32 || type == TensorType::kInt8 || type == TensorType::kInt32));
  DivOpData d;
  if (type == TensorType::kInt8) {
    TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input1", input1));
    TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input2", input2));
    TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", output));
    TFLM_ARENA_RETURN_IF_ERROR(QuantizedActivationRange(
        options.activation, type, TensorScale(output), TensorZeroPoint(output),
        &d.output_activation_min, &d.output_activation_max));
    // In float, then widened (as TFLM).
    const double real =
        static_cast<double>(TensorScale(input1) / (TensorScale(input2) * TensorScale(output)));
    int shift = 0;
    TFLM_ARENA_RETURN_IF_ERROR(
        CheckedQuantizeMultiplier(kOp, "output multiplier", real, &d.output_multiplier, &shift));
    if (shift > kMaxOutputShift) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: scale ratio %g too large (output shift %d > %d)", kOp, real, shift,
                           kMaxOutputShift);
    }
    d.output_shift = shift;
    d.input1_zero_point = TensorZeroPoint(input1);
    d.input2_zero_point = TensorZeroPoint(input2);
    d.output_zero_point = TensorZeroPoint(output);
  } else if (type == TensorType::kInt32) {
    if (!input1.scale.empty() || !input2.scale.empty()) {
      return Status::Error(StatusCode::kUnimplemented, "%s: quantized INT32 inputs not supported",
                           kOp);
    }
    Int32ActivationRange(options.activation, &d.output_activation_min, &d.output_activation_max);
  }
  *data = d;
  return Status::Ok();
}

namespace {

// The divisor's reciprocal and bits over unit for |b| in 1..255 (index 0
// unused): a function of the divisor's byte alone, so tabulated once per
// invoke on the stack for large tensors.
struct ReciprocalTable {
  int32_t reciprocal[256];
  int8_t bits[256];
};

template <bool kTabled>
inline int8_t DivOne(const DivOpData& d, const ReciprocalTable* table, int8_t x1, int8_t x2) {
  int32_t a = x1 - d.input1_zero_point;
  int32_t b = x2 - d.input2_zero_point;
  int32_t raw;
  if (b == 0) {
    raw = a > 0 ? d.output_activation_max : a < 0 ? d.output_activation_min : d.output_zero_point;
  } else {
    if (b < 0) {
      a = -a;
      b = -b;
    }
    int bits_over_unit = 0;
    int32_t reciprocal;
    if (kTabled) {
      reciprocal = table->reciprocal[b];
      bits_over_unit = table->bits[b];
    } else {
      reciprocal = Reciprocal(b, &bits_over_unit);
    }
    const int headroom = CountLeadingSignBits(a);
    // |a| <= 255, so a << headroom stays inside int32 (a = 0 stays 0).
    const int32_t normalized = static_cast<int32_t>(static_cast<uint32_t>(a) << headroom);
    const int32_t unscaled = SaturatingRoundingDoublingHighMul(normalized, reciprocal);
    const int total_shift = d.output_shift - bits_over_unit - headroom;  // <= 0 (prepare)
    raw = WrapAdd(d.output_zero_point, RoundingDivideByPOTAsTflm(SaturatingRoundingDoublingHighMul(
                                                                     unscaled, d.output_multiplier),
                                                                 -total_shift));
  }
  return static_cast<int8_t>(Clamp32(raw, d.output_activation_min, d.output_activation_max));
}

constexpr size_t kTableMinElements = 512;

}  // namespace

int8_t DivOneInt8(const DivOpData& d, int8_t x1, int8_t x2) {
  return DivOne<false>(d, nullptr, x1, x2);
}

void DivFloat(model::Activation activation, bool broadcast, const BroadcastDims& dims, size_t n,
              const float* in1, const float* in2, float* out) {
  float lo = 0.0f, hi = 0.0f;
  FloatActivationRange(activation, &lo, &hi);
  RunBinary(broadcast, dims, n, in1, in2, out,
            [lo, hi](float a, float b) { return ApplyActivation(a / b, lo, hi); });
}

void DivInt32(const DivOpData& data, bool broadcast, const BroadcastDims& dims, size_t n,
              const int32_t* in1, const int32_t* in2, int32_t* out) {
  const int32_t lo = data.output_activation_min, hi = data.output_activation_max;
  RunBinary(broadcast, dims, n, in1, in2, out, [lo, hi](int32_t a, int32_t b) {
    int32_t q;
    if (b == 0) {
      q = 0;
    } else if (b == -1) {
      q = WrapSub(0, a);
    } else {
      q = a / b;
    }
    return Clamp32(q, lo, hi);
  });
}

void DivInt8(const DivOpData& data, bool broadcast, const BroadcastDims& dims, size_t n,
             const int8_t* in1, const int8_t* in2, int8_t* out) {
  const DivOpData d = data;  // by value: int8 stores may alias the fields
  if (n < kTableMinElements) {
    return RunBinary(broadcast, dims, n, in1, in2, out,
                     [d](int8_t a, int8_t b) { return DivOne<false>(d, nullptr, a, b); });
  }
  ReciprocalTable table;
  table.reciprocal[0] = 0;
  table.bits[0] = 0;
  for (int b = 1; b < 256; ++b) {
    int bits = 0;
    table.reciprocal[b] = Reciprocal(b, &bits);
    table.bits[b] = static_cast<int8_t>(bits);
  }
  RunBinary(broadcast, dims, n, in1, in2, out,
            [d, &table](int8_t a, int8_t b) { return DivOne<true>(d, &table, a, b); });
}

}  // namespace runtime
}  // namespace tflm_arena
