// MEAN math (see mean.h).
#include <algorithm>
#include <limits>

#include "tflm_arena/runtime/kernels/mean.h"
#include "tflm_arena/runtime/kernels/quant_util.h"

namespace tflm_arena {
namespace runtime {
namespace {

// Walks the input in row-major order one innermost row at a time:
// row(input_offset, output_offset, length, last_reduced). Along a reduced
// innermost axis every element of the row adds into one output; along a
// kept one, element j adds into output_offset + j. Either way each output
// receives its inputs in row-major order, as TFLM's per-element walk does.
// Returns the number of elements reduced into each output.
template <typename F>
int64_t WalkRows(const int32_t* shape, int rank, const bool* reduced, F row) {
  int64_t out_stride[kMeanMaxRank];
  int64_t stride = 1, count = 1, total = 1;
  for (int d = rank - 1; d >= 0; --d) {
    out_stride[d] = reduced[d] ? 0 : stride;
    if (!reduced[d]) stride *= shape[d];
    if (reduced[d]) count *= shape[d];
    total *= shape[d];
  }
  if (total == 0) return count;
  if (rank == 0) {
    row(0, 0, 1, false);
    return count;
  }
  const int last = rank - 1;
  const int64_t length = shape[last];
  int32_t index[kMeanMaxRank] = {};
  int64_t out = 0;
  for (int64_t in = 0; in < total; in += length) {
    row(in, out, length, reduced[last]);
    // Next row: increment the multi-index above the innermost axis.
    // The analyzer loses that out_stride[0, rank) is set and d < rank - 1 here.
    // NOLINTBEGIN(clang-analyzer-core.uninitialized.Assign,clang-analyzer-core.UndefinedBinaryOperatorResult)
    for (int d = last - 1; d >= 0; --d) {
      if (++index[d] < shape[d]) {
        out += out_stride[d];
        break;
      }
      out -= out_stride[d] * (shape[d] - 1);
      index[d] = 0;
    }
    // NOLINTEND(clang-analyzer-core.uninitialized.Assign,clang-analyzer-core.UndefinedBinaryOperatorResult)
  }
  return count;
}

int CountLeadingZeros64(uint64_t v) {
  int n = 0;
  for (uint64_t bit = uint64_t{1} << 63; bit != 0 && (v & bit) == 0; bit >>= 1) ++n;
  return n;
}

template <typename T>
void MeanQuantized(const MeanOpData& data, const T* input, const int32_t* shape, int rank,
                   const bool* reduced, size_t output_count, int32_t* sum, T* output) {
  for (size_t i = 0; i < output_count; ++i) sum[i] = 0;
  // int32 additions that wrap, as TFLM's AddTensorValuesWithExpectedOverflow.
  uint32_t* acc = reinterpret_cast<uint32_t*>(sum);
  const int64_t count =
      WalkRows(shape, rank, reduced, [&](int64_t i, int64_t o, int64_t n, bool along) {
        const T* x = input + i;
        if (along) {
          uint32_t a = acc[o];
          for (int64_t j = 0; j < n; ++j) a += static_cast<uint32_t>(static_cast<int32_t>(x[j]));
          acc[o] = a;
        } else {
          uint32_t* a = acc + o;
          for (int64_t j = 0; j < n; ++j) a[j] += static_cast<uint32_t>(static_cast<int32_t>(x[j]));
        }
      });
  for (size_t i = 0; i < output_count; ++i) output[i] = 0;
  if (count == 0) return;
  int shift = 63 - CountLeadingZeros64(static_cast<uint64_t>(count));
  shift = std::min(shift, 32);
  shift = std::min<int>(shift, 31 + data.shift);
  const int32_t multiplier =
      static_cast<int32_t>((static_cast<int64_t>(data.multiplier) << shift) / count);
  const int out_shift = data.shift - shift;
  constexpr int32_t kMin = std::numeric_limits<T>::min();
  constexpr int32_t kMax = std::numeric_limits<T>::max();
  for (size_t i = 0; i < output_count; ++i) {
    const int32_t shifted = static_cast<int32_t>(static_cast<uint32_t>(
        static_cast<int64_t>(sum[i]) - static_cast<int64_t>(data.input_zp) * count));
    int32_t y = MultiplyByQuantizedMultiplier(shifted, multiplier, out_shift) + data.output_zp;
    y = std::min(std::max(y, kMin), kMax);
    output[i] = static_cast<T>(y);
  }
}

}  // namespace

Status ResolveMeanAxes(const int32_t* axis, int num_axis, int rank, bool* reduced) {
  for (int d = 0; d < rank; ++d) reduced[d] = false;
  if (rank == 0) return Status::Ok();  // TFLM: axes unused for a scalar
  for (int i = 0; i < num_axis; ++i) {
    const int32_t a = axis[i] < 0 ? axis[i] + rank : axis[i];
    if (a < 0 || a >= rank) {
      return Status::Error(StatusCode::kInvalidArgument, "MEAN: axis %d outside [%d, %d)", axis[i],
                           -rank, rank);
    }
    reduced[a] = true;
  }
  return Status::Ok();
}

void MeanFloat(const float* input, const int32_t* shape, int rank, const bool* reduced,
               size_t output_count, float* output) {
  for (size_t i = 0; i < output_count; ++i) output[i] = 0.0f;
  const int64_t count =
      WalkRows(shape, rank, reduced, [&](int64_t i, int64_t o, int64_t n, bool along) {
        const float* x = input + i;
        if (along) {
          float a = output[o];
          for (int64_t j = 0; j < n; ++j) a += x[j];  // in order: no reassociation
          output[o] = a;
        } else {
          float* a = output + o;
          for (int64_t j = 0; j < n; ++j) a[j] += x[j];
        }
      });
  if (count <= 0) return;
  const float n = static_cast<float>(count);
  for (size_t i = 0; i < output_count; ++i) output[i] = output[i] / n;
}

void MeanInt8(const MeanOpData& data, const int8_t* input, const int32_t* shape, int rank,
              const bool* reduced, size_t output_count, int32_t* accumulator, int8_t* output) {
  MeanQuantized(data, input, shape, rank, reduced, output_count, accumulator, output);
}

void MeanInt16(const MeanOpData& data, const int16_t* input, const int32_t* shape, int rank,
               const bool* reduced, size_t output_count, int32_t* accumulator, int16_t* output) {
  MeanQuantized(data, input, shape, rank, reduced, output_count, accumulator, output);
}

}  // namespace runtime
}  // namespace tflm_arena
