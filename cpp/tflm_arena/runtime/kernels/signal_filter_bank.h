// SignalFilterBank (TFLM's signal/micro/kernels/filter_bank.cc,
// signal/src/filter_bank.cc): a mel-style filter bank over a uint32 power
// spectrum, as uint64 channel energies.
//
// Facts reproduced: for channel i in [0, num_channels] (one more than the
// option, TFLM's work area), over j in [0, widths[i]) with
// f = freq_starts[i] + j and w = weight_starts[i] + j:
//   acc += uint64(weights[w]) * input[f];  next += uint64(unweights[w]) * input[f]
// (an int16 weight converted to uint64, modulo 2^64), then work[i] = acc,
// acc = next, next = 0. The output is work[1 .. output size].
// Option: 'num_channels' element 0. Inputs: spectrum (uint32), weights,
// unweights, channel frequency starts, channel weight starts, channel
// widths (int16, all rank 1); output uint64 rank 1.
//
// We also require num_channels in [0, 2^24], at most num_channels output
// elements, and in Invoke every table entry inside its tensors (TFLM reads
// past them otherwise).
#ifndef TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_H_
#define TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace runtime {

struct SignalFilterBankTables {
  int32_t num_channels = 0;
  const int16_t* freq_starts = nullptr;  // num_channels + 1 entries each
  const int16_t* weight_starts = nullptr;
  const int16_t* widths = nullptr;
  const int16_t* weights = nullptr;
  const int16_t* unweights = nullptr;
  size_t table_size = 0;   // entries in each of the three tables
  size_t weight_size = 0;  // entries in weights and unweights (the smaller)
  size_t input_size = 0;   // spectrum elements
};

struct SignalFilterBankOpData {
  int32_t num_channels = 0;
  uint64_t* work = nullptr;  // num_channels + 1 (persistent)
};

// kInvalidArgument naming the first entry outside its tensor.
Status SignalFilterBankCheck(const char* op, const SignalFilterBankTables& t);
// work[0 .. num_channels] (the tables checked).
void SignalFilterBankAccumulate(const SignalFilterBankTables& t, const uint32_t* input,
                                uint64_t* work);

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNELS_SIGNAL_FILTER_BANK_H_
