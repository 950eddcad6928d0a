// The byte prefix both model writers build (offline_plan_writer.cc,
// operator_order_writer.cc): new root tables written before the original
// flatbuffer, which is appended unchanged. Flatbuffer uoffsets only point
// forward, so tables here may point at anything after them, including the
// original bytes. Little-endian, host code.
#ifndef TFLM_ARENA_MODEL_PREFIX_BUILDER_H_
#define TFLM_ARENA_MODEL_PREFIX_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace model {

class PrefixBuilder {
 public:
  size_t pos() const { return bytes_.size(); }
  void Align(size_t a) { bytes_.resize((bytes_.size() + a - 1) / a * a, 0); }
  template <typename T>
  size_t Put(T v) {
    const size_t at = bytes_.size();
    bytes_.resize(at + sizeof(T));
    std::memcpy(bytes_.data() + at, &v, sizeof(T));
    return at;
  }
  template <typename T>
  void PutAt(size_t at, T v) {
    std::memcpy(bytes_.data() + at, &v, sizeof(T));
  }
  // The uoffset stored at `slot` now points to `target` (target > slot).
  void Link(size_t slot, size_t target) {
    PutAt<uint32_t>(slot, static_cast<uint32_t>(target - slot));
  }
  // Writes a vtable + table of 4-byte fields; returns the table and the slot
  // of each field in `slots`. Fields whose bit in `present` is clear are
  // marked absent in the vtable (their slot is still written, as padding).
  size_t Table(size_t nfields, size_t* slots, uint32_t present = ~0u) {
    Align(4);
    const size_t vt = Put<uint16_t>(static_cast<uint16_t>(4 + 2 * nfields));
    Put<uint16_t>(static_cast<uint16_t>(4 + 4 * nfields));
    for (size_t i = 0; i < nfields; ++i) {
      Put<uint16_t>((present >> i) & 1u ? static_cast<uint16_t>(4 + 4 * i) : 0);
    }
    Align(4);
    const size_t table = Put<int32_t>(static_cast<int32_t>(pos() - vt));
    for (size_t i = 0; i < nfields; ++i) slots[i] = Put<uint32_t>(0);
    return table;
  }
  // A vector of `n` uoffsets (all 0 until linked); returns the slot of element 0.
  size_t Vector(size_t n) {
    Align(4);
    Put<uint32_t>(static_cast<uint32_t>(n));
    const size_t first = pos();
    for (size_t i = 0; i < n; ++i) Put<uint32_t>(0);
    return first;
  }
  std::vector<uint8_t>& bytes() { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
};

inline Status MalformedForRewrite(const char* what) {
  return Status::Error(StatusCode::kInvalidArgument, "cannot rewrite model: %s", what);
}

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_PREFIX_BUILDER_H_
