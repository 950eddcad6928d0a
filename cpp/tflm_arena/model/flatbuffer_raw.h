// Bounds-checked reads of raw flatbuffer structures (tables, vtables,
// vectors), for the model writers (offline_plan_writer.cc,
// operator_order_writer.cc), which must handle fields our schema subset does
// not name. Every accessor fails softly: out-of-range reads report an error
// instead of touching memory outside the buffer.
#ifndef TFLM_ARENA_MODEL_FLATBUFFER_RAW_H_
#define TFLM_ARENA_MODEL_FLATBUFFER_RAW_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace tflm_arena {
namespace model {
namespace internal {

class RawReader {
 public:
  RawReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool ok() const { return ok_; }
  size_t size() const { return size_; }

  template <typename T>
  T Read(size_t pos) {
    T v{};
    if (!ok_ || pos > size_ || sizeof(T) > size_ - pos) {
      ok_ = false;
      return v;
    }
    std::memcpy(&v, data_ + pos, sizeof(T));  // little-endian hosts only
    return v;
  }
  // Position of the table that a uoffset at `pos` points to.
  size_t Deref(size_t pos) { return pos + Read<uint32_t>(pos); }
  size_t Root() { return Deref(0); }
  // Number of field slots in a table's vtable.
  size_t FieldCount(size_t table) {
    size_t vt = VTable(table);
    uint16_t vt_bytes = Read<uint16_t>(vt);
    return vt_bytes < 4 ? 0 : (vt_bytes - 4) / 2;
  }
  // Position of field `id` inside `table`, or 0 when absent.
  size_t Field(size_t table, size_t id) {
    if (id >= FieldCount(table)) return 0;
    uint16_t off = Read<uint16_t>(VTable(table) + 4 + 2 * id);
    return off == 0 ? 0 : table + off;
  }
  // Target of an offset field (vector, string, table), or 0 when absent.
  size_t FieldTarget(size_t table, size_t id) {
    size_t f = Field(table, id);
    return f == 0 ? 0 : Deref(f);
  }
  uint32_t VectorLength(size_t vec) { return vec == 0 ? 0 : Read<uint32_t>(vec); }
  // Position of the i-th table of a vector of tables.
  size_t VectorTable(size_t vec, size_t i) { return Deref(vec + 4 + 4 * i); }

 private:
  size_t VTable(size_t table) {
    int32_t soff = Read<int32_t>(table);
    int64_t vt = static_cast<int64_t>(table) - soff;
    if (vt < 0 || static_cast<uint64_t>(vt) >= size_) {
      ok_ = false;
      return 0;
    }
    return static_cast<size_t>(vt);
  }

  const uint8_t* data_;
  size_t size_;
  bool ok_ = true;
};

}  // namespace internal
}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_FLATBUFFER_RAW_H_
