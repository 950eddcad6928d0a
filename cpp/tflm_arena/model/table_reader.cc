#include "tflm_arena/model/table_reader.h"

namespace tflm_arena {
namespace model {
namespace internal {

// A table starts with an int32 offset back to its vtable: uint16 vtable
// bytes, uint16 table bytes, then one uint16 field offset per field.
const uint8_t* FieldAddress(Table table, unsigned vt) {
  const uint8_t* vtable = table - Load<int32_t>(table);
  if (vt >= Load<uint16_t>(vtable)) return nullptr;
  const uint16_t offset = Load<uint16_t>(vtable + vt);
  return offset == 0 ? nullptr : table + offset;
}

const uint8_t* RefField(Table table, unsigned vt) {
  const uint8_t* field = FieldAddress(table, vt);
  return field == nullptr ? nullptr : field + Load<uint32_t>(field);
}

uint32_t U32Field(Table table, unsigned vt, uint32_t def) {
  const uint8_t* field = FieldAddress(table, vt);
  return field == nullptr ? def : Load<uint32_t>(field);
}

uint64_t U64Field(Table table, unsigned vt) {
  const uint8_t* field = FieldAddress(table, vt);
  return field == nullptr ? 0 : Load<uint64_t>(field);
}

int8_t I8Field(Table table, unsigned vt) {
  const uint8_t* field = FieldAddress(table, vt);
  return field == nullptr ? int8_t{0} : Load<int8_t>(field);
}

size_t VectorField(Table table, unsigned vt, const uint8_t** data) {
  const uint8_t* vec = RefField(table, vt);
  const size_t n = vec == nullptr ? 0 : Load<uint32_t>(vec);
  *data = n == 0 ? nullptr : vec + 4;
  return n;
}

const char* StringField(Table table, unsigned vt) {
  const uint8_t* s = RefField(table, vt);
  return s == nullptr ? "" : reinterpret_cast<const char*>(s + 4);
}

Table TableAt(const uint8_t* data, size_t i) {
  const uint8_t* slot = data + 4 * i;
  return slot + Load<uint32_t>(slot);
}

Table TableField(Table table, unsigned vt, size_t i) {
  const uint8_t* data = nullptr;
  if (i >= VectorField(table, vt, &data)) return nullptr;  // out of range: no table
  return TableAt(data, i);
}

}  // namespace internal
}  // namespace model
}  // namespace tflm_arena
