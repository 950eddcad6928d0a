// Steps: live bytes and buffers per step, the peak step, and the operator
// of each step of a model (plan/live_bytes.h, model/step_operators.h), and
// the check that preallocated buffers never share bytes while live.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <optional>
#include <tuple>
#include <vector>

#include "record_columns.h"
#include "register.h"
#include "tflm_arena/model/step_operators.h"
#include "tflm_arena/plan/live_bytes.h"
#include "tflm_arena/runtime/preallocation_sharing.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {
namespace {

py::array_t<int64_t> ToArray(const std::vector<int64_t>& v) {
  py::array_t<int64_t> a(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}

py::dict LiveStepsDict(const I64Array& sizes, const I32Array& first, const I32Array& last,
                       std::optional<Step> from_step, std::optional<Step> to_step) {
  I64Array fixed(sizes.size());
  std::fill(fixed.mutable_data(), fixed.mutable_data() + fixed.size(), kOnlineOffset);
  const std::vector<UsageRecord> records = ToRecords(sizes, first, last, fixed);
  const Span<const UsageRecord> span(records.data(), records.size());
  Step from = 0;
  Step to = -1;
  RecordStepRange(span, &from, &to);  // leaves the empty range 0..-1 if none
  if (from_step) from = *from_step;
  if (to_step) to = *to_step;
  LiveSteps live;
  ThrowIfError(ComputeLiveSteps(span, from, to, &live));
  py::dict d;
  d["first_step"] = live.first_step;
  d["bytes"] = ToArray(live.bytes);
  d["buffers"] = ToArray(live.buffers);
  d["peak"] = live.has_peak ? py::object(py::int_(live.peak_step)) : py::object(py::none());
  return d;
}

py::array_t<int64_t> StepOperators(const ModelHandle& h) {
  size_t n = 0;
  ThrowIfError(model::ComputeStepOperators(h.model(), Span<model::StepOperator>(), &n));
  std::vector<model::StepOperator> ops(n);
  ThrowIfError(model::ComputeStepOperators(h.model(),
                                           Span<model::StepOperator>(ops.data(), ops.size()), &n));
  py::array_t<int64_t> a({static_cast<py::ssize_t>(n), py::ssize_t{3}});
  auto w = a.mutable_unchecked<2>();
  for (size_t i = 0; i < n; ++i) {
    w(i, 0) = ops[i].subgraph;
    w(i, 1) = ops[i].op;
    w(i, 2) = ops[i].calls;
  }
  return a;
}

using BufferTuple = std::tuple<int, uintptr_t, size_t>;  // tensor, address, bytes

runtime::Preallocation ToPreallocation(const BufferTuple& t) {
  // The address comes from Python (a buffer the caller owns) as an integer.
  // NOLINTNEXTLINE(performance-no-int-to-ptr)
  return runtime::Preallocation{std::get<0>(t), reinterpret_cast<uint8_t*>(std::get<1>(t)),
                                std::get<2>(t)};
}

void CheckSharing(const ModelHandle& h, const std::vector<BufferTuple>& registered,
                  const BufferTuple& candidate) {
  std::vector<runtime::Preallocation> pre;
  pre.reserve(registered.size());
  for (const BufferTuple& t : registered) pre.push_back(ToPreallocation(t));
  ThrowIfError(runtime::CheckPreallocationSharing(
      h.model(), Span<const runtime::Preallocation>(pre.data(), pre.size()),
      ToPreallocation(candidate)));
}

}  // namespace

void RegisterSteps(py::module_& m) {
  m.def("live_steps", &LiveStepsDict, py::arg("sizes"), py::arg("first"), py::arg("last"),
        py::arg("from_step") = py::none(), py::arg("to_step") = py::none(),
        "Live bytes and buffers at every step of [from_step, to_step] (default: "
        "the records' first..last step) and the earliest peak step (None when "
        "the range is empty).");
  m.def("step_operators", &StepOperators, py::arg("model"),
        "(subgraph, operator, invoked subgraph or -1) at steps 1..N (row "
        "s - 1) of TFLM's allocation-scope walk; step 0 (model inputs) has "
        "no operator.");
  m.def("check_preallocation_sharing", &CheckSharing, py::arg("model"), py::arg("registered"),
        py::arg("candidate"),
        "ValueError when the (tensor, address, bytes) buffer `candidate` shares bytes with a "
        "registered one while both tensors are live (runtime/preallocation_sharing.h).");
}

}  // namespace bindings
}  // namespace tflm_arena
