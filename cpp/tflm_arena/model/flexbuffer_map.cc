#include "tflm_arena/model/flexbuffer_map.h"

#include <cinttypes>

#include "tflm_arena/core/c_string.h"
namespace tflm_arena {
namespace model {
namespace {

constexpr uint8_t kTypeInt = 1;
constexpr uint8_t kTypeUInt = 2;
constexpr uint8_t kTypeMap = 9;
constexpr uint8_t kTypeBool = 26;

bool ValidWidth(uint64_t w) { return w == 1 || w == 2 || w == 4 || w == 8; }

// Little-endian unsigned of `width` bytes at data[pos]; the caller checked
// pos + width <= size.
uint64_t ReadUInt(const uint8_t* data, size_t pos, size_t width) {
  uint64_t v = 0;
  for (size_t i = 0; i < width; ++i) v |= uint64_t{data[pos + i]} << (8 * i);
  return v;
}

int64_t ReadInt(const uint8_t* data, size_t pos, size_t width) {
  const uint64_t u = ReadUInt(data, pos, width);
  if (width == 0 || width >= 8) return static_cast<int64_t>(u);  // widths are 1, 2, 4 or 8
  const uint64_t sign = uint64_t{1} << (8 * width - 1);
  return static_cast<int64_t>(u ^ sign) - static_cast<int64_t>(sign);
}

}  // namespace

Status FlexbufferMap::Parse(const char* op, Span<const uint8_t> bytes, FlexbufferMap* out) {
  const uint8_t* d = bytes.data();
  const size_t n = bytes.size();
  auto bad = [op](const char* what) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: custom options are not a flexbuffer map (%s)", op, what);
  };
  if (n < 3) return bad("shorter than 3 bytes");
  const size_t root_width = d[n - 1];
  if (!ValidWidth(root_width)) return bad("root width is not 1, 2, 4 or 8");
  if (n < 2 + root_width) return bad("root value outside the buffer");
  const uint8_t packed = d[n - 2];
  if ((packed >> 2) != kTypeMap) return bad("root is not a map");
  const size_t width = size_t{1} << (packed & 3);
  const size_t root = n - 2 - root_width;
  const uint64_t back = ReadUInt(d, root, root_width);
  if (back > root) return bad("map offset points before the buffer");
  const size_t p = root - static_cast<size_t>(back);
  if (p < 3 * width) return bad("map header outside the buffer");
  const uint64_t count = ReadUInt(d, p - width, width);
  // values (count * width) and types (count) must end inside the buffer.
  if (count > n || count * (width + 1) > n - p) return bad("map elements outside the buffer");
  const uint64_t key_width = ReadUInt(d, p - 2 * width, width);
  if (!ValidWidth(key_width)) return bad("keys width is not 1, 2, 4 or 8");
  const size_t key_field = p - 3 * width;
  const uint64_t key_back = ReadUInt(d, key_field, width);
  if (key_back > key_field) return bad("keys offset points before the buffer");
  const size_t keys = key_field - static_cast<size_t>(key_back);
  const size_t kw = static_cast<size_t>(key_width);
  if (keys < kw || count * kw > n - keys) return bad("keys outside the buffer");
  if (ReadUInt(d, keys - kw, kw) != count) return bad("keys and values differ in number");
  FlexbufferMap m;
  m.op_ = op;
  m.data_ = d;
  m.bytes_ = n;
  m.values_ = p;
  m.count_ = static_cast<size_t>(count);
  m.width_ = width;
  m.keys_ = keys;
  m.key_width_ = kw;
  for (size_t i = 0; i < m.count_; ++i) {
    if (m.KeyAt(i) == nullptr) return bad("a key lies outside the buffer");
  }
  *out = m;
  return Status::Ok();
}

const char* FlexbufferMap::KeyAt(size_t index) const {
  if (index >= count_) return nullptr;
  const size_t at = keys_ + index * key_width_;
  const uint64_t back = ReadUInt(data_, at, key_width_);
  if (back > at) return nullptr;
  const size_t start = at - static_cast<size_t>(back);
  for (size_t i = start; i < bytes_; ++i) {
    if (data_[i] == 0) return reinterpret_cast<const char*>(data_ + start);
  }
  return nullptr;  // no NUL before the end
}

Status FlexbufferMap::Element(size_t index, const char* key, int64_t* value) const {
  if (index >= count_) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: option '%s' missing from the custom options (TFLM reads it as "
                         "element %zu of the sorted keys; there are %zu)",
                         op_, key, index, count_);
  }
  const char* have = KeyAt(index);  // checked in Parse
  if (!SameCString(have, key)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: option '%s' missing from the custom options (TFLM reads it as "
                         "element %zu of the sorted keys, which is '%.40s')",
                         op_, key, index, have);
  }
  const uint8_t type = data_[values_ + count_ * width_ + index] >> 2;
  if (type != kTypeInt && type != kTypeUInt && type != kTypeBool) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: option '%s' is not an inline integer or bool (flexbuffer type %u)",
                         op_, key, static_cast<unsigned>(type));
  }
  *value = ReadInt(data_, values_ + index * width_, width_);
  return Status::Ok();
}

Status FlexbufferMap::Int32At(size_t index, const char* key, int32_t* out) const {
  int64_t v = 0;
  TFLM_ARENA_RETURN_IF_ERROR(Element(index, key, &v));
  if (v < INT32_MIN || v > INT32_MAX) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: option '%s' = %" PRId64 " does not fit int32", op_, key, v);
  }
  *out = static_cast<int32_t>(v);
  return Status::Ok();
}

Status FlexbufferMap::BoolAt(size_t index, const char* key, bool* out) const {
  int64_t v = 0;
  TFLM_ARENA_RETURN_IF_ERROR(Element(index, key, &v));
  // TFLM reads the same bits unsigned; only zero is false either way.
  *out = v != 0;
  return Status::Ok();
}

Status FlexbufferMap::Int32ByKey(const char* key, int32_t* out) const {
  for (size_t i = 0; i < count_; ++i) {
    if (SameCString(KeyAt(i), key)) return Int32At(i, key, out);
  }
  return Status::Error(StatusCode::kInvalidArgument,
                       "%s: option '%s' missing from the custom options", op_, key);
}

}  // namespace model
}  // namespace tflm_arena
