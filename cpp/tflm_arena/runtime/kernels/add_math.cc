// ADD: prepare logic and math (glue in add.cc).
#include <limits>

#include "tflm_arena/runtime/kernels/activation.h"
#include "tflm_arena/runtime/kernels/add.h"
#include "tflm_arena/runtime/kernels/add_sub_params.h"
#include "tflm_arena/runtime/kernels/binary_glue.h"
#include "tflm_arena/runtime/kernels/conv_common.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "ADD";

// The quantized parameters copied into locals: the loops write int8 /
// int16 outputs, which may alias anything, so reading AddParams through the
// reference would reload every field for every element.
struct QuantizedAdd {
  explicit QuantizedAdd(const AddParams& p)
      : offset1(p.input1_offset),
        offset2(p.input2_offset),
        output_offset(p.output_offset),
        left_shift(p.left_shift),
        multiplier1(p.input1_multiplier),
        multiplier2(p.input2_multiplier),
        output_multiplier(p.output_multiplier),
        shift1(-p.input1_shift),
        shift2(-p.input2_shift),
        output_shift(-p.output_shift),
        act_min(p.quantized_activation_min),
        act_max(p.quantized_activation_max) {}

  // MultiplyByQuantizedMultiplier for the multipliers ADD uses: in (0, 1),
  // so the mantissa is positive (never INT32_MIN: no saturation) and the
  // shift a right shift. Then (a * b + nudge) / 2^31 with TFLite's sign-
  // dependent nudge, truncated toward zero, equals floor((a * b + 2^30) /
  // 2^31) for either sign: the same bits, without the branch.
  static int32_t Scale(int32_t x, int32_t multiplier, int right_shift) {
    const int64_t ab = static_cast<int64_t>(x) * static_cast<int64_t>(multiplier);
    const int32_t high = static_cast<int32_t>((ab + (int64_t{1} << 30)) >> 31);
    return RoundingDivideByPOT(high, right_shift);
  }
  int32_t ScaleInput1(int32_t x) const {
    return Scale((offset1 + x) * (1 << left_shift), multiplier1, shift1);
  }
  int32_t ScaleInput2(int32_t x) const {
    return Scale((offset2 + x) * (1 << left_shift), multiplier2, shift2);
  }
  // Both inputs already scaled.
  int32_t Combine(int32_t x1, int32_t x2) const {
    const int32_t raw = WrappingAdd(Scale(x1 + x2, output_multiplier, output_shift), output_offset);
    return ApplyActivation(raw, act_min, act_max);
  }
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(Combine(ScaleInput1(a), ScaleInput2(b)));
  }

  int32_t offset1, offset2, output_offset, left_shift;
  int32_t multiplier1, multiplier2, output_multiplier;
  int shift1, shift2, output_shift;
  int32_t act_min, act_max;
};

inline int32_t AddOneInt32(int32_t a, int32_t b) { return WrappingAdd(a, b); }

// The float range as values: float stores could alias AddParams' fields.
struct FloatAdd {
  explicit FloatAdd(const AddParams& p)
      : act_min(p.float_activation_min), act_max(p.float_activation_max) {}
  float operator()(float a, float b) const { return ApplyActivation(a + b, act_min, act_max); }
  float act_min, act_max;
};

// From this many int8 outputs on, tabulating both inputs' 256 scaled
// values (2 KiB on the stack, rebuilt per invoke: no arena bytes, so the
// arena figures stay TFLM's) is cheaper than scaling every element.
constexpr size_t kInt8TableMinElements = 1024;

struct Int8Tables {
  void Fill(const QuantizedAdd& add) {
    for (int v = -128; v < 128; ++v) {
      scaled1[v + 128] = add.ScaleInput1(v);
      scaled2[v + 128] = add.ScaleInput2(v);
    }
  }
  int32_t Input1(int8_t v) const { return scaled1[v + 128]; }
  int32_t Input2(int8_t v) const { return scaled2[v + 128]; }
  int32_t scaled1[256];
  int32_t scaled2[256];
};

size_t ElementCount(const BroadcastDims& d) {
  size_t total = 1;
  for (int k = 0; k < kMaxBroadcastRank; ++k) total *= static_cast<size_t>(d.output[k]);
  return total;
}

}  // namespace

Status MakeBroadcastDims(Span<const int32_t> in1, Span<const int32_t> in2, Span<const int32_t> out,
                         BroadcastDims* dims) {
  return BinaryBroadcastDims(kOp, in1, in2, out, dims, /*allow_negative_extent=*/true);
}

Status QuantizedAddParams(model::TensorType type, float scale1, int32_t zero_point1, float scale2,
                          int32_t zero_point2, float output_scale, int32_t output_zero_point,
                          AddParams* params) {
  const bool is_int16 = type == model::TensorType::kInt16;
  if (!is_int16 && type != model::TensorType::kInt8) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: %s is not a quantized add type", kOp,
                         model::TensorTypeName(type));
  }
  // TFLM assumes zero points of the tensor type (it DCHECKs the offsets).
  // ADD takes any shift <= 0 (SUB stops at -kMaxMultiplierShift).
  return AddSubQuantizedParams(kOp, is_int16, scale1, zero_point1, scale2, zero_point2,
                               output_scale, output_zero_point, std::numeric_limits<int>::min(),
                               params);
}

Status PrepareAdd(const AddOptions& options, const model::TensorInfo& input1,
                  const model::TensorInfo& input2, const model::TensorInfo& output,
                  AddParams* params) {
  using model::TensorType;
  const TensorType type = output.type;
  const bool supported = input1.type == type && input2.type == type &&
                         (type == TensorType::kFloat32 || type == TensorType::kInt8 ||
                          type == TensorType::kInt16 || type == TensorType::kInt32);
  if (!supported) {
    return Status::Error(StatusCode::kUnimplemented,
                         "%s: inputs %s, %s and output %s not supported (supported: all FLOAT32, "
                         "INT8, INT16 or INT32)",
                         kOp, model::TensorTypeName(input1.type),
                         model::TensorTypeName(input2.type), model::TensorTypeName(type));
  }
  AddParams p;
  p.requires_broadcast = !SameShape(input1.shape, input2.shape);
  if (p.requires_broadcast) {
    BroadcastDims unused;
    TFLM_ARENA_RETURN_IF_ERROR(
        MakeBroadcastDims(input1.shape, input2.shape, output.shape, &unused));
  } else if (!SameShape(output.shape, input1.shape)) {
    char out_text[64], in_text[64];
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output '%s' shape %s differs from the inputs' %s", kOp, output.name,
                         FormatShape(output.shape, out_text, sizeof(out_text)),
                         FormatShape(input1.shape, in_text, sizeof(in_text)));
  }
  switch (type) {
    case TensorType::kInt8:
    case TensorType::kInt16:
      TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input1", input1));
      TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input2", input2));
      TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", output));
      TFLM_ARENA_RETURN_IF_ERROR(QuantizedAddParams(
          type, TensorScale(input1), TensorZeroPoint(input1), TensorScale(input2),
          TensorZeroPoint(input2), TensorScale(output), TensorZeroPoint(output), &p));
      TFLM_ARENA_RETURN_IF_ERROR(QuantizedActivationRange(
          options.activation, type, TensorScale(output), TensorZeroPoint(output),
          &p.quantized_activation_min, &p.quantized_activation_max));
      break;
    case TensorType::kInt32:
      // TFLM only adds unquantized int32 tensors.
      if (!input1.scale.empty() || !input2.scale.empty()) {
        return Status::Error(StatusCode::kUnimplemented, "%s: quantized INT32 inputs not supported",
                             kOp);
      }
      break;
    default:
      FloatActivationRange(options.activation, &p.float_activation_min, &p.float_activation_max);
      break;
  }
  *params = p;
  return Status::Ok();
}

void AddInt8(const AddParams& params, size_t size, const int8_t* input1, const int8_t* input2,
             int8_t* output) {
  const QuantizedAdd add(params);
  if (size < kInt8TableMinElements) {
    for (size_t i = 0; i < size; ++i) output[i] = add(input1[i], input2[i]);
    return;
  }
  // Each input's scaled value depends on its 256 possible bytes only.
  Int8Tables tables;
  tables.Fill(add);
  for (size_t i = 0; i < size; ++i) {
    output[i] =
        static_cast<int8_t>(add.Combine(tables.Input1(input1[i]), tables.Input2(input2[i])));
  }
}

void AddInt16(const AddParams& params, size_t size, const int16_t* input1, const int16_t* input2,
              int16_t* output) {
  const QuantizedAdd add(params);
  for (size_t i = 0; i < size; ++i) output[i] = add(input1[i], input2[i]);
}

void AddInt32(size_t size, const int32_t* input1, const int32_t* input2, int32_t* output) {
  for (size_t i = 0; i < size; ++i) output[i] = AddOneInt32(input1[i], input2[i]);
}

void AddFloat(const AddParams& params, size_t size, const float* input1, const float* input2,
              float* output) {
  const FloatAdd add(params);
  for (size_t i = 0; i < size; ++i) output[i] = add(input1[i], input2[i]);
}

void BroadcastAddInt8(const AddParams& params, const BroadcastDims& dims, const int8_t* input1,
                      const int8_t* input2, int8_t* output) {
  const QuantizedAdd add(params);
  if (ElementCount(dims) < kInt8TableMinElements) {
    BroadcastBinary(dims, input1, input2, output, add);
    return;
  }
  Int8Tables tables;
  tables.Fill(add);
  BroadcastBinary(dims, input1, input2, output, [&add, &tables](int8_t a, int8_t b) {
    return static_cast<int8_t>(add.Combine(tables.Input1(a), tables.Input2(b)));
  });
}

void BroadcastAddInt16(const AddParams& params, const BroadcastDims& dims, const int16_t* input1,
                       const int16_t* input2, int16_t* output) {
  BroadcastBinary(dims, input1, input2, output, QuantizedAdd(params));
}

void BroadcastAddInt32(const BroadcastDims& dims, const int32_t* input1, const int32_t* input2,
                       int32_t* output) {
  BroadcastBinary(dims, input1, input2, output, AddOneInt32);
}

void BroadcastAddFloat(const AddParams& params, const BroadcastDims& dims, const float* input1,
                       const float* input2, float* output) {
  BroadcastBinary(dims, input1, input2, output, FloatAdd(params));
}

}  // namespace runtime
}  // namespace tflm_arena
