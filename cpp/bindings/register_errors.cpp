#include <pybind11/pybind11.h>

#include "register.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {
namespace {
PyObject* g_arena_too_small = nullptr;
}  // namespace

void RegisterErrors(py::module_& m) {
  // ArenaTooSmallError derives from MemoryError so `except MemoryError` works.
  static py::exception<void> exc(m, "ArenaTooSmallError", PyExc_MemoryError);
  g_arena_too_small = exc.ptr();
}

void ThrowIfError(const Status& status) {
  if (status.ok()) return;
  switch (status.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kOutOfRange:
      throw py::value_error(status.message());
    case StatusCode::kArenaTooSmall: {
      py::object err = py::reinterpret_borrow<py::object>(g_arena_too_small)(status.message());
      err.attr("needed_bytes") = status.needed_bytes();
      PyErr_SetObject(g_arena_too_small, err.ptr());
      throw py::error_already_set();
    }
    default:
      throw std::runtime_error(status.message());
  }
}

}  // namespace bindings
}  // namespace tflm_arena
