#include "tflm_arena/runtime/kernels/quant_util.h"

#include <cmath>

namespace tflm_arena {
namespace runtime {

void QuantizeMultiplier(double real_multiplier, int32_t* quantized_multiplier, int* shift) {
  if (real_multiplier == 0.0) {
    *quantized_multiplier = 0;
    *shift = 0;
    return;
  }
  const double q = std::frexp(real_multiplier, shift);  // q in [0.5, 1)
  int64_t q_fixed = static_cast<int64_t>(std::round(q * (1LL << 31)));
  if (q_fixed == (1LL << 31)) {  // rounding reached 1.0: renormalise
    q_fixed /= 2;
    ++*shift;
  }
  if (*shift < -31) {  // too small to represent: flush to zero
    *shift = 0;
    q_fixed = 0;
  }
  *quantized_multiplier = static_cast<int32_t>(q_fixed);
}

}  // namespace runtime
}  // namespace tflm_arena
