// Shared-object strategy bindings: numpy record columns in, object ids and
// sizes out. The algorithms live in plan/shared_objects.h.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <string>
#include <vector>

#include "record_columns.h"
#include "register.h"
#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/strategies.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {
namespace {

AssignFn Assigner(const std::string& name) {
  const StrategyInfo* info = FindObjectStrategy(name);
  if (info == nullptr) {
    std::string known;
    for (const StrategyInfo& s : Strategies()) {
      if (s.kind != StrategyKind::kSharedObjects) continue;
      known += (known.empty() ? "" : ", ") + ObjectStrategyName(s);
    }
    throw py::value_error("unknown strategy '" + name + "' (known: " + known + ")");
  }
  return info->assign;
}

}  // namespace

void RegisterObjects(py::module_& m) {
  m.def(
      "assign_objects",
      [](const I64Array& sizes, const I32Array& first, const I32Array& last, const I64Array& fixed,
         const std::string& strategy) {
        AssignFn fn = Assigner(strategy);
        auto records = ToRecords(sizes, first, last, fixed);
        SharedObjects out;
        Status status;
        {
          py::gil_scoped_release release;
          status = fn(Span<const UsageRecord>(records.data(), records.size()), &out);
        }
        ThrowIfError(status);
        py::array_t<int32_t> ids(static_cast<py::ssize_t>(out.object_ids.size()));
        std::copy(out.object_ids.begin(), out.object_ids.end(), ids.mutable_data());
        py::array_t<int64_t> object_sizes(static_cast<py::ssize_t>(out.object_sizes.size()));
        std::copy(out.object_sizes.begin(), out.object_sizes.end(), object_sizes.mutable_data());
        return py::make_tuple(ids, object_sizes, out.total);
      },
      py::arg("sizes"), py::arg("first"), py::arg("last"), py::arg("fixed"), py::arg("strategy"));
  m.def(
      "positional_max_lower_bound",
      [](const I64Array& sizes, const I32Array& first, const I32Array& last,
         const I64Array& fixed) {
        auto records = ToRecords(sizes, first, last, fixed);
        Span<const UsageRecord> span(records.data(), records.size());
        ThrowIfError(CheckSharedObjectRecords(span));
        return PositionalMaxLowerBound(span);
      },
      py::arg("sizes"), py::arg("first"), py::arg("last"), py::arg("fixed"));
}

}  // namespace bindings
}  // namespace tflm_arena
