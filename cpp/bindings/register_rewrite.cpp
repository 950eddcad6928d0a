// Graph rewrite bindings: the stage, the measured tilings, and the model
// with one tiling written. Algorithms: rewrite/rewrite.h.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "register.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/rewrite/rewrite.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {
namespace {

const char* KindName(rewrite::StageOpKind kind) {
  switch (kind) {
    case rewrite::StageOpKind::kConv:
      return "conv";
    case rewrite::StageOpKind::kDepthwise:
      return "depthwise";
    case rewrite::StageOpKind::kPool:
      return "pool";
    case rewrite::StageOpKind::kPad:
      return "pad";
    case rewrite::StageOpKind::kPointwise:
      return "pointwise";
  }
  return "?";
}

py::dict CandidateDict(const rewrite::Candidate& c) {
  py::dict d;
  d["length"] = c.tiling.length;
  d["rows"] = c.tiling.rows;
  d["cols"] = c.tiling.cols;
  d["length2"] = c.second.length;
  d["rows2"] = c.second.rows;
  d["cols2"] = c.second.cols;
  d["head"] = c.head;
  d["tail"] = c.tail;
  d["total"] = c.total;
  d["macs"] = c.macs;
  d["file_bytes"] = c.file_bytes;
  d["operators"] = c.operators;
  d["error"] = Utf8(c.error.c_str());
  return d;
}

py::dict Search(const ModelHandle& h, const std::string& target,
                const std::vector<std::pair<int32_t, int32_t>>& shapes, int32_t length) {
  rewrite::RewriteOptions options;
  options.target = target;
  options.shapes = shapes;
  options.length = length;
  rewrite::RewriteResult r;
  Status status;
  {
    py::gil_scoped_release release;
    status = rewrite::SearchTilings(h.bytes().data(), h.bytes().size(), options, &r);
  }
  ThrowIfError(status);
  py::list ops;
  for (const rewrite::StageOp& op : r.stage.ops) {
    const char* name = model::BuiltinCodeName(op.code);
    const rewrite::Dims& d = r.stage.dims.at(op.output);
    ops.append(py::make_tuple(op.op, name ? name : "?", KindName(op.kind), op.output,
                              py::make_tuple(d.h, d.w, d.c)));
  }
  py::list candidates;
  for (const rewrite::Candidate& c : r.candidates) candidates.append(CandidateDict(c));
  py::dict d;
  d["input"] = r.stage.input;
  d["ops"] = ops;
  d["cuts"] = r.stage.cuts;
  d["end_reason"] = Utf8(r.stage.end_reason.c_str());
  d["original"] = CandidateDict(r.original);
  d["candidates"] = candidates;
  d["best"] = r.best;
  return d;
}

py::bytes Write(const ModelHandle& h, int32_t length, int32_t rows, int32_t cols, int32_t length2,
                int32_t rows2, int32_t cols2) {
  std::vector<uint8_t> out;
  ThrowIfError(rewrite::WriteTilings(h.bytes().data(), h.bytes().size(), {length, rows, cols},
                                     {length2, rows2, cols2}, &out));
  return py::bytes(reinterpret_cast<const char*>(out.data()), out.size());
}

}  // namespace

void RegisterRewrite(py::module_& m) {
  m.def("rewrite_search", &Search, py::arg("model"), py::arg("target"), py::arg("shapes"),
        py::arg("length"));
  m.def("rewrite_write", &Write, py::arg("model"), py::arg("length"), py::arg("rows"),
        py::arg("cols"), py::arg("length2") = 0, py::arg("rows2") = 1, py::arg("cols2") = 1);
}

}  // namespace bindings
}  // namespace tflm_arena
