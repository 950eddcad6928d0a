// The board table (tflm/boards.h) as Python dicts; Python decides nothing
// about a board but reads it from here.
#include <pybind11/pybind11.h>

#include "register.h"
#include "tflm_arena/tflm/boards.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {
namespace {

// [{name, chip, core, target, version, ram_bytes, external_ram_bytes, external_ram,
//   source, note}, ...] in the table's order.
py::list BoardsList() {
  py::list out;
  for (const tflm::Board& b : tflm::Boards()) {
    out.append(py::dict(py::arg("name") = b.name, py::arg("chip") = b.chip,
                        py::arg("core") = b.core, py::arg("target") = b.target,
                        py::arg("version") = b.version, py::arg("ram_bytes") = b.ram_bytes,
                        py::arg("external_ram_bytes") = b.external_ram_bytes,
                        py::arg("external_ram") = b.external_ram, py::arg("source") = b.source,
                        py::arg("note") = b.note));
  }
  return out;
}

}  // namespace

void RegisterBoards(py::module_& m) {
  m.def("boards", &BoardsList,
        "Common boards, in order: [{name, chip, core, target, version, ram_bytes, "
        "external_ram_bytes, "
        "external_ram, source, note}].");
}

}  // namespace bindings
}  // namespace tflm_arena
