// STRIDED_SLICE math (see strided_slice.h). Index arithmetic is done in
// int64 so that hostile strides (INT32_MIN) cannot overflow.
#include <cstring>

#include "tflm_arena/runtime/kernels/strided_slice.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "STRIDED_SLICE";

int64_t Clamp(int64_t v, int64_t lo, int64_t hi) { return v > hi ? hi : (v < lo ? lo : v); }
bool Bit(uint32_t mask, int axis) { return (mask >> axis) & 1u; }

// Invoke's per-axis range (TFLM's StridedSliceStartForAxis / EndForAxis).
int64_t EvalStart(const StridedSliceOpData& p, const int32_t* shape, int axis) {
  const int64_t size = shape[axis];
  const int64_t stride = p.strides[axis];
  int64_t start = p.start_indices[axis];
  if (start < 0) start += size;
  start = stride > 0 ? Clamp(start, 0, size) : Clamp(start, -1, size - 1);
  if (Bit(p.begin_mask, axis)) start = stride > 0 ? 0 : size - 1;
  return start;
}

int64_t EvalStop(const StridedSliceOpData& p, const int32_t* shape, int axis, int64_t start) {
  const int64_t size = shape[axis];
  if (Bit(p.shrink_axis_mask, axis)) return start >= size ? start : start + 1;
  const int64_t stride = p.strides[axis];
  int64_t stop = p.stop_indices[axis];  // `offset` is never set by TFLM's prepare
  if (stop < 0) stop += size;
  stop = stride > 0 ? Clamp(stop, 0, size) : Clamp(stop, -1, size - 1);
  if (Bit(p.end_mask, axis)) stop = stride > 0 ? size : -1;
  return stop;
}

// Prepare's per-axis range (TFLM's StartForAxis / StopForAxis).
int64_t CheckStart(const StridedSliceOpData& p, const int32_t* shape, int axis) {
  const int64_t size = shape[axis];
  if (size == 0) return 0;
  const int64_t stride = p.strides[axis];
  int64_t start = p.start_indices[axis];
  if (Bit(p.begin_mask, axis)) start = stride > 0 ? INT32_MIN : INT32_MAX;
  if (start < 0) start += size;
  return stride > 0 ? Clamp(start, 0, size) : Clamp(start, -1, size - 1);
}

int64_t CheckStop(const StridedSliceOpData& p, const int32_t* shape, int axis, int64_t start) {
  const int64_t size = shape[axis];
  if (size == 0) return 0;
  if (Bit(p.shrink_axis_mask, axis)) return start + 1;
  const int64_t stride = p.strides[axis];
  int64_t stop = p.stop_indices[axis];
  if (Bit(p.end_mask, axis)) stop = stride > 0 ? INT32_MAX : INT32_MIN;
  if (stop < 0) stop += size;
  return stride > 0 ? Clamp(stop, 0, size) : Clamp(stop, -1, size - 1);
}

// Iterations of `for (i = start; stride > 0 ? i < stop : i > stop; i += stride)`.
int64_t Steps(int64_t start, int64_t stop, int64_t stride) {
  if (stride > 0) return stop > start ? (stop - start + stride - 1) / stride : 0;
  return start > stop ? (start - stop + (-stride) - 1) / (-stride) : 0;
}

// The OpData padded to 5 dimensions and the input shape extended likewise.
void PadTo5(const StridedSliceOpData& in, const int32_t* input_shape, int rank,
            StridedSliceOpData* out, int32_t* shape5) {
  const int pad = kStridedSliceMaxDims - rank;
  *out = in;
  for (int i = 0; i < kStridedSliceMaxDims; ++i) {
    const bool padded = i < pad;
    out->start_indices[i] = padded ? 0 : in.start_indices[i - pad];
    out->stop_indices[i] = padded ? 1 : in.stop_indices[i - pad];
    out->strides[i] = padded ? 1 : in.strides[i - pad];
    shape5[i] = padded ? 1 : input_shape[i - pad];
  }
  const uint32_t low = (1u << pad) - 1u;
  out->shrink_axis_mask = static_cast<uint16_t>(in.shrink_axis_mask << pad);
  out->begin_mask = static_cast<uint16_t>((in.begin_mask << pad) | low);
  out->end_mask = static_cast<uint16_t>((in.end_mask << pad) | low);
  out->start_indices_count = out->stop_indices_count = out->strides_count = kStridedSliceMaxDims;
}

}  // namespace

Status PrepareStridedSlice(const int32_t* input_shape, int rank, const int32_t* begin,
                           const int32_t* end, const int32_t* strides,
                           const StridedSliceOptions& options, const int32_t* output_shape,
                           int output_rank, uint64_t output_count, StridedSliceOpData* data) {
  if (rank > kStridedSliceMaxInputRank) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input rank %d, at most %d supported", kOp,
                         rank, kStridedSliceMaxInputRank);
  }
  StridedSliceOpData p;
  p.start_indices_count = p.stop_indices_count = p.strides_count = static_cast<int8_t>(rank);
  for (int i = 0; i < rank; ++i) {
    p.start_indices[i] = begin[i];
    p.stop_indices[i] = end[i];
    p.strides[i] = strides[i];
  }
  // TFLM stores the int masks in uint16 fields (truncating).
  p.begin_mask = static_cast<uint16_t>(options.begin_mask);
  p.end_mask = static_cast<uint16_t>(options.end_mask);
  p.shrink_axis_mask = static_cast<uint16_t>(options.shrink_axis_mask);
  int kept = 0;
  for (int axis = 0; axis < rank; ++axis) {
    const int64_t stride = p.strides[axis];
    if (stride == 0) {
      return Status::Error(StatusCode::kInvalidArgument, "%s: stride of axis %d is 0", kOp, axis);
    }
    const int64_t start = CheckStart(p, input_shape, axis);
    int64_t stop = CheckStop(p, input_shape, axis, start);
    const bool shrink = Bit(p.shrink_axis_mask, axis);
    if (shrink) stop = start + 1;
    const int64_t extent = Steps(start, stop, stride);
    if (shrink) continue;
    if (kept >= output_rank || output_shape[kept] != extent) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: output dimension %d should be %lld (axis %d of the input)", kOp,
                           kept, static_cast<long long>(extent), axis);
    }
    ++kept;
  }
  if (kept != output_rank) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: output has rank %d, the slice %d", kOp,
                         output_rank, kept);
  }
  // What invoke will write must fit the output.
  StridedSliceOpData p5;
  int32_t shape5[kStridedSliceMaxDims];
  PadTo5(p, input_shape, rank, &p5, shape5);
  uint64_t written = 1;
  for (int axis = 0; axis < kStridedSliceMaxDims; ++axis) {
    const int64_t start = EvalStart(p5, shape5, axis);
    written *=
        static_cast<uint64_t>(Steps(start, EvalStop(p5, shape5, axis, start), p5.strides[axis]));
  }
  if (written > output_count) {
    return Status::Error(
        StatusCode::kInvalidArgument, "%s: the slice has %llu elements, the output only %llu", kOp,
        static_cast<unsigned long long>(written), static_cast<unsigned long long>(output_count));
  }
  *data = p;
  return Status::Ok();
}

namespace {

// The walk, typed so that single elements are plain loads and stores.
template <typename T>
size_t Walk(const StridedSliceOpData& p, const int32_t* shape, const T* input, T* output) {
  int64_t start[kStridedSliceMaxDims], stop[kStridedSliceMaxDims], step[kStridedSliceMaxDims];
  for (int axis = 0; axis < kStridedSliceMaxDims; ++axis) {
    start[axis] = EvalStart(p, shape, axis);
    stop[axis] = EvalStop(p, shape, axis, start[axis]);
    step[axis] = p.strides[axis];
  }
  // Element strides of the input (row-major).
  int64_t pitch[kStridedSliceMaxDims];
  pitch[4] = 1;
  for (int axis = 3; axis >= 0; --axis) pitch[axis] = pitch[axis + 1] * shape[axis + 1];
  const int64_t n4 = Steps(start[4], stop[4], step[4]);
  T* out = output;
  auto in_range = [](int64_t i, int64_t s, int64_t st) { return st > 0 ? i < s : i > s; };
  for (int64_t i0 = start[0]; in_range(i0, stop[0], step[0]); i0 += step[0]) {
    for (int64_t i1 = start[1]; in_range(i1, stop[1], step[1]); i1 += step[1]) {
      for (int64_t i2 = start[2]; in_range(i2, stop[2], step[2]); i2 += step[2]) {
        for (int64_t i3 = start[3]; in_range(i3, stop[3], step[3]); i3 += step[3]) {
          const T* row = input + (i0 * pitch[0] + i1 * pitch[1] + i2 * pitch[2] + i3 * pitch[3]);
          if (step[4] == 1) {
            // Contiguous run: one copy.
            if (n4 > 0) {
              std::memcpy(out, row + start[4], static_cast<size_t>(n4) * sizeof(T));
              out += n4;
            }
          } else {
            // n4 elements (Steps counts exactly the loop's iterations).
            const T* src = row + start[4];
            for (int64_t j = 0; j < n4; ++j) out[j] = src[j * step[4]];
            out += n4;
          }
        }
      }
    }
  }
  return static_cast<size_t>(out - output);
}

}  // namespace

size_t StridedSliceCopy(const StridedSliceOpData& data, const int32_t* input_shape, int rank,
                        size_t element_bytes, const uint8_t* input, uint8_t* output) {
  StridedSliceOpData p;
  int32_t shape[kStridedSliceMaxDims];
  PadTo5(data, input_shape, rank, &p, shape);
  switch (element_bytes) {
    case 1:
      return Walk(p, shape, input, output);
    case 2:
      return Walk(p, shape, reinterpret_cast<const uint16_t*>(input),
                  reinterpret_cast<uint16_t*>(output));
    case 4:
      return Walk(p, shape, reinterpret_cast<const uint32_t*>(input),
                  reinterpret_cast<uint32_t*>(output));
    default:
      return 0;
  }
}

}  // namespace runtime
}  // namespace tflm_arena
