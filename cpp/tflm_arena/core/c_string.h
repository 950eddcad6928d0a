// NUL-terminated string equality without libc (the runtime links no strcmp:
// see benchmarks/README.md, "Code size, TFLM's way").
#ifndef TFLM_ARENA_CORE_C_STRING_H_
#define TFLM_ARENA_CORE_C_STRING_H_

namespace tflm_arena {

inline bool SameCString(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) ++a, ++b;
  return *a == *b;
}

}  // namespace tflm_arena

#endif  // TFLM_ARENA_CORE_C_STRING_H_
