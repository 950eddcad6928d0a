// Names of an enum's values as a table, one {value, name} row per value,
// looked up by a loop: the one way status codes, schema enums and strategy
// kinds are named. No heap; usable in runtime code. A table has no
// exhaustiveness check, so each table's test names every value.
#ifndef TFLM_ARENA_CORE_ENUM_NAMES_H_
#define TFLM_ARENA_CORE_ENUM_NAMES_H_

#include <cstddef>

namespace tflm_arena {

template <typename E>
struct EnumName {
  E value;
  const char* name;
};

// The name of `value` in `names`, or `unknown` when no row has it.
// Example: NameOf(kCodeNames, StatusCode::kOk, "UNKNOWN") -> "OK".
template <typename E, size_t N>
const char* NameOf(const EnumName<E> (&names)[N], E value, const char* unknown) {
  for (const EnumName<E>& row : names) {
    if (row.value == value) return row.name;
  }
  return unknown;
}

}  // namespace tflm_arena

#endif  // TFLM_ARENA_CORE_ENUM_NAMES_H_
