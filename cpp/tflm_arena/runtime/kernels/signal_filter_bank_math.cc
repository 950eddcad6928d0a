#include "tflm_arena/runtime/kernels/signal_filter_bank.h"

namespace tflm_arena {
namespace runtime {

Status SignalFilterBankCheck(const char* op, const SignalFilterBankTables& t) {
  const size_t rows = static_cast<size_t>(t.num_channels) + 1;
  if (t.table_size < rows) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: the channel tables hold %zu entries; num_channels %d needs %zu", op,
                         t.table_size, static_cast<int>(t.num_channels), rows);
  }
  for (size_t i = 0; i < rows; ++i) {
    const int32_t f = t.freq_starts[i];
    const int32_t w = t.weight_starts[i];
    const int32_t n = t.widths[i];
    if (f < 0 || w < 0 || n < 0 || static_cast<size_t>(f) + static_cast<size_t>(n) > t.input_size ||
        static_cast<size_t>(w) + static_cast<size_t>(n) > t.weight_size) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: channel %zu (frequency start %d, weight start %d, width %d) lies "
                           "outside the spectrum (%zu) or the weights (%zu)",
                           op, i, static_cast<int>(f), static_cast<int>(w), static_cast<int>(n),
                           t.input_size, t.weight_size);
    }
  }
  return Status::Ok();
}

void SignalFilterBankAccumulate(const SignalFilterBankTables& t, const uint32_t* input,
                                uint64_t* work) {
  uint64_t weighted = 0;
  uint64_t unweighted = 0;
  for (int32_t i = 0; i <= t.num_channels; ++i) {
    const int32_t f = t.freq_starts[i];
    const int32_t w = t.weight_starts[i];
    for (int32_t j = 0; j < t.widths[i]; ++j) {
      const uint64_t x = input[f + j];
      weighted += static_cast<uint64_t>(static_cast<int64_t>(t.weights[w + j])) * x;
      unweighted += static_cast<uint64_t>(static_cast<int64_t>(t.unweights[w + j])) * x;
    }
    work[i] = weighted;
    weighted = unweighted;
    unweighted = 0;
  }
}

}  // namespace runtime
}  // namespace tflm_arena
