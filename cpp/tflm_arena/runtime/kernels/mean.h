// MEAN: the average over the axes given by the second input, for FLOAT32,
// INT8 and INT16 (TFLM's reference kernel's types). Bit-exact with TFLM's
// reduce.cc / reduce_common.cc (PrepareMeanOrSumHelper, EvalMeanHelper) and
// reference_ops::Mean / QuantizedMeanOrSum.
//
// Facts reproduced:
//  - axes may be negative and repeat (resolved, duplicates dropped); an
//    out-of-range axis is an error;
//  - float: the sum in float in the input's row-major order, then divided
//    by the number of elements reduced (TFLM's 4D axes-{1,2} special case
//    adds in the same order, so one walk serves both);
//  - quantized: an int32 sum (wrapping) per output, minus input_zero_point *
//    count, times the multiplier of input_scale / output_scale with
//    1/count folded in: shift = min(floor(log2 count), 32, 31 + out_shift),
//    multiplier = (multiplier << shift) / count, out_shift -= shift; then
//    + output_zero_point, clamped to the type;
//  - keep_dims only shapes the output (TFLM writes output-count elements).
// TFLM does not compare the output's shape with the reduction; here its
// element count must equal the input's count over the kept axes.
//
// Memory per node, as TFLM: OpDataReduce (44 bytes, persistent, in init);
// the 1-byte options struct (tail); scratch, in this order: INT8/INT16 an
// int32 accumulator per output element, then an int per input dimension
// (the index walk), then an int per axis entry (the resolved axes).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_MEAN_H_
#define TFLM_ARENA_RUNTIME_KERNELS_MEAN_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

// MEAN's builtin options (ReducerOptions), like TfLiteReducerParams.
struct ReducerOptions {
  bool keep_dims = false;
};

constexpr int kMeanMaxRank = 8;  // our index walk's stack arrays

// Laid out like TFLM's OpDataReduce (44 bytes).
struct MeanOpData {
  int32_t multiplier = 0;
  int32_t shift = 0;
  int32_t scratch_accumulator_idx = -1;
  int32_t scratch_resolved_axis_idx = -1;
  int32_t scratch_input_iter_idx = -1;
  int32_t input_zp = 0;
  float input_scale = 0.0f;
  int32_t output_zp = 0;
  float output_scale = 0.0f;
  int32_t num_output_elements = 0;
  int32_t num_axis = 0;
};
constexpr size_t kMeanPersistentBytes = sizeof(MeanOpData);  // 44

// Resolves `axis` (num_axis entries) against `rank`: each in [-rank, rank),
// duplicates dropped; `reduced[d]` says whether dimension d is reduced.
// kInvalidArgument naming MEAN otherwise.
Status ResolveMeanAxes(const int32_t* axis, int num_axis, int rank, bool* reduced);

// The means; `reduced` from ResolveMeanAxes, output_count = the product of
// the kept extents. `accumulator` (quantized only) holds output_count int32.
void MeanFloat(const float* input, const int32_t* shape, int rank, const bool* reduced,
               size_t output_count, float* output);
void MeanInt8(const MeanOpData& data, const int8_t* input, const int32_t* shape, int rank,
              const bool* reduced, size_t output_count, int32_t* accumulator, int8_t* output);
void MeanInt16(const MeanOpData& data, const int16_t* input, const int32_t* shape, int rank,
               const bool* reduced, size_t output_count, int32_t* accumulator, int16_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_MEAN_H_
