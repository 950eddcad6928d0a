// One operator's builtin options table, as the model stores it, plus the
// format's enums that several option tables share. The model reader does not
// decode options: each kernel decodes its own table into its own struct
// (KernelRegistration::options, TFLM's ParseX functions), so adding an
// operator never touches the reader.
//
// The verifier only checks option tables our schema subset declares; any
// other table (e.g. LeakyReluOptions) may hold anything. So every read here
// is bounds-checked against the model buffer and fails softly: an
// out-of-range read yields the default and marks the table malformed
// (ok() == false), which the caller turns into an error.
#ifndef TFLM_ARENA_MODEL_BUILTIN_OPTIONS_H_
#define TFLM_ARENA_MODEL_BUILTIN_OPTIONS_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/model/builtin_options_list.h"

namespace tflm_arena {
namespace model {

// Values fixed by the format (enum Padding, enum ActivationFunctionType of
// tflite_subset.fbs; builtin_options.cc checks them against the generated
// code, and Python reads the schema's tables through the bindings).
enum class Padding : uint8_t { kSame = 0, kValid = 1 };
enum class Activation : uint8_t {
  kNone = 0,
  kRelu = 1,
  kReluN1To1 = 2,
  kRelu6 = 3,
  kTanh = 4,
  kSignBit = 5
};

// The BuiltinOptions union ordinal of a table (format values, e.g.
// Conv2DOptions = 1); 0 = no table.
using OptionsType = uint8_t;

namespace internal {
// Position in builtin_options_list.h = the format's ordinal (NONE is 0).
enum OptionsIndex : OptionsType {
  kOptionsIndexNONE,
#define TFLM_ARENA_OPTIONS_INDEX(name) kOptionsIndex##name,
  TFLM_ARENA_BUILTIN_OPTIONS(TFLM_ARENA_OPTIONS_INDEX)
#undef TFLM_ARENA_OPTIONS_INDEX
      kOptionsIndexCount
};
}  // namespace internal

// One constant per member of the union (kConv2DOptions = 1, kPool2DOptions
// = 5, kLeakyReluOptions = 75, ...). Kernels use these, never literals.
constexpr OptionsType kNoOptions = internal::kOptionsIndexNONE;
#define TFLM_ARENA_OPTIONS_CONSTANT(name) \
  constexpr OptionsType k##name = internal::kOptionsIndex##name;
TFLM_ARENA_BUILTIN_OPTIONS(TFLM_ARENA_OPTIONS_CONSTANT)
#undef TFLM_ARENA_OPTIONS_CONSTANT

// Number of ordinals in the list (0 .. kNumOptionsTypes-1, NONE included).
constexpr OptionsType kNumOptionsTypes = internal::kOptionsIndexCount;

namespace internal {
inline constexpr const char* kOptionsTypeNames[] = {
    "NONE",
#define TFLM_ARENA_OPTIONS_NAME(name) #name,
    TFLM_ARENA_BUILTIN_OPTIONS(TFLM_ARENA_OPTIONS_NAME)
#undef TFLM_ARENA_OPTIONS_NAME
};
static_assert(sizeof(kOptionsTypeNames) / sizeof(kOptionsTypeNames[0]) == kNumOptionsTypes,
              "name table and kNumOptionsTypes disagree");
}  // namespace internal

// Schema name of an ordinal ("Conv2DOptions"; "NONE" for 0), nullptr when
// newer than the list. constexpr, so a kernel registration that names its
// table this way stores only the one string it uses.
constexpr const char* OptionsTypeName(OptionsType type) {
  return type < kNumOptionsTypes ? internal::kOptionsTypeNames[type] : nullptr;
}

class OptionsTable {
 public:
  OptionsTable() = default;  // absent
  // `table` is the table's byte position inside data[0, size).
  OptionsTable(const uint8_t* data, size_t size, size_t table, OptionsType type)
      : data_(data), size_(size), table_(table), type_(type) {}

  bool present() const { return data_ != nullptr; }
  OptionsType type() const { return type_; }
  // False once any read went outside the model buffer.
  bool ok() const { return ok_; }

  // Field `id` (its declaration position in the table), or `def` when the
  // field is absent (the format's default).
  int32_t Int32(size_t id, int32_t def);
  float Float(size_t id, float def);
  uint8_t UInt8(size_t id, uint8_t def);  // byte enums
  int8_t Int8(size_t id, int8_t def);
  bool Bool(size_t id, bool def) { return UInt8(id, def ? 1 : 0) != 0; }
  // A [int] vector field, pointing into the model. False when the field is
  // absent; an out-of-range or misaligned vector marks the table malformed.
  bool Int32Vector(size_t id, Span<const int32_t>* out);
  // A string field, pointing into the model (without its terminating NUL).
  // False when absent; a string that leaves the buffer or lacks its NUL
  // marks the table malformed.
  bool String(size_t id, Span<const char>* out);

 private:
  // Byte position of field `id` (`bytes` wide), 0 when absent or unreadable.
  size_t Field(size_t id, size_t bytes);
  // The [uint32 length, elements...] a vector or string field points at:
  // its first element's position and its length (elements unchecked);
  // false when absent or when the header leaves the buffer (malformed).
  bool Vector(size_t id, size_t* first, uint32_t* length);
  template <typename T>
  T Read(size_t pos, T def);

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t table_ = 0;
  OptionsType type_ = 0;
  bool ok_ = true;
};

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_BUILTIN_OPTIONS_H_
