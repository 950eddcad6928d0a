// PAD and PADV2: out = the input surrounded by `paddings` (a constant INT32
// [rank, 2] tensor) filled with a pad value, for FLOAT32, INT8, INT16 and
// INT32 (TFLM's reference kernel's types), rank <= 5. Bit-exact with TFLM's
// pad.cc / pad_common.cc and reference_ops::Pad (it only moves elements).
//
// Facts reproduced:
//  - the pad value is PADV2's third input (a scalar of the input's type;
//    for INT8 with the output's scale and zero point) or, without it, 0 —
//    except INT8, which pads with the output zero point;
//  - every output extent equals input extent + left + right padding;
//  - TFLM classifies 4D paddings with no batch / channel padding as "image
//    style"; the values written are the same, the category is only stored.
// Paddings must be >= 0 here (TFLM does not check; negative ones would make
// its loop read past the input).
//
// Memory per node, as TFLM: OpData = PadParams + output zero point (56
// bytes, persistent, in init); no options struct, no scratch.
#ifndef TFLM_ARENA_RUNTIME_KERNELS_PAD_H_
#define TFLM_ARENA_RUNTIME_KERNELS_PAD_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

constexpr int kPadMaxDims = 5;

// Laid out like TFLM's pad OpData {PadParams params; int32_t
// output_zero_point;} (56 bytes).
struct PadOpData {
  int8_t left_padding_count = 0;
  int32_t left_padding[kPadMaxDims] = {};
  int8_t right_padding_count = 0;
  int32_t right_padding[kPadMaxDims] = {};
  uint8_t resizing_category = 0;  // TFLM's ResizingCategory: 1 image style, 2 generic
  int32_t output_zero_point = 0;
};
constexpr size_t kPadPersistentBytes = sizeof(PadOpData);  // 56

// Fills `data` from the paddings ([rank, 2] entries) after checking them
// against the shapes (same rank <= 5, paddings >= 0, output = input +
// paddings). `op` names the operator in messages.
Status PreparePad(const char* op, const int32_t* input_shape, int rank, const int32_t* output_shape,
                  int output_rank, const int32_t* paddings, size_t paddings_count, PadOpData* data);

// Writes the padded output; `pad_value` points to one element of
// `element_bytes` (1, 2 or 4).
void PadCopy(const PadOpData& data, const int32_t* input_shape, int rank, size_t element_bytes,
             const uint8_t* input, const void* pad_value, uint8_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_PAD_H_
