#include "tflm_arena/plan/offset_sort.h"

#include <algorithm>
#include <utility>

namespace tflm_arena {
namespace plan_internal {

uint64_t* SortByOffset(uint64_t* keys, uint64_t* tmp, size_t count) {
  if (count < 64) {
    std::sort(keys, keys + count);
    return keys;
  }
  const uint32_t first = static_cast<uint32_t>(keys[0] >> 32);
  uint32_t differ = 0;
  for (size_t i = 0; i < count; ++i) differ |= static_cast<uint32_t>(keys[i] >> 32) ^ first;
  if (differ == 0) return keys;  // one offset: any order will do
  const int low = __builtin_ctz(differ);
  const int width = 32 - __builtin_clz(differ) - low;
  const int passes = (width + 7) / 8;
  const int bits = (width + passes - 1) / passes;
  const uint32_t mask = (1u << bits) - 1;
  uint32_t start[4][256];
  for (int p = 0; p < passes; ++p) std::fill(start[p], start[p] + mask + 1, 0u);
  for (size_t i = 0; i < count; ++i) {
    const uint32_t offset = static_cast<uint32_t>(keys[i] >> 32) >> low;
    for (int p = 0; p < passes; ++p) ++start[p][(offset >> (p * bits)) & mask];
  }
  for (int p = 0; p < passes; ++p) {
    uint32_t sum = 0;
    for (uint32_t d = 0; d <= mask; ++d) {
      const uint32_t here = start[p][d];
      start[p][d] = sum;
      sum += here;
    }
    const int shift = 32 + low + p * bits;
    for (size_t i = 0; i < count; ++i) tmp[start[p][(keys[i] >> shift) & mask]++] = keys[i];
    std::swap(keys, tmp);
  }
  return keys;
}

}  // namespace plan_internal
}  // namespace tflm_arena
