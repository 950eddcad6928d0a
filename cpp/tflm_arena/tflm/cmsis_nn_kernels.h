// TFLM's CMSIS-NN kernels as a second kernel table (kernel_table.h's
// "kernel variant"): TFLM built with OPTIMIZED_KERNEL_DIR=cmsis_nn, where the
// kernels of tensorflow/lite/micro/kernels/cmsis_nn/ replace the same-named
// reference kernels. The build modelled is TFLM's Makefile build (TFLM commit
// 90b983c2b, CMSIS-NN commit 4ab83cc3cc98fb85ed6dafb55e8ca02f1628dcae, the one
// TFLM's cmsis_nn_download.sh pins): -DCMSIS_NN -DKERNELS_OPTIMIZED_FOR_SPEED
// -DTF_LITE_STATIC_MEMORY, compiled with GCC.
//
// A cmsis_nn kernel's Init asks for its own OpData (the reference one plus
// buffer indices), and its Prepare requests scratch sized by CMSIS-NN's
// arm_*_get_buffer_size* functions. Those depend on the core's features,
// which CMSIS-NN's Include/arm_nn_math_types.h turns into a backend:
//  - scalar: neither __ARM_FEATURE_DSP nor __ARM_FEATURE_MVE (Cortex-M0,
//    M0+, M3): CMSIS-NN's pure C paths;
//  - DSP: __ARM_FEATURE_DSP (Cortex-M4, M7, M33): ARM_MATH_DSP;
//  - MVE: __ARM_FEATURE_MVE (Cortex-M55, M85): ARM_MATH_MVEI (these cores
//    also have the DSP extension; every size function tests MVE first).
// Two sizes depend on the compiler; this is GCC's build: the fast 1x1
// convolution's DSP buffer (2 * C int16 under Arm Compiler >= 6.10.50, 0
// under GCC) and the MVE depthwise "one input channel" threshold (output
// channels above 8 under Arm Compiler, above 1 under GCC).
//
// Operators without a cmsis_nn kernel keep their reference rows.
#ifndef TFLM_ARENA_TFLM_CMSIS_NN_KERNELS_H_
#define TFLM_ARENA_TFLM_CMSIS_NN_KERNELS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/tflm/kernel_table.h"

namespace tflm_arena {
namespace tflm {

enum class CmsisNnBackend : uint8_t { kScalar = 0, kDsp, kMve };

// "scalar", "DSP", "MVE".
const char* CmsisNnBackendName(CmsisNnBackend backend);

// cmsis_nn_dims (n, h, w, c) and the convolution parameters the size
// functions read (cmsis_nn_conv_params / cmsis_nn_dw_conv_params /
// cmsis_nn_transpose_conv_params).
struct CmsisDims {
  int64_t n = 1, h = 1, w = 1, c = 1;
};
struct CmsisConv {
  CmsisDims input, filter, output;
  int64_t stride_w = 1, stride_h = 1;
  int64_t pad_w = 0, pad_h = 0;
  int64_t dilation_w = 1, dilation_h = 1;
};

// CMSIS-NN's size functions at 4ab83cc, for GCC, per backend (bytes).
// arm_convolve_get_buffer_sizes_s8.c, arm_convolve_wrapper_s8_get_buffer_size.
int64_t ConvolveWrapperS8BufferSize(CmsisNnBackend backend, const CmsisConv& conv);
// arm_convolve_get_buffer_sizes_s16.c, arm_convolve_wrapper_s16_get_buffer_size.
int64_t ConvolveWrapperS16BufferSize(CmsisNnBackend backend, const CmsisConv& conv);
// arm_depthwise_conv_get_buffer_sizes_s8.c,
// arm_depthwise_conv_wrapper_s8_get_buffer_size (filter.c = output channels).
int64_t DepthwiseConvWrapperS8BufferSize(CmsisNnBackend backend, const CmsisConv& conv);
// arm_depthwise_conv_get_buffer_sizes_s4.c, arm_depthwise_conv_wrapper_s4_get_buffer_size.
int64_t DepthwiseConvWrapperS4BufferSize(CmsisNnBackend backend, const CmsisConv& conv);
// arm_fully_connected_get_buffer_sizes_s8.c, arm_fully_connected_s8_get_buffer_size.
int64_t FullyConnectedS8BufferSize(CmsisNnBackend backend, int64_t output_depth);
// arm_avgpool_get_buffer_sizes_s8.c / _s16.c (the same formula for both).
int64_t AvgPoolBufferSize(CmsisNnBackend backend, int64_t channels);
// arm_svdf_get_buffer_sizes_s8.c, arm_svdf_s8_get_buffer_size.
int64_t SvdfS8BufferSize(CmsisNnBackend backend, int64_t num_filters);
// arm_transpose_conv_get_buffer_sizes_s8.c: arm_transpose_conv_s8_get_buffer_size
// and arm_transpose_conv_s8_get_reverse_conv_buffer_size (filter.n = output channels).
int64_t TransposeConvS8BufferSize(CmsisNnBackend backend, const CmsisConv& conv);
int64_t TransposeConvS8ReverseBufferSize(const CmsisConv& conv);

// The memory part of a cmsis_nn kernel's Prepare that differs from the
// reference kernel (StepKind::kCmsisNn, rule in Step::a).
enum class CmsisNnRule : uint8_t {
  kConv = 0,        // cmsis_nn/conv.cc: one scratch (int8, int16)
  kDepthwiseConv,   // cmsis_nn/depthwise_conv.cc: one scratch (int8)
  kFullyConnected,  // cmsis_nn/fully_connected.cc: 1x1 scratch, kernel sums
  kAveragePool,     // cmsis_nn/pooling.cc: one scratch (int8, int16)
  kSvdf,            // cmsis_nn/svdf.cc: two scratch, kernel sums
  kLstm,            // cmsis_nn/unidirectional_sequence_lstm.cc
  kTransposeConv,   // cmsis_nn/transpose_conv.cc
  // The same kernels as of TFLM 2023-02 with CMSIS-NN e98ee09
  // (cmsis_nn_e98ee09_sizes.h), as the Arduino library ships them.
  kConvE98ee09,            // one scratch (int8, int16)
  kDepthwiseConvE98ee09,   // one scratch (int8)
  kFullyConnectedE98ee09,  // int8 run as 1x1: persistent per-channel arrays
};

// One allocation of a Prepare, in order.
struct CmsisNnAllocation {
  bool persistent = false;  // AllocatePersistentBuffer (else RequestScratchBufferInArena)
  uint64_t bytes = 0;
  const char* what = "";
};

// The allocations `rule` makes for operator `op_index` of subgraph `sg`.
// *refusal_reason is set (and nothing allocated) when the kernel's Prepare
// fails at every arena size; errors name a model the rule cannot read.
Status CmsisNnPrepare(CmsisNnRule rule, CmsisNnBackend backend, const model::Model& model,
                      size_t sg, size_t op_index, const model::OperatorInfo& op,
                      std::vector<CmsisNnAllocation>* out, std::string* refusal_reason);

// The cmsis_nn rows followed by the reference rows of every other operator.
Span<const KernelRow> CmsisNnKernels();
// The cmsis_nn rows only (one per kernel file of kernels/cmsis_nn/ that is modelled).
Span<const KernelRow> CmsisNnOwnKernels();

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_CMSIS_NN_KERNELS_H_
