// Alignment helpers (TFLM's memory_helpers semantics: round up / down to a
// power-of-two or any positive alignment).
#ifndef TFLM_ARENA_CORE_ALIGN_H_
#define TFLM_ARENA_CORE_ALIGN_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {

// TFLM's MicroArenaBufferAlignment(): every planned size and the arena start.
constexpr size_t kArenaAlignment = 16;

constexpr size_t AlignSizeUp(size_t size, size_t alignment) {
  return ((size + alignment - 1) / alignment) * alignment;
}
constexpr size_t AlignSizeDown(size_t size, size_t alignment) {
  return (size / alignment) * alignment;
}
// The pointer moves by an offset (no integer-to-pointer cast), so it keeps
// pointing into the same buffer.
inline uint8_t* AlignPointerUp(uint8_t* p, size_t alignment) {
  const uintptr_t v = reinterpret_cast<uintptr_t>(p);
  return p + (alignment - v % alignment) % alignment;
}
inline uint8_t* AlignPointerDown(uint8_t* p, size_t alignment) {
  const uintptr_t v = reinterpret_cast<uintptr_t>(p);
  return p - v % alignment;
}
// True when adding would not overflow size_t.
constexpr bool AddFits(size_t a, size_t b) { return a <= SIZE_MAX - b; }

}  // namespace tflm_arena

#endif  // TFLM_ARENA_CORE_ALIGN_H_
