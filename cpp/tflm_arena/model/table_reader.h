// Internal to model/: field reads on a model FromBuffer verified (or a
// caller vouched for, FromTrustedBuffer), for Model's accessors.
//
// Why not the flatc-generated accessors: each generated accessor and each
// GetPointer<T> / GetField<T> instantiation is a function of its own, and a
// vector field costs a pointer, a null test and a span copy at every call
// site. These few out-of-line helpers take the field's vtable offset (the
// generated VT_* constants: one source for the layout) and write spans
// directly: 448 bytes less flash on Cortex-M3 for the same reads.
//
// No bounds checks: the verifier (or the caller) guaranteed every offset.
// Little-endian only (asserted below).
#ifndef TFLM_ARENA_MODEL_TABLE_READER_H_
#define TFLM_ARENA_MODEL_TABLE_READER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "tflm_arena/core/span.h"

namespace tflm_arena {
namespace model {
namespace internal {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the model format is little-endian; so must the host be");

using Table = const uint8_t*;

// A little-endian scalar at `p`, any alignment (memcpy of a constant size
// compiles to one load).
template <typename T>
inline T Load(const uint8_t* p) {
  T v;
  memcpy(&v, p, sizeof(T));
  return v;
}

// Address of field `vt` of `table`, or null when the field is absent.
const uint8_t* FieldAddress(Table table, unsigned vt);
// Target of an offset field (table, vector, string), or null when absent.
const uint8_t* RefField(Table table, unsigned vt);
// Scalar fields; `def` when absent (the schema's default).
uint32_t U32Field(Table table, unsigned vt, uint32_t def);
uint64_t U64Field(Table table, unsigned vt);  // default 0
int8_t I8Field(Table table, unsigned vt);     // default 0 (bools, byte enums)
// Length of a vector field (0 when absent); *data = its first element (null
// when absent or empty).
size_t VectorField(Table table, unsigned vt, const uint8_t** data);
// String field's characters, "" when absent.
const char* StringField(Table table, unsigned vt);
// Element `i` of a vector of tables (elements start at `data`).
Table TableAt(const uint8_t* data, size_t i);
// Element `i` of the vector-of-tables field `vt` (i must be in range; null
// when it is not).
Table TableField(Table table, unsigned vt, size_t i);

// Two format rules, shared with the validation code (schema_access.h):
// an operator code's builtin is max(deprecated byte field, int32 field)
// (old writers fill only the byte, new ones the int32 and a placeholder
// byte); a buffer's offset/size mean "data outside the flatbuffer" only
// when offset > 1 (0 and 1 are converters' placeholders).
inline int32_t ResolveBuiltinCode(int32_t deprecated, int32_t current) {
  return deprecated > current ? deprecated : current;
}
inline bool IsExternalOffset(uint64_t offset) { return offset > 1; }

template <typename T>
inline Span<const T> SpanField(Table table, unsigned vt) {
  const uint8_t* data = nullptr;
  const size_t n = VectorField(table, vt, &data);
  return Span<const T>(reinterpret_cast<const T*>(data), n);
}

}  // namespace internal
}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_TABLE_READER_H_
