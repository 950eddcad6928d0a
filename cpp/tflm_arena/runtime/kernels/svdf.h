// SVDF (singular value decomposition filter): float32, and int8 input /
// output with int8 feature weights and int16 or int8 time weights and state —
// as TFLM's reference kernel (micro/kernels/svdf.cc, svdf_common.cc).
//
// Tensors: 0 input [batch, input_size], 1 weights_feature [filters,
// input_size], 2 weights_time [filters, memory], 3 bias [units] (optional;
// units = filters / rank), 4 activation state (a variable tensor) [batch,
// memory * filters]; output [batch, units].
//
// Per invoke, as TFLM:
//  1. the state shifts left by one element (the whole buffer);
//  2. feature matmul: for batch b and filter f, dot(weights_feature[f],
//     input[b]) is written to state[b][f][memory - 1]. int8: the input zero
//     point is subtracted, the int32 sum requantized by effective_scale_1,
//     clamped to the state type's range, + the state zero point;
//  3. time: scratch[b][f] = dot(weights_time[f], state[b][f]) (int8: state
//     minus its zero point, int32);
//  4. output[b][u] = bias[u] + sum of scratch[b][u * rank .. + rank); float:
//     the fused activation; int8: requantized by effective_scale_2, + output
//     zero point, clamped to int8 (the fused activation is not applied).
// effective_scale_1 = in_scale * wf_scale / state_scale and
// effective_scale_2 = state_scale * wt_scale / out_scale, computed in float
// (TFLM's expression) then split by QuantizeMultiplier. TFLM refuses a bias
// whose scale is not state_scale * wt_scale within 1e-5; so do we.
//
// Memory per node, as TFLM: the 36-byte OpData (persistent, init); scratch
// int8: batch * filters * 4 then batch * units * 4 bytes; float: batch *
// filters * 4 bytes.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SVDF_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SVDF_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace runtime {

// SVDFOptions.
struct SvdfOptions {
  int32_t rank = 0;
  model::Activation activation = model::Activation::kNone;
  bool asymmetric_quantize_inputs = false;  // hybrid only; unused
};

// Laid out like TFLM's OpDataSvdf (36 bytes).
struct SvdfOpData {
  int32_t effective_scale_1_a = 0;
  int32_t effective_scale_2_a = 0;
  int32_t effective_scale_1_b = 0;
  int32_t effective_scale_2_b = 0;
  int32_t scratch_index = -1;         // int32 / float: batch x filters
  int32_t scratch_output_index = -1;  // int8 only: int32 batch x units
  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t state_zero_point = 0;
};
static_assert(sizeof(SvdfOpData) == 36, "SvdfOpData must be TFLM's 36 bytes");

// The sizes an invoke uses, from the tensors' shapes.
struct SvdfDims {
  int32_t batch = 0, input_size = 0, filters = 0, units = 0, rank = 0, memory = 0;
};

// The model facts of a node (bias may be null).
struct SvdfTensors {
  const model::TensorInfo* input = nullptr;
  const model::TensorInfo* weights_feature = nullptr;
  const model::TensorInfo* weights_time = nullptr;
  const model::TensorInfo* bias = nullptr;
  const model::TensorInfo* state = nullptr;
  const model::TensorInfo* output = nullptr;
};

// Checks a SVDF node (types, ranks, shapes, the state being a variable, the
// quantization) and fills `dims` and, for int8, `data`'s scales and zero
// points (not the scratch indices).
Status PrepareSvdf(const SvdfOptions& options, const SvdfTensors& t, SvdfDims* dims,
                   SvdfOpData* data);

// `scratch`: batch x filters floats. `bias` may be null.
void SvdfFloat(const SvdfDims& d, model::Activation activation, const float* input,
               const float* weights_feature, const float* weights_time, const float* bias,
               float* state, float* scratch, float* output);

// int8 with int16 (or int8) time weights and state. `scratch`: batch x
// filters int32; `scratch_output`: batch x units int32. `bias` may be null.
void SvdfInt16State(const SvdfDims& d, const SvdfOpData& data, const int8_t* input,
                    const int8_t* weights_feature, const int16_t* weights_time, const int32_t* bias,
                    int16_t* state, int32_t* scratch, int32_t* scratch_output, int8_t* output);
void SvdfInt8State(const SvdfDims& d, const SvdfOpData& data, const int8_t* input,
                   const int8_t* weights_feature, const int8_t* weights_time, const int32_t* bias,
                   int8_t* state, int32_t* scratch, int32_t* scratch_output, int8_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SVDF_H_
