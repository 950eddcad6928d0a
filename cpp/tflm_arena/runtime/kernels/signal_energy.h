// SignalEnergy (TFLM's signal/micro/kernels/energy.cc, signal/src/energy.cc):
// the power of each bin of an int16 complex spectrum, re^2 + im^2 as uint32,
// for the bins in [start_index, end_index); the other output elements are
// not written (as in TFLM).
//
// Options (sorted): 'end_index' element 0, 'start_index' element 1.
// Input: int16 rank 1 (interleaved re, im); output: uint32 rank 1. We also
// require 0 <= start_index <= end_index <= min(input bins, output size).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_ENERGY_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_ENERGY_H_

#include <cstddef>
#include <cstdint>

namespace tflm_arena {
namespace runtime {

struct SignalEnergyOpData {
  int32_t end_index = 0;
  int32_t start_index = 0;
};

// `spectrum` holds interleaved (re, im) int16 pairs.
void SignalSpectrumToEnergy(const int16_t* spectrum, int32_t start, int32_t end, uint32_t* output);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_ENERGY_H_
