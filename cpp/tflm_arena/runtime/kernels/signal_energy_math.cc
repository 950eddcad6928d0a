#include "tflm_arena/runtime/kernels/signal_energy.h"

namespace tflm_arena {
namespace runtime {

void SignalSpectrumToEnergy(const int16_t* spectrum, int32_t start, int32_t end, uint32_t* output) {
  for (int32_t i = start; i < end; ++i) {
    const size_t k = 2 * static_cast<size_t>(i);
    const int32_t re = spectrum[k];
    const int32_t im = spectrum[k + 1];
    // TFLM sums the two int32 squares in int32 (2^31 for two -32768s
    // wraps); the uint32 sum gives the same bits without overflow.
    output[i] = static_cast<uint32_t>(re * re) + static_cast<uint32_t>(im * im);
  }
}

}  // namespace runtime
}  // namespace tflm_arena
