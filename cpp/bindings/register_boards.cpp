// The board table (tflm/boards.h) as Python dicts; Python decides nothing
// about a board but reads it from here.
#include <pybind11/pybind11.h>

#include "register.h"
#include "tflm_arena/tflm/boards.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {
namespace {

// [{name, chip, core, target, ram_bytes, external_ram_bytes, external_ram,
//   source, note}, ...] in the table's order.
py::list BoardsList() {
  py::list out;
  for (const tflm::Board& b : tflm::Boards()) {
    py::dict d;
    d["name"] = b.name;
    d["chip"] = b.chip;
    d["core"] = b.core;
    d["target"] = b.target;
    d["ram_bytes"] = b.ram_bytes;
    d["external_ram_bytes"] = b.external_ram_bytes;
    d["external_ram"] = b.external_ram;
    d["source"] = b.source;
    d["note"] = b.note;
    out.append(d);
  }
  return out;
}

}  // namespace

void RegisterBoards(py::module_& m) {
  m.def("boards", &BoardsList,
        "Common boards, in order: [{name, chip, core, target, ram_bytes, external_ram_bytes, "
        "external_ram, source, note}].");
}

}  // namespace bindings
}  // namespace tflm_arena
