// FlexbufferMap: the custom options of a custom operator, read the way TFLM
// reads them (tensorflow/lite/micro/flatbuffer_utils.h, FlexbufferWrapper),
// with every byte checked against the buffer.
//
// The flexbuffer format, as used here (facts from the FlexBuffers format
// description in the flatbuffers documentation, "FlexBuffers" internals):
//  - the buffer ends with the root: its last byte is the root's width W in
//    bytes (1, 2, 4 or 8), the byte before it the root's packed type, the W
//    bytes before that the root value;
//  - a packed type is (type << 2) | log2(width of the element it points at);
//    types used here: INT 1, UINT 2, FLOAT 3, MAP 9, BOOL 26;
//  - offsets are unsigned and counted backwards from where they are stored;
//  - a map of N elements of width w at position p: its values at p + i*w,
//    their packed types (one byte each) at p + N*w + i, N at p - w, the
//    keys vector's width at p - 2w and its offset at p - 3w; the keys vector
//    holds N offsets to NUL-terminated strings, sorted.
//
// TFLM reads an option by its position among the sorted keys (the kernel's
// constant "kShiftIndex = 0; // 'shift'"), as a signed integer of the map's
// element width, whatever the element's type. We read the same bits, and
// also check the key at that position and that the element is an inline
// integer or bool, so that a model whose keys differ is a named error
// instead of a silently different option.
//
// Runtime code: no heap, no exceptions.
#ifndef TFLM_ARENA_MODEL_FLEXBUFFER_MAP_H_
#define TFLM_ARENA_MODEL_FLEXBUFFER_MAP_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace model {

class FlexbufferMap {
 public:
  // kInvalidArgument (prefixed "`op`: custom options ...") unless `bytes` is
  // a flexbuffer whose root is a map with its keys, values and types inside
  // the buffer.
  static Status Parse(const char* op, Span<const uint8_t> bytes, FlexbufferMap* out);

  size_t size() const { return count_; }

  // Element `index` as TFLM's ElementAsInt32 reads it; its key must be
  // `key` and it must be an inline INT, UINT or BOOL whose value fits
  // int32 (TFLM would truncate it).
  Status Int32At(size_t index, const char* key, int32_t* out) const;
  // Element `index` as TFLM's ElementAsBool reads it (non-zero is true).
  Status BoolAt(size_t index, const char* key, bool* out) const;
  // The element whose key is `key` (TFLM's map["T"].AsInt32()).
  Status Int32ByKey(const char* key, int32_t* out) const;
  // The key of element `index < size()`: NUL-terminated inside the buffer
  // (Parse checked every key); nullptr past the end.
  const char* KeyAt(size_t index) const;

 private:
  Status Element(size_t index, const char* key, int64_t* value) const;

  const char* op_ = "";
  const uint8_t* data_ = nullptr;
  size_t bytes_ = 0;
  size_t values_ = 0;  // position of the first value
  size_t count_ = 0;
  size_t width_ = 1;      // the map's element width
  size_t keys_ = 0;       // position of the keys vector
  size_t key_width_ = 1;  // its element width
};

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_FLEXBUFFER_MAP_H_
