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
#include "tflm_arena/tflm/custom_kernels.h"
#include "tflm_arena/tflm/registered_ops.h"
#include "tflm_arena/tflm/scratch_requests.h"
#include "tflm_arena/tflm/shared_arena.h"
#include "tflm_arena/tflm/signal_kernels.h"
#include "tflm_arena/tflm/split_arena.h"
#include "tflm_arena/tflm/stack_compare.h"
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

tflm::TflmArenaOptions Options(const std::string& target, std::optional<bool> recording,
                               const std::string& planner) {
  tflm::TflmArenaOptions options;
  options.target = target;
  options.recording = recording;
  options.planner = planner;
  return options;
}

// Runs `compute(&refusal)` (a tflm/ call returning a Status) without the GIL;
// an error raises the matching Python exception.
template <typename Compute>
void RunWithoutGil(Compute compute) {
  tflm::Refusal refusal;
  py::gil_scoped_release release;
  const Status s = compute(&refusal);
  if (!s.ok()) {
    py::gil_scoped_acquire gil;
    ThrowTflm(s, refusal);
  }
}

// A stock-TFLM arena (tflm/tflm_arena_size.h) as a dict.
py::dict ArenaDict(const tflm::TflmArenaSize& r) {
  py::dict categories;
  for (size_t i = 0; i < tflm::kNumCategories; ++i) {
    const auto c = static_cast<tflm::Category>(i);
    categories[AllocationCategoryKey(c)] =
        py::dict(py::arg("name") = AllocationCategoryName(c),
                 py::arg("requested") = r.categories[i].requested,
                 py::arg("used") = r.categories[i].used, py::arg("count") = r.categories[i].count);
  }
  return py::dict(py::arg("target") = r.target, py::arg("version") = r.version,
                  py::arg("versions") = r.versions, py::arg("description") = r.description,
                  py::arg("recording") = r.recording, py::arg("planner") = r.planner,
                  py::arg("min_arena_bytes") = r.min_arena_bytes,
                  py::arg("min_arena_bytes_16") = r.min_arena_bytes_16, py::arg("head") = r.head,
                  py::arg("tail") = r.tail, py::arg("temp_peak") = r.temp_peak,
                  py::arg("planned_buffers") = r.planned_buffers,
                  py::arg("scratch_requests") = r.scratch_requests,
                  py::arg("limited_by") = r.limited_by,
                  py::arg("resource_variables") = r.resource_variables,
                  py::arg("resource_variables_in_arena") = r.resource_variables_in_arena,
                  py::arg("decompression_region_bytes") = r.decompression_region_bytes,
                  py::arg("ethos_u_fast_scratch_bytes") = r.ethos_u_fast_scratch_bytes,
                  py::arg("categories") = categories);
}

py::dict TflmArenaSize(const ModelHandle& h, const std::string& target,
                       std::optional<bool> recording, const std::string& planner,
                       int32_t resource_variables, bool resource_variables_in_arena) {
  tflm::TflmArenaOptions options = Options(target, recording, planner);
  options.resource_variables = resource_variables;
  options.resource_variables_in_arena = resource_variables_in_arena;
  tflm::TflmArenaSize r;
  RunWithoutGil([&](tflm::Refusal* refusal) {
    return tflm::ComputeTflmArenaSize(h.model(), options, &r, refusal);
  });
  return ArenaDict(r);
}

py::dict AllocationsDict(const tflm::OperatorAllocations& a) {
  return py::dict(py::arg("persistent") = a.persistent, py::arg("scratch") = a.scratch,
                  py::arg("scratch_requests") = a.scratch_requests);
}

py::dict SideDict(const tflm::StackSide& side) {
  py::dict d;
  d["name"] = side.name;
  d["description"] = side.description;
  if (side.refused) {
    d["refusal"] = py::dict(
        py::arg("reason") = side.refusal.reason, py::arg("source") = side.refusal.source,
        py::arg("operator") = side.refusal.op_name, py::arg("subgraph") = side.refusal.subgraph,
        py::arg("index") = side.refusal.op_index);
    d["arena"] = py::none();
  } else {
    d["refusal"] = py::none();
    d["arena"] = ArenaDict(side.arena);
  }
  return d;
}

// One model on two builds (tflm/stack_compare.h): {from, to, changes}.
py::dict TflmCompareStacks(const ModelHandle& h, const std::string& from, const std::string& to) {
  tflm::StackComparison r;
  RunWithoutGil([&](tflm::Refusal*) {
    return tflm::CompareStacks(h.model(), Options(from, std::nullopt, "tflm_greedy"),
                               Options(to, std::nullopt, "tflm_greedy"), &r);
  });
  py::list changes;
  for (const tflm::OperatorChange& c : r.changes) {
    changes.append(py::dict(py::arg("subgraph") = c.subgraph, py::arg("index") = c.op_index,
                            py::arg("operator") = c.op_name,
                            py::arg("from") = AllocationsDict(c.from),
                            py::arg("to") = AllocationsDict(c.to)));
  }
  return py::dict(py::arg("from") = SideDict(r.from), py::arg("to") = SideDict(r.to),
                  py::arg("changes") = changes);
}

// The two-buffer minima (tflm/split_arena.h) as a dict.
py::dict TflmSplitArena(const ModelHandle& h, const std::string& target,
                        std::optional<bool> recording, const std::string& planner) {
  const tflm::TflmArenaOptions options = Options(target, recording, planner);
  tflm::TflmSplitArena r;
  RunWithoutGil([&](tflm::Refusal* refusal) {
    return tflm::ComputeTflmSplitArena(h.model(), options, &r, refusal);
  });
  return py::dict(py::arg("target") = r.target, py::arg("version") = r.version,
                  py::arg("description") = r.description, py::arg("planner") = r.planner,
                  py::arg("checked") = r.checked,
                  py::arg("min_persistent_bytes") = r.min_persistent_bytes,
                  py::arg("min_non_persistent_bytes") = r.min_non_persistent_bytes,
                  py::arg("single_arena_bytes") = r.single_arena_bytes,
                  py::arg("persistent_limited_by") = r.persistent_limited_by,
                  py::arg("non_persistent_limited_by") = r.non_persistent_limited_by);
}

// Several models in one arena (tflm/shared_arena.h) as a dict; an error
// names the model's position ("model 2: ...").
py::dict TflmSharedArena(const std::vector<const ModelHandle*>& handles, const std::string& target,
                         std::optional<bool> recording, const std::string& planner) {
  const tflm::TflmArenaOptions options = Options(target, recording, planner);
  std::vector<const model::Model*> models;
  models.reserve(handles.size());
  for (const ModelHandle* h : handles) models.push_back(&h->model());
  tflm::TflmSharedArena r;
  RunWithoutGil([&](tflm::Refusal* refusal) {
    size_t failed = 0;
    const Status s = tflm::ComputeTflmSharedArena(models, options, &r, refusal, &failed);
    if (s.ok() || failed >= models.size()) return s;
    return Status::Error(s.code(), "model %zu: %s", failed + 1, s.message());
  });
  return py::dict(py::arg("target") = r.target, py::arg("version") = r.version,
                  py::arg("description") = r.description, py::arg("recording") = r.recording,
                  py::arg("planner") = r.planner, py::arg("checked") = r.checked,
                  py::arg("min_arena_bytes") = r.given.min_arena_bytes,
                  py::arg("phase_bytes") = r.given.phase_bytes,
                  py::arg("limited_by_model") = r.given.limited_by_model,
                  py::arg("limited_by") = r.given.limited_by,
                  py::arg("single_arena_bytes") = r.single_arena_bytes, py::arg("heads") = r.heads,
                  py::arg("tails") = r.tails, py::arg("all_orders_checked") = r.all_orders_checked,
                  py::arg("best_order") = r.best_order,
                  py::arg("best_min_arena_bytes") = r.best_min_arena_bytes);
}

// [(bytes, operator, subgraph), ...] as Model.usage_records(scratch=) takes.
py::list TflmScratchRequests(const ModelHandle& h, const std::string& target) {
  std::vector<model::ScratchRequest> requests;
  RunWithoutGil([&](tflm::Refusal* refusal) {
    return tflm::TflmScratchRequests(h.model(), target, &requests, refusal);
  });
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
    d["kernels"] = tflm::KernelLibraryWords(t.kernels);
    d["checked"] = t.checked;
    d["ethos_u"] = t.ethos_u;
    out.append(d);
  }
  return out;
}

// `name` ("TARGET" or "TARGET@VERSION") resolved; ValueError listing the
// known targets or versions.
tflm::ResolvedTarget Resolve(const std::string& name) {
  tflm::ResolvedTarget r;
  const Status s =
      tflm::ResolveBuildTarget(name, tflm::AllocatorChoice::kTargetDefault, "tflm_greedy", &r);
  if (!s.ok()) throw py::value_error(s.message());
  return r;
}

const char* FamilyName(tflm::StackFamily family) {
  switch (family) {
    case tflm::StackFamily::kWheel:
      return "wheel";
    case tflm::StackFamily::kUpstream:
      return "upstream";
    case tflm::StackFamily::kEspNn:
      return "esp-nn";
  }
  return "?";
}

// [{name, family, tflm, cmsis_nn, esp_nn, ethos_u, checked, targets}, ...]:
// the stack versions, newest first within each family.
py::list TflmStackVersions() {
  py::list out;
  for (const tflm::StackVersion& v : tflm::StackVersions()) {
    py::dict d;
    d["name"] = v.name;
    d["family"] = FamilyName(v.family);
    d["tflm"] = v.tflm;
    d["cmsis_nn"] = v.cmsis_nn == nullptr ? py::object(py::none()) : py::str(v.cmsis_nn);
    d["esp_nn"] = v.esp_nn_release == nullptr ? py::object(py::none()) : py::str(v.esp_nn_release);
    d["ethos_u"] = v.ethos_u;
    d["checked"] = v.checked;
    py::list targets;
    for (const tflm::BuildTarget& t : tflm::BuildTargets()) {
      if (tflm::CheckVersionFor(t, v).ok()) targets.append(t.name);
    }
    d["targets"] = targets;
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
        py::arg("recording"), py::arg("planner"), py::arg("resource_variables") = -1,
        py::arg("resource_variables_in_arena") = true,
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
        "kernels, checked, ethos_u}].");
  m.def(
      "tflm_registered_ops",
      [] {
        py::list builtins, custom;
        for (const char* n : tflm::TflmRegisteredBuiltins()) builtins.append(n);
        for (const char* n : tflm::TflmRegisteredCustomOps()) custom.append(n);
        py::dict d;
        d["builtins"] = builtins;
        d["custom"] = custom;
        return d;
      },
      "The operators TFLM's MicroMutableOpResolver can register: {builtins, custom}.");
  m.def(
      "tflm_modelled_ops",
      [](const std::string& target) {
        const tflm::ResolvedTarget r = Resolve(target);
        py::list names;
        for (const tflm::KernelRow& row : r.kernels) {
          if (!tflm::IsUnregisteredAt(r.version->unregistered, row.op)) names.append(row.op);
        }
        for (const char* c : tflm::TflmRegisteredCustomOps()) {
          if (tflm::IsUnregisteredAt(r.version->unregistered, c)) continue;
          if (tflm::IsModelledSignalOp(c) || tflm::IsModelledCustomOp(c, r.target->ethos_u)) {
            names.append(c);
          }
        }
        return names;
      },
      py::arg("target"),
      "Operators whose memory the stock-TFLM model of `target` replays: its kernel rows, "
      "then the custom operators it models.");
  m.def("tflm_compare_stacks", &TflmCompareStacks, py::arg("model"), py::arg("from_target"),
        py::arg("to_target"),
        "One model's stock-TFLM arena on two builds and the operators whose allocations "
        "differ: {from, to, changes} (see tflm/stack_compare.h).");
  m.def("tflm_stack_versions", &TflmStackVersions,
        "The TFLM releases and kernel-library versions targets can be built at, newest first "
        "per family: [{name, family, tflm, cmsis_nn, esp_nn, ethos_u, checked, targets}].");
  m.def(
      "tflm_resolve_target",
      [](const std::string& name) {
        const tflm::ResolvedTarget r = Resolve(name);
        py::dict d;
        d["name"] = r.name;
        d["target"] = r.target->name;
        d["version"] = r.version->name;
        d["versions"] = tflm::VersionWords(*r.target, *r.version);
        d["description"] = r.description;
        d["checked"] = r.checked;
        return d;
      },
      py::arg("name"),
      "A target name (\"TARGET\" or \"TARGET@VERSION\") resolved: {name, target, version, "
      "versions, description, checked}; ValueError listing the known ones.");
  m.def("recording_categories", &RecordingCategories,
        "TFLM's RecordingMicroAllocator categories in print order: [{key, name, noun}].");
}

}  // namespace bindings
}  // namespace tflm_arena
