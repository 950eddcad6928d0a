// KernelLibrary (kernel_library.h): one arm per library in each function.
#include "tflm_arena/tflm/kernel_library.h"

namespace tflm_arena {
namespace tflm {
namespace {

// std::visit over one lambda per alternative.
template <class... Arms>
struct Overloaded : Arms... {
  using Arms::operator()...;
};
template <class... Arms>
Overloaded(Arms...) -> Overloaded<Arms...>;

}  // namespace

std::string KernelLibraryWords(const KernelLibrary& library) {
  return std::visit(
      Overloaded{
          [](ReferenceLibrary) { return std::string("reference"); },
          [](CmsisNnBackend backend) {
            return std::string("cmsis_nn (") + CmsisNnBackendName(backend) + " backend)";
          },
          [](EspNnChip chip) { return std::string("esp_nn (") + EspNnChipName(chip) + " set)"; },
      },
      library);
}

Span<const KernelRow> KernelLibraryTable(const KernelLibrary& library) {
  return std::visit(Overloaded{
                        [](ReferenceLibrary) { return ReferenceKernels(); },
                        [](CmsisNnBackend) { return CmsisNnKernels(); },
                        [](EspNnChip) { return EspNnKernels(); },
                    },
                    library);
}

}  // namespace tflm
}  // namespace tflm_arena
