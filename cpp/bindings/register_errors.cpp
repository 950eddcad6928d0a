#include <pybind11/pybind11.h>

#include <cstring>
#include <string>

#include "register.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {
namespace {
PyObject* g_arena_too_small = nullptr;
PyObject* g_tflm_refuses = nullptr;
}  // namespace

void RegisterErrors(py::module_& m) {
  // ArenaTooSmallError derives from MemoryError so `except MemoryError` works.
  static py::exception<void> exc(m, "ArenaTooSmallError", PyExc_MemoryError);
  g_arena_too_small = exc.ptr();
  // TflmRefusesModelError: stock TFLM refuses the model at every arena size
  // (a ValueError: the model, not the arena, is the problem).
  static py::exception<void> refuses(m, "TflmRefusesModelError", PyExc_ValueError);
  g_tflm_refuses = refuses.ptr();
}

void ThrowTflmRefusal(const std::string& message, const std::string& reason,
                      const std::string& source, const std::string& op_name, size_t subgraph,
                      size_t op_index) {
  py::object err =
      py::reinterpret_borrow<py::object>(g_tflm_refuses)(Utf8(message.data(), message.size()));
  err.attr("reason") = Utf8(reason.data(), reason.size());
  err.attr("source") = Utf8(source.data(), source.size());
  err.attr("operator") = py::module_::import("types").attr("SimpleNamespace")(
      py::arg("index") = op_index, py::arg("name") = Utf8(op_name.data(), op_name.size()),
      py::arg("subgraph") = subgraph);
  PyErr_SetObject(g_tflm_refuses, err.ptr());
  throw py::error_already_set();
}

py::str Utf8(const char* text, size_t length) {
  PyObject* o = PyUnicode_DecodeUTF8(text, static_cast<Py_ssize_t>(length), "replace");
  if (o == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

py::str Utf8(const char* text) { return Utf8(text, std::strlen(text)); }

void ThrowStatus(StatusCode code, const std::string& message, size_t needed_bytes) {
  PyObject* type = PyExc_RuntimeError;
  switch (code) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kOutOfRange:
      type = PyExc_ValueError;
      break;
    case StatusCode::kArenaTooSmall:
      type = g_arena_too_small;
      break;
    case StatusCode::kUnimplemented:
      type = PyExc_NotImplementedError;
      break;
    default:
      break;
  }
  py::object err = py::reinterpret_borrow<py::object>(type)(Utf8(message.data(), message.size()));
  if (code == StatusCode::kArenaTooSmall) err.attr("needed_bytes") = needed_bytes;
  PyErr_SetObject(type, err.ptr());
  throw py::error_already_set();
}

void ThrowIfError(const Status& status) {
  if (status.ok()) return;
  ThrowStatus(status.code(), status.message(), status.needed_bytes());
}

}  // namespace bindings
}  // namespace tflm_arena
