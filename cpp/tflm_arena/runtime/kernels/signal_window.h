// SignalWindow (TFLM's signal/micro/kernels/window.cc, signal/src/window.cc):
// an int16 signal times an int16 window, shifted right and saturated to
// int16, the window applied to each run of window-size samples.
//
// Facts reproduced: out = clamp((int32(in) * window) >> shift, INT16_MIN,
// INT16_MAX) (an arithmetic shift of the 32-bit product); the option
// 'shift' is element 0 of the sorted custom options.
//
// Inputs: signal (int16, rank >= 1), window (int16, rank 1); output int16 of
// the input's rank. We also require the output's element count to equal the
// input's and the window's size to divide it (TFLM would read or write past
// a tensor otherwise) and shift in [0, 31].
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_WINDOW_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_WINDOW_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace runtime {

struct SignalWindowOpData {
  int32_t shift = 0;
  int32_t input_size = 0;
};

void SignalWindowApply(const int16_t* input, const int16_t* window, size_t size, int shift,
                       int16_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_WINDOW_H_
