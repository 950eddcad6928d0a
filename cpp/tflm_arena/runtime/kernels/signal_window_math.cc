#include "tflm_arena/runtime/kernels/signal_window.h"

namespace tflm_arena {
namespace runtime {

void SignalWindowApply(const int16_t* input, const int16_t* window, size_t size, int shift,
                       int16_t* output) {
  for (size_t i = 0; i < size; ++i) {
    const int32_t raw = (static_cast<int32_t>(input[i]) * window[i]) >> shift;
    output[i] = static_cast<int16_t>(raw < INT16_MIN   ? INT16_MIN
                                     : raw > INT16_MAX ? INT16_MAX
                                                       : raw);
  }
}

}  // namespace runtime
}  // namespace tflm_arena
