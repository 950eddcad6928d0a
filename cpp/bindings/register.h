// Registration functions, one per area, each in register_<area>.cpp.
#ifndef TFLM_ARENA_BINDINGS_REGISTER_H_
#define TFLM_ARENA_BINDINGS_REGISTER_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/core/status.h"
#include "tflm_arena/model/model.h"

namespace tflm_arena {
namespace bindings {

void RegisterErrors(pybind11::module_& m);
void RegisterPlan(pybind11::module_& m);
void RegisterObjects(pybind11::module_& m);
void RegisterModel(pybind11::module_& m);
void RegisterInterpreter(pybind11::module_& m);
void RegisterTflm(pybind11::module_& m);
void RegisterReorder(pybind11::module_& m);
void RegisterSteps(pybind11::module_& m);
void RegisterBoards(pybind11::module_& m);
void RegisterRewrite(pybind11::module_& m);

// A verified model and the bytes it views (kept alive together; shared with
// interpreters built on it).
class ModelHandle {
 public:
  explicit ModelHandle(const pybind11::bytes& data);
  ModelHandle(const ModelHandle&) = delete;  // model_ views bytes_
  ModelHandle& operator=(const ModelHandle&) = delete;
  const model::Model& model() const { return model_; }
  const std::vector<uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<uint8_t> bytes_;
  model::Model model_;
};

// Raises the Python exception matching the status code (no-op when OK):
// kInvalidArgument/kOutOfRange -> ValueError, kArenaTooSmall ->
// ArenaTooSmallError (with .needed_bytes), kUnimplemented ->
// NotImplementedError, anything else -> RuntimeError. The message is decoded
// as UTF-8 with replacement (it may quote names from the model).
void ThrowIfError(const Status& status);
// Same mapping for a message built on the host (no length limit).
[[noreturn]] void ThrowStatus(StatusCode code, const std::string& message, size_t needed_bytes = 0);

// Raises TflmRefusesModelError (a ValueError) with .reason (TFLM's
// message), .source (TFLM file and function) and .operator (.index, .name,
// .subgraph).
[[noreturn]] void ThrowTflmRefusal(const std::string& message, const std::string& reason,
                                   const std::string& source, const std::string& op_name,
                                   size_t subgraph, size_t op_index);

// Text from a model (names, descriptions, custom codes) is untrusted bytes:
// decoded as UTF-8 with U+FFFD for invalid sequences, never an exception.
pybind11::str Utf8(const char* text, size_t length);
pybind11::str Utf8(const char* text);

}  // namespace bindings
}  // namespace tflm_arena

#endif  // TFLM_ARENA_BINDINGS_REGISTER_H_
