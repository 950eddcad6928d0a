// Lookup and listing for the host's name-keyed tables (layouts, build
// targets, boards): each is a constant array of rows with a `const char*
// name` field, found by exact name and listed, in order, in error messages.
#ifndef TFLM_ARENA_TFLM_NAMED_ROWS_H_
#define TFLM_ARENA_TFLM_NAMED_ROWS_H_

#include <cstddef>
#include <cstring>
#include <string>

namespace tflm_arena {
namespace tflm {

// The row of `rows` whose name is `name`, or nullptr (also for a null name).
// Example: FindByName(kBoards, "raspberry-pi-pico") -> that board's row.
template <typename Row, size_t N>
const Row* FindByName(const Row (&rows)[N], const char* name) {
  if (name == nullptr) return nullptr;
  for (const Row& row : rows) {
    if (std::strcmp(row.name, name) == 0) return &row;
  }
  return nullptr;
}

// Every row's name, in order, joined by ", ".
// Example: JoinNames(kBuildTargets) -> "cortex-m, x86-64, ...".
template <typename Row, size_t N>
std::string JoinNames(const Row (&rows)[N]) {
  std::string s;
  for (const Row& row : rows) {
    if (!s.empty()) s += ", ";
    s += row.name;
  }
  return s;
}

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_NAMED_ROWS_H_
