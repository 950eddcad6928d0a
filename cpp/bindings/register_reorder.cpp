// Operator reordering bindings: search on a model's subgraph 0 and write the
// reordered copy. Algorithms: plan/reorder.h, model/operator_graph.h,
// model/operator_order_writer.h.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "record_columns.h"
#include "register.h"
#include "tflm_arena/model/operator_graph.h"
#include "tflm_arena/model/operator_order_writer.h"
#include "tflm_arena/plan/reorder.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {
namespace {

using ScratchList = std::vector<std::tuple<size_t, int32_t, int32_t>>;  // (bytes, node, subgraph)

ReorderGraph GraphOf(const ModelHandle& h, const ScratchList& scratch = {}) {
  std::vector<model::ScratchRequest> req;
  for (const auto& [bytes, node, subgraph] : scratch) req.push_back({bytes, node, subgraph});
  ReorderGraph graph;
  ThrowIfError(model::BuildOperatorGraph(
      h.model(), Span<const model::ScratchRequest>(req.data(), req.size()), &graph));
  return graph;
}

py::dict Reorder(const ModelHandle& h, const ScratchList& scratch, double time_limit,
                 uint64_t max_states, uint64_t max_expansions) {
  const ReorderGraph graph = GraphOf(h, scratch);
  ReorderOptions options;
  options.time_limit_seconds = time_limit;
  options.max_states = max_states;
  options.max_expansions = max_expansions;
  ReorderResult r;
  Status status;
  {
    py::gil_scoped_release release;
    status = ReorderForPeak(graph, options, &r);
  }
  ThrowIfError(status);
  py::array_t<int32_t> order(static_cast<py::ssize_t>(r.order.size()));
  std::copy(r.order.begin(), r.order.end(), order.mutable_data());
  py::dict d;
  d["order"] = order;
  d["peak_before"] = r.peak_before;
  d["peak_after"] = r.peak_after;
  d["lower_bound"] = r.lower_bound;
  d["exact"] = r.exact;
  d["timed_out"] = r.timed_out;
  d["method"] = py::str(r.method);
  d["states"] = r.states;
  d["expansions"] = r.expansions;
  return d;
}

int64_t Peak(const ModelHandle& h, const I32Array& order) {
  const ReorderGraph graph = GraphOf(h);
  int64_t peak = 0;
  ThrowIfError(OrderPeak(
      graph, Span<const int32_t>(order.data(), static_cast<size_t>(order.size())), &peak));
  return peak;
}

// The dependency check is plan/'s (model/ does not depend on plan/); the
// writer checks the rest.
py::bytes Write(const ModelHandle& h, const I32Array& order, bool drop_offline_plan) {
  const Span<const int32_t> run(order.data(), static_cast<size_t>(order.size()));
  ThrowIfError(CheckOperatorOrder(GraphOf(h), run));
  std::vector<uint8_t> out;
  ThrowIfError(
      model::WriteOperatorOrder(h.bytes().data(), h.bytes().size(), run, drop_offline_plan, &out));
  return py::bytes(reinterpret_cast<const char*>(out.data()), out.size());
}

}  // namespace

void RegisterReorder(py::module_& m) {
  m.def("reorder_operators", &Reorder, py::arg("model"), py::arg("scratch"), py::arg("time_limit"),
        py::arg("max_states"), py::arg("max_expansions"));
  m.def("operator_order_peak", &Peak, py::arg("model"), py::arg("order"));
  m.def("write_operator_order", &Write, py::arg("model"), py::arg("order"),
        py::arg("drop_offline_plan"));
}

}  // namespace bindings
}  // namespace tflm_arena
