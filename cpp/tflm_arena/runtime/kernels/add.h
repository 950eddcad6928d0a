// ADD: float32, int8 and int16 (per-tensor quantized) and int32 (not
// quantized), same shapes or numpy-style broadcasting up to rank 6, with a
// fused activation — as TFLM's reference kernels (Add / BroadcastAdd6DSlow).
//
// int8 / int16 arithmetic (facts from TFLM's CalculateOpDataAdd and
// AddElementwise; TFLM runs int16 through this general path, never the
// power-of-two one):
//   left_shift = 20 for int8, 15 for int16
//   twice_max = 2 * double(max(scale1, scale2))          (max taken in float)
//   M1 = double(scale1) / twice_max, M2 = double(scale2) / twice_max,
//   Mout = twice_max / (2^20 * double(out_scale)), each split by
//   QuantizeMultiplier and required to lie in (0, 1) (TFLM aborts otherwise;
//   we return kInvalidArgument)
//   per element: a = (x1 - zp1) << left_shift, b likewise,
//   a' = MultiplyByQuantizedMultiplier(a, M1), b' likewise,
//   out = MultiplyByQuantizedMultiplier(a' + b', Mout) + out_zp, clamped.
// float: out = clamp(x1 + x2). int32: out = x1 + x2 (TFLM applies no
// activation; overflow wraps here, undefined in TFLM).
//
// Broadcasting: the shapes are right-aligned (missing leading dims are 1);
// in every dimension each input extent equals the output's or is 1, and the
// output extent is the inputs' common one. TFLM computes the same values.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_ADD_H_
#define TFLM_ARENA_RUNTIME_KERNELS_ADD_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace runtime {

// ADD's builtin options (AddOptions).
struct AddOptions {
  model::Activation activation = model::Activation::kNone;
};

constexpr int kMaxBroadcastRank = 6;

struct AddParams {
  int32_t input1_offset = 0;  // -zero point
  int32_t input2_offset = 0;
  int32_t output_offset = 0;  // +zero point
  int32_t left_shift = 20;    // 20 for int8, 15 for int16
  int32_t input1_multiplier = 0;
  int32_t input2_multiplier = 0;
  int32_t output_multiplier = 0;
  int32_t input1_shift = 0;  // <= 0
  int32_t input2_shift = 0;
  int32_t output_shift = 0;
  int32_t quantized_activation_min = -128;
  int32_t quantized_activation_max = 127;
  float float_activation_min = 0.0f;
  float float_activation_max = 0.0f;
  bool requires_broadcast = false;  // input shapes differ
};

// The three shapes right-aligned to kMaxBroadcastRank dims, with each input's
// element strides (0 along broadcast dimensions).
struct BroadcastDims {
  int32_t output[kMaxBroadcastRank];
  size_t stride1[kMaxBroadcastRank];
  size_t stride2[kMaxBroadcastRank];
};

// Validates broadcasting of `in1` and `in2` to `out` (see the file comment)
// and fills `dims`. kUnimplemented above rank 6, kInvalidArgument when the
// shapes do not broadcast to `out`.
Status MakeBroadcastDims(Span<const int32_t> in1, Span<const int32_t> in2, Span<const int32_t> out,
                         BroadcastDims* dims);

// Checks an ADD node and fills `params`.
Status PrepareAdd(const AddOptions& options, const model::TensorInfo& input1,
                  const model::TensorInfo& input2, const model::TensorInfo& output,
                  AddParams* params);

// TFLM's int8 / int16 parameter derivation alone (used by PrepareAdd);
// `type` is INT8 or INT16. Zero points must lie in the type's range.
Status QuantizedAddParams(model::TensorType type, float scale1, int32_t zero_point1, float scale2,
                          int32_t zero_point2, float output_scale, int32_t output_zero_point,
                          AddParams* params);

// Same-shape math over `size` elements.
void AddInt8(const AddParams& params, size_t size, const int8_t* input1, const int8_t* input2,
             int8_t* output);
void AddInt16(const AddParams& params, size_t size, const int16_t* input1, const int16_t* input2,
              int16_t* output);
void AddInt32(size_t size, const int32_t* input1, const int32_t* input2, int32_t* output);
void AddFloat(const AddParams& params, size_t size, const float* input1, const float* input2,
              float* output);

// Broadcasting math.
void BroadcastAddInt8(const AddParams& params, const BroadcastDims& dims, const int8_t* input1,
                      const int8_t* input2, int8_t* output);
void BroadcastAddInt16(const AddParams& params, const BroadcastDims& dims, const int16_t* input1,
                       const int16_t* input2, int16_t* output);
void BroadcastAddInt32(const BroadcastDims& dims, const int32_t* input1, const int32_t* input2,
                       int32_t* output);
void BroadcastAddFloat(const AddParams& params, const BroadcastDims& dims, const float* input1,
                       const float* input2, float* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_ADD_H_
