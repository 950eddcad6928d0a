// BATCH_MATMUL: float32, int8 and int16 (symmetric) — as TFLM's reference
// kernel (micro/kernels/batch_matmul.cc, batch_matmul_common.cc,
// reference_ops::BatchMatMul).
//
// output[b..., m, n] = sum over k of L[b..., m, k] * R[b..., k, n], where L is
// the lhs (given as [..., K, M] when adj_x) and R the rhs (given as [..., N, K]
// when adj_y); ranks 2 to 5, batch dimensions broadcast (equal or 1), the
// output's shape [broadcast batches..., M, N] as in the model. Sums run over k
// in ascending order from 0 (float bit for bit with TFLM). Quantized:
// (L - lhs_zp) * (R - rhs_zp) in int32 (int8) or int64 (int16, zero points 0),
// MultiplyByQuantizedMultiplier by double(float(lhs_scale * rhs_scale)) /
// double(out_scale), + output zero point, clamped to the type (no fused
// activation).
//
// Memory per node, as TFLM: the 32-byte OpData (init); in prepare, for int8 /
// int16 the 28-byte quantization data; when adj_x a transposed copy of the
// lhs and when !adj_y of the rhs (TFLM's TfLiteEvalTensor 24 bytes + dims
// 4 + 4 x rank + the data, three allocations each); the output's dims
// (4 + 4 x rank). No scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_BATCH_MATMUL_H_
#define TFLM_ARENA_RUNTIME_KERNELS_BATCH_MATMUL_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace runtime {

// BatchMatMulOptions.
struct BatchMatMulOptions {
  bool adj_x = false;
  bool adj_y = false;
  bool asymmetric_quantize_inputs = false;  // hybrid only; unused
};

// TFLM's QuantizationOpDataBatchMatmul (28 bytes).
struct BatchMatMulQuant {
  int32_t multiplier = 0;
  int32_t shift = 0;
  int32_t act_min = 0;
  int32_t act_max = 0;
  int32_t lhs_zero_point = 0;
  int32_t rhs_zero_point = 0;
  int32_t output_zero_point = 0;
};

// Laid out like TFLM's OpDataBatchMatmul (32 bytes on 64-bit).
struct BatchMatMulOpData {
  BatchMatMulQuant* quant = nullptr;  // int8 / int16 only
  void* lhs_transposed = nullptr;     // adj_x: L as [..., M, K]
  void* rhs_transposed = nullptr;     // !adj_y: R as [..., N, K]
  bool rhs_is_transposed = false;     // a constant rhs is transposed once
  bool lhs_is_constant = false;
  bool rhs_is_constant = false;
};
static_assert(sizeof(void*) != 8 || sizeof(BatchMatMulOpData) == 32,
              "BatchMatMulOpData must be TFLM's 32 bytes on 64-bit");

// The sizes of one invocation: three broadcast batch dimensions (rank 5
// extended), each operand's batch strides (0 where it broadcasts), M, N, K.
struct BatchMatMulDims {
  int32_t batch[3] = {1, 1, 1};
  size_t lhs_stride[3] = {0, 0, 0};
  size_t rhs_stride[3] = {0, 0, 0};
  int32_t m = 0, n = 0, k = 0;
};

// From the operands' shapes and the options; the caller checked them.
BatchMatMulDims MakeBatchMatMulDims(Span<const int32_t> lhs, Span<const int32_t> rhs, bool adj_x,
                                    bool adj_y);

// Checks a node (types, ranks, broadcastable batches, equal depths, the
// output's shape, quantization) and fills `quant` for int8 / int16.
Status PrepareBatchMatMul(const BatchMatMulOptions& options, const model::TensorInfo& lhs,
                          const model::TensorInfo& rhs, const model::TensorInfo& output,
                          BatchMatMulQuant* quant);

// Swaps the last two dimensions of a row-major tensor of `shape` into `out`.
void TransposeLastTwo(Span<const int32_t> shape, size_t element_size, const void* in, void* out);

// The products: `lhs` as [..., M, K], `rhs_t` as [..., N, K].
void BatchMatMulFloat(const BatchMatMulDims& d, const float* lhs, const float* rhs_t,
                      float* output);
void BatchMatMulInt8(const BatchMatMulDims& d, const BatchMatMulQuant& q, const int8_t* lhs,
                     const int8_t* rhs_t, int8_t* output);
void BatchMatMulInt16(const BatchMatMulDims& d, const BatchMatMulQuant& q, const int16_t* lhs,
                      const int16_t* rhs_t, int16_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_BATCH_MATMUL_H_
