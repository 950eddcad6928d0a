// TRANSPOSE_CONV: float32; int8 with int8 filters (per-channel or per-tensor
// scales); int16 activations with int8 filters and an INT64 or INT16 bias
// (or none) — as TFLM's reference kernels (micro/kernels/transpose_conv.cc,
// reference_ops / reference_integer_ops::TransposeConv).
//
// Tensors: 0 output_shape (INT32, ignored: the output's shape comes from the
// model, as in TFLM), 1 filter [Cout, KH, KW, Cin], 2 input [N, H, W, Cin],
// optional 3 bias [Cout]; output [N, OH, OW, Cout].
//
// Facts reproduced:
//  - the leading padding is ComputePaddingHeightWidth(stride, dilation 1,
//    output height / width, filter height / width, padding) — TFLM passes the
//    OUTPUT extents as the "input" of that formula;
//  - a "scatter" loop: every input element adds input * filter into an
//    accumulator per output element (loop order batch, in_y, in_x, in_c,
//    filter_y, filter_x, out_c), skipping positions outside the output;
//    then per output element + bias, requantize, clamp;
//  - float: accumulates in the output itself, then + bias and the fused
//    activation;
//  - int8: int32 accumulators in a scratch buffer of output-elements x 4
//    bytes, (input - input_zp) * filter, MultiplyByQuantizedMultiplier per
//    channel, + output_zp, clamp;
//  - int16: int64 accumulators in a scratch of output-elements x 8 bytes,
//    input * filter (zero points ignored: symmetric), + INT64 bias (an INT16
//    bias is widened into a second scratch of Cout x 8 bytes first), the
//    64-bit MultiplyByQuantizedMultiplier, clamp. An INT32 bias would be read
//    as INT64 by TFLM: refused;
//  - multipliers as CONV_2D: double(in_scale) * double(filter_scale[c]) /
//    double(out_scale).
//
// Memory per node, as TFLM: the 88-byte OpData (persistent, init); two
// persistent int32 arrays of Cout entries (multipliers, shifts) in prepare,
// for every type; the scratch buffers above.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_TRANSPOSE_CONV_H_
#define TFLM_ARENA_RUNTIME_KERNELS_TRANSPOSE_CONV_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernels/conv_common.h"

namespace tflm_arena {
namespace runtime {

// TransposeConvOptions (format defaults).
struct TransposeConvOptions {
  model::Padding padding = model::Padding::kSame;
  int32_t stride_w = 0, stride_h = 0;
  model::Activation activation = model::Activation::kNone;
  int8_t quantized_bias_type = 0;  // read by TFLM's parser, unused by its kernel
};

// What the kernel keeps between prepare and invoke. Padded to TFLM's OpData
// (ConvParams, three buffer indices, two pointers: 88 bytes on 64-bit) so the
// persistent figures match.
struct TransposeConvOpData {
  ConvParams params;
  int32_t scratch_index = -1;       // int8: int32 accumulators; int16: int64
  int32_t bias_scratch_index = -1;  // int16 with an INT16 bias: widened bias
  int32_t* multipliers = nullptr;
  int32_t* shifts = nullptr;
  uint8_t reserved_[sizeof(void*) == 8 ? 8 : 0];
};
static_assert(sizeof(void*) != 8 || sizeof(TransposeConvOpData) == 88,
              "TransposeConvOpData must be TFLM's 88 bytes on 64-bit");

// Checks a TRANSPOSE_CONV node's tensors and options and fills `params`
// (padding, strides, offsets, activation bounds). `bias` may be null.
Status PrepareTransposeConv(const TransposeConvOptions& options, const model::TensorInfo& input,
                            const model::TensorInfo& filter, const model::TensorInfo* bias,
                            const model::TensorInfo& output, ConvParams* params);

void TransposeConvFloat(const ConvParams& params, const Shape4& input_shape, const float* input,
                        const Shape4& filter_shape, const float* filter, const float* bias,
                        const Shape4& output_shape, float* output);

// `scratch`: output-elements int32 accumulators. `bias` may be null.
void TransposeConvInt8(const ConvParams& params, const int32_t* multipliers, const int32_t* shifts,
                       const Shape4& input_shape, const int8_t* input, const Shape4& filter_shape,
                       const int8_t* filter, const int32_t* bias, const Shape4& output_shape,
                       int8_t* output, int32_t* scratch);

// `scratch`: output-elements int64 accumulators. `bias` may be null.
void TransposeConvInt16(const ConvParams& params, const int32_t* multipliers, const int32_t* shifts,
                        const Shape4& input_shape, const int16_t* input, const Shape4& filter_shape,
                        const int8_t* filter, const int64_t* bias, const Shape4& output_shape,
                        int16_t* output, int64_t* scratch);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_TRANSPOSE_CONV_H_
