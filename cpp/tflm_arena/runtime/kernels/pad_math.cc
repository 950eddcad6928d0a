// PAD / PADV2 math (see pad.h).
#include <cstring>

#include "tflm_arena/runtime/kernels/pad.h"

namespace tflm_arena {
namespace runtime {
namespace {

template <typename T>
void Fill(T* out, size_t n, T value) {
  for (size_t i = 0; i < n; ++i) out[i] = value;
}

// The 5D walk: rows along the last axis are copied or filled whole.
template <typename T>
void PadWalk(const int32_t* left, const int32_t* right, const int32_t* in_shape, const T* in, T pad,
             T* out) {
  int32_t out_shape[kPadMaxDims];
  for (int i = 0; i < kPadMaxDims; ++i) out_shape[i] = in_shape[i] + left[i] + right[i];
  const size_t row = static_cast<size_t>(out_shape[4]);
  const size_t in_row = static_cast<size_t>(in_shape[4]);
  for (int32_t b = 0; b < out_shape[0]; ++b) {
    const bool pb = b < left[0] || b >= out_shape[0] - right[0];
    for (int32_t p = 0; p < out_shape[1]; ++p) {
      const bool pp = pb || p < left[1] || p >= out_shape[1] - right[1];
      for (int32_t h = 0; h < out_shape[2]; ++h) {
        const bool ph = pp || h < left[2] || h >= out_shape[2] - right[2];
        for (int32_t w = 0; w < out_shape[3]; ++w) {
          if (ph || w < left[3] || w >= out_shape[3] - right[3]) {
            Fill(out, row, pad);
          } else {
            Fill(out, static_cast<size_t>(left[4]), pad);
            std::memcpy(out + left[4], in, in_row * sizeof(T));
            Fill(out + left[4] + in_row, static_cast<size_t>(right[4]), pad);
            in += in_row;
          }
          out += row;
        }
      }
    }
  }
}

}  // namespace

Status PreparePad(const char* op, const int32_t* input_shape, int rank, const int32_t* output_shape,
                  int output_rank, const int32_t* paddings, size_t paddings_count,
                  PadOpData* data) {
  if (rank > kPadMaxDims) {
    return Status::Error(StatusCode::kUnimplemented, "%s: input rank %d, at most %d supported", op,
                         rank, kPadMaxDims);
  }
  if (output_rank != rank) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: output rank %d, input rank %d", op,
                         output_rank, rank);
  }
  if (paddings_count != 2 * static_cast<size_t>(rank)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: paddings has %zu entries, needs %d (2 per dimension)", op,
                         paddings_count, 2 * rank);
  }
  PadOpData d;
  d.left_padding_count = d.right_padding_count = static_cast<int8_t>(rank);
  for (int i = 0; i < rank; ++i) {
    const int32_t* pair = paddings + 2 * static_cast<size_t>(i);
    const int32_t l = pair[0], r = pair[1];
    if (l < 0 || r < 0) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: negative padding (%d, %d) on dimension %d", op, l, r, i);
    }
    const int64_t want = static_cast<int64_t>(input_shape[i]) + l + r;
    if (output_shape[i] != want) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: output dimension %d is %d, input + paddings make %lld", op, i,
                           output_shape[i], static_cast<long long>(want));
    }
    d.left_padding[i] = l;
    d.right_padding[i] = r;
  }
  const bool image_style =
      rank == 4 && paddings[0] == 0 && paddings[1] == 0 && paddings[6] == 0 && paddings[7] == 0;
  d.resizing_category = image_style ? 1 : 2;
  d.output_zero_point = data->output_zero_point;
  *data = d;
  return Status::Ok();
}

void PadCopy(const PadOpData& data, const int32_t* input_shape, int rank, size_t element_bytes,
             const uint8_t* input, const void* pad_value, uint8_t* output) {
  // Extend to 5 dimensions with leading unpadded 1s.
  int32_t left[kPadMaxDims] = {}, right[kPadMaxDims] = {}, shape[kPadMaxDims];
  const int lead = kPadMaxDims - rank;
  for (int i = 0; i < kPadMaxDims; ++i) {
    shape[i] = i < lead ? 1 : input_shape[i - lead];
    if (i >= lead) {
      left[i] = data.left_padding[i - lead];
      right[i] = data.right_padding[i - lead];
    }
  }
  // Unpadded trailing dimensions join the innermost padded one, so that rows
  // are long (seanet_pad0 pads [1, 2, 160, 2] along 160: rows of 2
  // elements become rows of 320). Same output, fewer, longer copies.
  int d = kPadMaxDims - 1;
  int64_t joined = 1;
  while (d > 0 && left[d] == 0 && right[d] == 0) joined *= shape[d--];
  if (joined > 1) {
    const int shift = kPadMaxDims - 1 - d;
    for (int i = kPadMaxDims - 1; i >= 0; --i) {
      const int from = i - shift;
      const bool inside = from >= 0;
      const int64_t scale = from == d ? joined : 1;
      shape[i] = inside ? static_cast<int32_t>(shape[from] * scale) : 1;
      left[i] = inside ? static_cast<int32_t>(left[from] * scale) : 0;
      right[i] = inside ? static_cast<int32_t>(right[from] * scale) : 0;
    }
  }
  switch (element_bytes) {
    case 1: {
      uint8_t v;
      std::memcpy(&v, pad_value, 1);
      PadWalk(left, right, shape, input, v, output);
      break;
    }
    case 2: {
      uint16_t v;
      std::memcpy(&v, pad_value, 2);
      PadWalk(left, right, shape, reinterpret_cast<const uint16_t*>(input), v,
              reinterpret_cast<uint16_t*>(output));
      break;
    }
    case 4: {
      uint32_t v;
      std::memcpy(&v, pad_value, 4);
      PadWalk(left, right, shape, reinterpret_cast<const uint32_t*>(input), v,
              reinterpret_cast<uint32_t*>(output));
      break;
    }
    default:
      break;
  }
}

}  // namespace runtime
}  // namespace tflm_arena
