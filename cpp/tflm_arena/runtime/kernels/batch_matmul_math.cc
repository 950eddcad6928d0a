// BATCH_MATMUL prepare checks and math (see batch_matmul.h).
#include <cstring>
#include <limits>

#include "tflm_arena/runtime/kernels/batch_matmul.h"
#include "tflm_arena/runtime/kernels/conv_common.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/quant_util.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "BATCH_MATMUL";

// `shape` extended to rank 5 with leading ones.
void Extend5(Span<const int32_t> shape, int32_t out[5]) {
  const size_t pad = 5 - shape.size();
  for (size_t i = 0; i < 5; ++i) out[i] = i < pad ? 1 : shape[i - pad];
}

// Element strides of the three batch dimensions (0 where the extent is 1,
// which then broadcasts).
void BatchStrides(const int32_t e[5], size_t stride[3]) {
  for (int i = 0; i < 3; ++i) {
    size_t s = 1;
    for (int j = i + 1; j < 5; ++j) s *= static_cast<size_t>(e[j]);
    stride[i] = e[i] == 1 ? 0 : s;
  }
}

// The shared loop: per output batch, out[m][n] = finish(total) where total
// starts at 0 and takes total = mac(total, L[m][k], R^T[n][k]) for k
// ascending.
template <typename T, typename Acc, typename Out, typename Mac, typename Finish>
void Product(const BatchMatMulDims& d, const T* lhs, const T* rhs_t, Out* output, const Mac& mac,
             const Finish& finish) {
  const size_t m_count = static_cast<size_t>(d.m), n_count = static_cast<size_t>(d.n);
  const size_t k_count = static_cast<size_t>(d.k);
  Out* out = output;
  for (int32_t b0 = 0; b0 < d.batch[0]; ++b0) {
    for (int32_t b1 = 0; b1 < d.batch[1]; ++b1) {
      for (int32_t b2 = 0; b2 < d.batch[2]; ++b2) {
        const T* l = lhs + b0 * d.lhs_stride[0] + b1 * d.lhs_stride[1] + b2 * d.lhs_stride[2];
        const T* r = rhs_t + b0 * d.rhs_stride[0] + b1 * d.rhs_stride[1] + b2 * d.rhs_stride[2];
        for (size_t m = 0; m < m_count; ++m) {
          const T* l_row = l + m * k_count;
          for (size_t n = 0; n < n_count; ++n) {
            const T* r_row = r + n * k_count;
            Acc total = 0;
            for (size_t k = 0; k < k_count; ++k) {
              total = mac(total, l_row[k], r_row[k]);
            }
            *out++ = finish(total);
          }
        }
      }
    }
  }
}

template <typename T, typename Acc, typename Mac>
void Quantized(const BatchMatMulDims& d, const BatchMatMulQuant& q, const T* lhs, const T* rhs_t,
               T* output, const Mac& mac) {
  Product<T, Acc>(d, lhs, rhs_t, output, mac, [&q](Acc total) {
    int32_t y = 0;
    if (sizeof(Acc) == 8) {
      y = MultiplyByQuantizedMultiplier64(static_cast<int64_t>(total), q.multiplier, q.shift);
    } else {
      y = MultiplyByQuantizedMultiplier(static_cast<int32_t>(total), q.multiplier, q.shift);
    }
    y = WrappingAdd(y, q.output_zero_point);
    y = y < q.act_min ? q.act_min : (y > q.act_max ? q.act_max : y);
    return static_cast<T>(y);
  });
}

}  // namespace

BatchMatMulDims MakeBatchMatMulDims(Span<const int32_t> lhs, Span<const int32_t> rhs, bool adj_x,
                                    bool adj_y) {
  int32_t l[5], r[5];
  Extend5(lhs, l);
  Extend5(rhs, r);
  BatchMatMulDims d;
  for (int i = 0; i < 3; ++i) d.batch[i] = l[i] == 1 ? r[i] : l[i];
  BatchStrides(l, d.lhs_stride);
  BatchStrides(r, d.rhs_stride);
  d.m = adj_x ? l[4] : l[3];
  d.k = adj_x ? l[3] : l[4];
  d.n = adj_y ? r[3] : r[4];
  return d;
}

Status PrepareBatchMatMul(const BatchMatMulOptions& options, const model::TensorInfo& lhs,
                          const model::TensorInfo& rhs, const model::TensorInfo& output,
                          BatchMatMulQuant* quant) {
  const TensorType type = lhs.type;
  if ((type != TensorType::kFloat32 && type != TensorType::kInt8 && type != TensorType::kInt16) ||
      rhs.type != type || output.type != type) {
    return Status::Error(StatusCode::kUnimplemented,
                         "%s: lhs %s, rhs %s, output %s not supported (supported: all FLOAT32, "
                         "INT8 or INT16)",
                         kOp, model::TensorTypeName(type), model::TensorTypeName(rhs.type),
                         model::TensorTypeName(output.type));
  }
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, output));
  const size_t lr = lhs.shape.size(), rr = rhs.shape.size();
  if (lr < 2 || lr > 5 || rr < 2 || rr > 5) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: lhs and rhs ranks must be 2 to 5, got %zu and %zu", kOp, lr, rr);
  }
  int32_t l[5], r[5];
  Extend5(lhs.shape, l);
  Extend5(rhs.shape, r);
  const size_t rank = lr > rr ? lr : rr;
  int32_t want[5];
  for (int i = 0; i < 3; ++i) {
    if (l[i] != r[i] && l[i] != 1 && r[i] != 1) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: batch dimensions %d and %d do not broadcast", kOp, l[i], r[i]);
    }
    want[i] = l[i] == 1 ? r[i] : l[i];
  }
  const int32_t lhs_depth = options.adj_x ? l[3] : l[4];
  const int32_t rhs_depth = options.adj_y ? r[4] : r[3];
  if (lhs_depth != rhs_depth) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: lhs depth %d and rhs depth %d differ",
                         kOp, lhs_depth, rhs_depth);
  }
  want[3] = options.adj_x ? l[4] : l[3];
  want[4] = options.adj_y ? r[3] : r[4];
  bool same = output.shape.size() == rank;
  for (size_t i = 0; same && i < rank; ++i) same = output.shape[i] == want[5 - rank + i];
  if (!same) {
    char got[64];
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: output '%s' has shape %s, expected rank %zu ending [%d, %d]", kOp,
                         output.name, FormatShape(output.shape, got, sizeof(got)), rank, want[3],
                         want[4]);
  }
  if (type == TensorType::kFloat32) return Status::Ok();
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "lhs", lhs));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "rhs", rhs));
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", output));
  if (type == TensorType::kInt16) {
    TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "lhs", lhs));
    TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "rhs", rhs));
    TFLM_ARENA_RETURN_IF_ERROR(RequireZeroPointZero(kOp, "output", output));
  }
  // TFLM: the scale product in float, widened, then / the output scale.
  const double real = static_cast<double>(TensorScale(lhs) * TensorScale(rhs)) /
                      static_cast<double>(TensorScale(output));
  int shift = 0;
  TFLM_ARENA_RETURN_IF_ERROR(
      CheckedQuantizeMultiplier(kOp, "output", real, &quant->multiplier, &shift));
  quant->shift = shift;
  quant->act_min = type == TensorType::kInt8 ? -128 : std::numeric_limits<int16_t>::min();
  quant->act_max = type == TensorType::kInt8 ? 127 : std::numeric_limits<int16_t>::max();
  quant->lhs_zero_point = TensorZeroPoint(lhs);
  quant->rhs_zero_point = TensorZeroPoint(rhs);
  quant->output_zero_point = TensorZeroPoint(output);
  return Status::Ok();
}

void TransposeLastTwo(Span<const int32_t> shape, size_t element_size, const void* in, void* out) {
  const size_t rank = shape.size();
  const size_t rows = static_cast<size_t>(shape[rank - 2]);
  const size_t cols = static_cast<size_t>(shape[rank - 1]);
  size_t batches = 1;
  for (size_t i = 0; i + 2 < rank; ++i) batches *= static_cast<size_t>(shape[i]);
  const auto* src = static_cast<const uint8_t*>(in);
  auto* dst = static_cast<uint8_t*>(out);
  for (size_t b = 0; b < batches; ++b) {
    const size_t base = b * rows * cols * element_size;
    for (size_t i = 0; i < rows; ++i) {
      for (size_t j = 0; j < cols; ++j) {
        std::memcpy(dst + base + (j * rows + i) * element_size,
                    src + base + (i * cols + j) * element_size, element_size);
      }
    }
  }
}

void BatchMatMulFloat(const BatchMatMulDims& d, const float* lhs, const float* rhs_t,
                      float* output) {
  Product<float, float>(
      d, lhs, rhs_t, output, [](float total, float l, float r) { return total + r * l; },
      [](float total) { return total; });
}

void BatchMatMulInt8(const BatchMatMulDims& d, const BatchMatMulQuant& q, const int8_t* lhs,
                     const int8_t* rhs_t, int8_t* output) {
  const int32_t lhs_offset = -q.lhs_zero_point, rhs_offset = -q.rhs_zero_point;
  Quantized<int8_t, int32_t>(d, q, lhs, rhs_t, output,
                             [lhs_offset, rhs_offset](int32_t total, int8_t l, int8_t r) {
                               return Accumulate(total, (r + rhs_offset) * (l + lhs_offset));
                             });
}

void BatchMatMulInt16(const BatchMatMulDims& d, const BatchMatMulQuant& q, const int16_t* lhs,
                      const int16_t* rhs_t, int16_t* output) {
  // INT16 zero points are 0 (prepare requires it), so each product fits
  // int32 (|l * r| <= 2^30) and only the sum needs 64 bits: an int32
  // multiply, which vectorizes, instead of an int64 one; same values.
  Quantized<int16_t, int64_t>(d, q, lhs, rhs_t, output, [](int64_t total, int16_t l, int16_t r) {
    // NOLINTNEXTLINE(bugprone-misplaced-widening-cast): the int32 product is exact (above).
    return Accumulate(total, static_cast<int64_t>(static_cast<int32_t>(r) * l));
  });
}

}  // namespace runtime
}  // namespace tflm_arena
