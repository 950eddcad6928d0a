// TRANSPOSE math (see transpose.h).
#include "tflm_arena/runtime/kernels/transpose.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "TRANSPOSE";

// Walks the output in row-major order; the input offset steps by the
// stride of the input axis each output axis comes from.
template <typename T>
void Walk(const int32_t* in_shape, int rank, const int32_t* perm, const T* in, T* out) {
  int64_t in_stride[kTransposeMaxRank];
  int64_t s = 1;
  for (int d = rank - 1; d >= 0; --d) {
    in_stride[d] = s;
    s *= in_shape[d];
  }
  if (s == 0) return;
  int32_t out_shape[kTransposeMaxRank];
  int64_t step[kTransposeMaxRank];
  for (int k = 0; k < rank; ++k) {
    out_shape[k] = in_shape[perm[k]];
    step[k] = in_stride[perm[k]];
  }
  if (rank == 0) {
    out[0] = in[0];
    return;
  }
  int32_t index[kTransposeMaxRank] = {};
  int64_t offset = 0;
  const int last = rank - 1;
  const int32_t inner = out_shape[last];
  const int64_t inner_step = step[last];
  for (;;) {
    // The innermost axis as a tight loop.
    const T* src = in + offset;
    for (int32_t i = 0; i < inner; ++i) *out++ = src[i * inner_step];
    int d = last - 1;
    for (; d >= 0; --d) {
      // The analyzer loses that out_shape[0, rank) is set and d < rank - 1 here.
      // NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult)
      if (++index[d] < out_shape[d]) {
        offset += step[d];
        break;
      }
      offset -= step[d] * (out_shape[d] - 1);
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace

Status PrepareTranspose(const int32_t* input_shape, int rank, const int32_t* perm,
                        size_t perm_count, const int32_t* output_shape, int output_rank) {
  if (rank > kTransposeMaxRank) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input rank %d, at most %d supported", kOp,
                         rank, kTransposeMaxRank);
  }
  if (perm_count != static_cast<size_t>(rank)) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: perm has %zu entries, input rank %d",
                         kOp, perm_count, rank);
  }
  if (output_rank != rank) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: output rank %d, input rank %d", kOp,
                         output_rank, rank);
  }
  bool seen[kTransposeMaxRank] = {};
  for (int k = 0; k < rank; ++k) {
    if (perm[k] < 0 || perm[k] >= rank) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: perm[%d] = %d outside [0, %d)", kOp,
                           k, perm[k], rank);
    }
    if (seen[perm[k]]) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: perm repeats axis %d", kOp, perm[k]);
    }
    seen[perm[k]] = true;
    if (output_shape[k] != input_shape[perm[k]]) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: output dimension %d is %d, input dimension %d is %d", kOp, k,
                           output_shape[k], perm[k], input_shape[perm[k]]);
    }
  }
  return Status::Ok();
}

void TransposeCopy(const int32_t* input_shape, int rank, const int32_t* perm, size_t element_bytes,
                   const uint8_t* input, uint8_t* output) {
  switch (element_bytes) {
    case 1:
      Walk(input_shape, rank, perm, input, output);
      break;
    case 2:
      Walk(input_shape, rank, perm, reinterpret_cast<const uint16_t*>(input),
           reinterpret_cast<uint16_t*>(output));
      break;
    case 4:
      Walk(input_shape, rank, perm, reinterpret_cast<const uint32_t*>(input),
           reinterpret_cast<uint32_t*>(output));
      break;
    default:
      break;
  }
}

}  // namespace runtime
}  // namespace tflm_arena
