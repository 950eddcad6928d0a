// Stock-TFLM arena size bindings: one function returning a plain dict.
// The model of TFLM's allocation sequence lives in tflm/; this only converts.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "register.h"
#include "tflm_arena/core/allocation_category.h"
#include "tflm_arena/tflm/build_targets.h"
#include "tflm_arena/tflm/scratch_requests.h"
#include "tflm_arena/tflm/shared_arena.h"
#include "tflm_arena/tflm/split_arena.h"
#include "tflm_arena/tflm/tflm_arena_size.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {
namespace {

// kFailedPrecondition with a refusal: TflmRefusesModelError; else as usual.
void ThrowTflm(const Status& s, const tflm::Refusal& refusal) {
  if (s.code() == StatusCode::kFailedPrecondition && refusal.refused) {
    ThrowTflmRefusal(s.message(), refusal.reason, refusal.source, refusal.op_name, refusal.subgraph,
                     refusal.op_index);
  }
  ThrowIfError(s);
}

py::dict TflmArenaSize(const ModelHandle& h, const std::string& target,
                       std::optional<bool> recording, const std::string& planner) {
  tflm::TflmArenaOptions options;
  options.target = target;
  options.recording = recording;
  options.planner = planner;
  tflm::TflmArenaSize r;
  tflm::Refusal refusal;
  {
    py::gil_scoped_release release;
    const Status s = tflm::ComputeTflmArenaSize(h.model(), options, &r, &refusal);
    if (!s.ok()) {
      py::gil_scoped_acquire gil;
      ThrowTflm(s, refusal);
    }
  }
  py::dict categories;
  for (size_t i = 0; i < tflm::kNumCategories; ++i) {
    const auto c = static_cast<tflm::Category>(i);
    py::dict d;
    d["name"] = AllocationCategoryName(c);
    d["requested"] = r.categories[i].requested;
    d["used"] = r.categories[i].used;
    d["count"] = r.categories[i].count;
    categories[AllocationCategoryKey(c)] = d;
  }
  py::dict out;
  out["target"] = r.target;
  out["description"] = r.description;
  out["recording"] = r.recording;
  out["planner"] = r.planner;
  out["min_arena_bytes"] = r.min_arena_bytes;
  out["min_arena_bytes_16"] = r.min_arena_bytes_16;
  out["head"] = r.head;
  out["tail"] = r.tail;
  out["temp_peak"] = r.temp_peak;
  out["planned_buffers"] = r.planned_buffers;
  out["scratch_requests"] = r.scratch_requests;
  out["limited_by"] = r.limited_by;
  out["categories"] = categories;
  return out;
}

// The two-buffer minima (tflm/split_arena.h) as a dict.
py::dict TflmSplitArena(const ModelHandle& h, const std::string& target,
                        std::optional<bool> recording, const std::string& planner) {
  tflm::TflmArenaOptions options;
  options.target = target;
  options.recording = recording;
  options.planner = planner;
  tflm::TflmSplitArena r;
  tflm::Refusal refusal;
  {
    py::gil_scoped_release release;
    const Status s = tflm::ComputeTflmSplitArena(h.model(), options, &r, &refusal);
    if (!s.ok()) {
      py::gil_scoped_acquire gil;
      ThrowTflm(s, refusal);
    }
  }
  py::dict out;
  out["target"] = r.target;
  out["description"] = r.description;
  out["planner"] = r.planner;
  out["checked"] = r.checked;
  out["min_persistent_bytes"] = r.min_persistent_bytes;
  out["min_non_persistent_bytes"] = r.min_non_persistent_bytes;
  out["single_arena_bytes"] = r.single_arena_bytes;
  out["persistent_limited_by"] = r.persistent_limited_by;
  out["non_persistent_limited_by"] = r.non_persistent_limited_by;
  return out;
}

// Several models in one arena (tflm/shared_arena.h) as a dict; an error
// names the model's position ("model 2: ...").
py::dict TflmSharedArena(const std::vector<const ModelHandle*>& handles, const std::string& target,
                         std::optional<bool> recording, const std::string& planner) {
  tflm::TflmArenaOptions options;
  options.target = target;
  options.recording = recording;
  options.planner = planner;
  std::vector<const model::Model*> models;
  models.reserve(handles.size());
  for (const ModelHandle* h : handles) models.push_back(&h->model());
  tflm::TflmSharedArena r;
  tflm::Refusal refusal;
  size_t failed = 0;
  {
    py::gil_scoped_release release;
    const Status s = tflm::ComputeTflmSharedArena(models, options, &r, &refusal, &failed);
    if (!s.ok()) {
      py::gil_scoped_acquire gil;
      if (failed < models.size()) {
        ThrowTflm(Status::Error(s.code(), "model %zu: %s", failed + 1, s.message()), refusal);
      }
      ThrowTflm(s, refusal);
    }
  }
  py::dict out;
  out["target"] = r.target;
  out["description"] = r.description;
  out["recording"] = r.recording;
  out["planner"] = r.planner;
  out["checked"] = r.checked;
  out["min_arena_bytes"] = r.given.min_arena_bytes;
  out["phase_bytes"] = r.given.phase_bytes;
  out["limited_by_model"] = r.given.limited_by_model;
  out["limited_by"] = r.given.limited_by;
  out["single_arena_bytes"] = r.single_arena_bytes;
  out["heads"] = r.heads;
  out["tails"] = r.tails;
  out["all_orders_checked"] = r.all_orders_checked;
  out["best_order"] = r.best_order;
  out["best_min_arena_bytes"] = r.best_min_arena_bytes;
  return out;
}

// [(bytes, operator, subgraph), ...] as Model.usage_records(scratch=) takes.
py::list TflmScratchRequests(const ModelHandle& h, const std::string& target) {
  std::vector<model::ScratchRequest> requests;
  tflm::Refusal refusal;
  {
    py::gil_scoped_release release;
    const Status s = tflm::TflmScratchRequests(h.model(), target, &requests, &refusal);
    if (!s.ok()) {
      py::gil_scoped_acquire gil;
      ThrowTflm(s, refusal);
    }
  }
  py::list out;
  for (const model::ScratchRequest& r : requests) {
    out.append(py::make_tuple(r.bytes, r.node_idx, r.subgraph_idx));
  }
  return out;
}

// [{name, description, abi, allocator}, ...]: the build targets, default first.
py::list TflmTargets() {
  py::list out;
  for (const tflm::BuildTarget& t : tflm::BuildTargets()) {
    py::dict d;
    d["name"] = t.name;
    d["description"] = t.description;
    d["abi"] = t.abi;
    d["allocator"] = t.allocator == tflm::AllocatorRule::kWheelInterpreter
                         ? "recording with the greedy planner, plain with the linear planner"
                         : "MicroAllocator unless recording is asked";
    switch (t.kernels) {
      case tflm::KernelLibrary::kCmsisNn:
        d["kernels"] =
            std::string("cmsis_nn (") + tflm::CmsisNnBackendName(t.cmsis_nn_backend) + " backend)";
        break;
      case tflm::KernelLibrary::kEspNn:
        d["kernels"] = std::string("esp_nn (") + tflm::EspNnChipName(t.esp_nn_chip) + " set)";
        break;
      case tflm::KernelLibrary::kReference:
        d["kernels"] = "reference";
        break;
    }
    d["checked"] = t.checked;
    out.append(d);
  }
  return out;
}

// [{key, name, noun}, ...]: TFLM's recording-allocator categories in the
// order TFLM prints them (core/allocation_category.h, the one list).
py::list RecordingCategories() {
  py::list out;
  for (size_t i = 0; i < kRecordedCategoryCount; ++i) {
    const auto c = static_cast<AllocationCategory>(i);
    py::dict d;
    d["key"] = AllocationCategoryKey(c);
    d["name"] = AllocationCategoryName(c);
    d["noun"] = AllocationCategoryNoun(c);
    out.append(d);
  }
  return out;
}

}  // namespace

void RegisterTflm(py::module_& m) {
  m.def("tflm_arena_size", &TflmArenaSize, py::arg("model"), py::arg("target"),
        py::arg("recording"), py::arg("planner"),
        "Arena stock TFLM needs for the model: dict of figures (see tflm/).");
  m.def("tflm_split_arena", &TflmSplitArena, py::arg("model"), py::arg("target"),
        py::arg("recording"), py::arg("planner"),
        "Minimum of each buffer of stock TFLM's two-buffer MicroAllocator (see tflm/).");
  m.def("tflm_shared_arena", &TflmSharedArena, py::arg("models"), py::arg("target"),
        py::arg("recording"), py::arg("planner"),
        "Minimum of one arena one MicroAllocator serves to several models, in order (see "
        "tflm/).");
  m.def("tflm_scratch_requests", &TflmScratchRequests, py::arg("model"), py::arg("target"),
        "Scratch buffers TFLM's kernels request: [(bytes, operator, subgraph), ...].");
  m.def("tflm_targets", &TflmTargets,
        "The stock-TFLM build targets, default first: [{name, description, abi, allocator, "
        "kernels, checked}].");
  m.def("recording_categories", &RecordingCategories,
        "TFLM's RecordingMicroAllocator categories in print order: [{key, name, noun}].");
}

}  // namespace bindings
}  // namespace tflm_arena
