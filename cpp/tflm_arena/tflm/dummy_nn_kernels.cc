// A throw-away kernel library (dummy_nn_kernels.h).
#include "tflm_arena/tflm/dummy_nn_kernels.h"

#include <vector>

namespace tflm_arena {
namespace tflm {
namespace {

using namespace steps;  // NOLINT(google-build-using-namespace)

constexpr KernelRow kDummyNn[] = {
    {"CONV_2D",
     "dummy/conv.cc",
     {{28, 4}, {28, 4}},
     {64, 64},
     {Out(0), In(0), In(1), PerChannel(1, 0), In(0), In(1), In(2), Out(0)},
     TypeRule::kConv},
};

}  // namespace

const char* DummyNnVariantName(DummyNnVariant) { return "fast"; }

Span<const KernelRow> DummyNnKernels() {
  static const std::vector<KernelRow>* const table =
      new std::vector<KernelRow>(WithReferenceKernels(
          Span<const KernelRow>(kDummyNn, sizeof(kDummyNn) / sizeof(kDummyNn[0]))));
  return Span<const KernelRow>(table->data(), table->size());
}

}  // namespace tflm
}  // namespace tflm_arena
