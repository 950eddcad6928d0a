// Planner bindings: numpy record columns in, numpy offsets out.
// All checks and algorithms live in plan/; this file only converts.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "record_columns.h"
#include "register.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/strategies.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {
namespace {

py::array_t<int64_t> ToArray(const std::vector<ByteOffset>& v) {
  py::array_t<int64_t> out(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

// Called by the planner (GIL released) every millisecond or so of work: runs
// Python's signal handlers, so Ctrl-C stops a long plan. A handler's
// exception (KeyboardInterrupt) stays set for plan() to raise.
bool PythonSignalPending(void*) {
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

// The registry's planner for `name` (plan/strategies.h).
PlanFn Strategy(const std::string& name) {
  const StrategyInfo* info = FindStrategy(name);
  if (info == nullptr) {
    throw py::value_error("unknown strategy '" + name + "' (known: " + StrategyNames() + ")");
  }
  if (info->plan == nullptr) {
    throw py::value_error("strategy '" + name +
                          "' is a search with its own options, not "
                          "planned by _core.plan");
  }
  return info->plan;
}

// plan_optimal's hooks: Ctrl-C and an optional Python progress callable.
// An exception from the callable stops the search and is raised afterwards.
// The callable may run on a worker thread (plan_best), whose Python error
// state is its own: the exception is kept here and raised by the caller.
struct OptimalHooks {
  py::object progress;
  bool failed = false;
  std::unique_ptr<py::error_already_set> error;

  // Raises what the callable raised, else a pending Python error (Ctrl-C).
  void RaiseIfError() {
    if (error != nullptr) {
      error->restore();
      error.reset();
      throw py::error_already_set();
    }
    if (PyErr_Occurred() != nullptr) throw py::error_already_set();
  }
};

bool OptimalStop(void* context) {
  auto* hooks = static_cast<OptimalHooks*>(context);
  if (hooks->failed) return true;
  py::gil_scoped_acquire gil;
  return PyErr_CheckSignals() != 0;
}

void OptimalProgress(void* context, int64_t best, int64_t lower, double elapsed) {
  auto* hooks = static_cast<OptimalHooks*>(context);
  if (hooks->failed) return;
  py::gil_scoped_acquire gil;
  try {
    hooks->progress(best, lower, elapsed);
  } catch (py::error_already_set& e) {
    hooks->error = std::make_unique<py::error_already_set>(std::move(e));
    hooks->failed = true;
  }
}

// plan_best's cancel hook, polled by the calling (Python main) thread only,
// where Python's signal handlers run; it also stops every strategy once the
// progress callable has raised.
bool BestStop(void* context) {
  auto* hooks = static_cast<OptimalHooks*>(context);
  py::gil_scoped_acquire gil;  // hooks->failed is written under it
  return hooks->failed || PyErr_CheckSignals() != 0;
}

// The options plan_optimal and plan_best share: limits, and hooks that
// report to (and stop on) `hooks`; `stop` is the cancel hook to use.
OptimalOptions HookedOptions(OptimalHooks* hooks, int64_t alignment, double time_limit,
                             bool (*stop)(void*)) {
  OptimalOptions options;
  options.time_limit_seconds = time_limit;
  options.alignment = alignment;
  options.cancel.stop = stop;
  options.cancel.context = hooks;
  if (!hooks->progress.is_none()) {
    options.progress = &OptimalProgress;
    options.progress_context = hooks;
  }
  return options;
}

// Binds `name(sizes, first, last, fixed)` to Fn, a function of the records
// alone (its result converted by pybind11).
template <auto Fn>
void DefOfRecords(py::module_& m, const char* name) {
  m.def(
      name,
      [](const I64Array& sizes, const I32Array& first, const I32Array& last,
         const I64Array& fixed) {
        auto records = ToRecords(sizes, first, last, fixed);
        return Fn(Span<const UsageRecord>(records.data(), records.size()));
      },
      py::arg("sizes"), py::arg("first"), py::arg("last"), py::arg("fixed"));
}

}  // namespace

void RegisterPlan(py::module_& m) {
  m.def("strategies", [] {
    py::list out;
    for (const StrategyInfo& s : Strategies()) {
      py::dict d;
      d["name"] = s.name;
      d["kind"] = StrategyKindName(s.kind);
      d["description"] = s.description;
      d["tried_by_best"] = s.tried_by_best;
      d["fixed_offsets"] = s.fixed_offsets;
      d["objects_name"] = s.kind == StrategyKind::kSharedObjects
                              ? py::object(py::str(ObjectStrategyName(s)))
                              : py::object(py::none());
      out.append(d);
    }
    return out;
  });
  m.def(
      "validate_records",
      [](const I64Array& sizes, const I32Array& first, const I32Array& last, const I64Array& fixed,
         int64_t alignment) {
        auto records = ToRecords(sizes, first, last, fixed);
        ThrowIfError(
            ValidateRecords(Span<const UsageRecord>(records.data(), records.size()), alignment));
      },
      py::arg("sizes"), py::arg("first"), py::arg("last"), py::arg("fixed"), py::arg("alignment"));
  DefOfRecords<&FixedAliases>(m, "fixed_aliases");
  m.def(
      "plan",
      [](const I64Array& sizes, const I32Array& first, const I32Array& last, const I64Array& fixed,
         const std::string& strategy) {
        PlanFn fn = Strategy(strategy);
        auto records = ToRecords(sizes, first, last, fixed);
        PlanResult result;
        Status status;
        {
          py::gil_scoped_release release;  // planning can take a while on big inputs
          PlanCancel cancel;
          cancel.stop = &PythonSignalPending;
          status = fn(Span<const UsageRecord>(records.data(), records.size()), &result, cancel);
        }
        if (!status.ok() && PyErr_Occurred() != nullptr) throw py::error_already_set();
        ThrowIfError(status);
        return py::make_tuple(ToArray(result.offsets), result.arena_bytes);
      },
      py::arg("sizes"), py::arg("first"), py::arg("last"), py::arg("fixed"), py::arg("strategy"));
  m.def(
      "plan_optimal",
      [](const I64Array& sizes, const I32Array& first, const I32Array& last, const I64Array& fixed,
         int64_t alignment, double time_limit, const py::object& progress, int64_t capacity) {
        auto records = ToRecords(sizes, first, last, fixed);
        OptimalHooks hooks;
        hooks.progress = progress;
        OptimalOptions options = HookedOptions(&hooks, alignment, time_limit, &OptimalStop);
        options.capacity = capacity;
        PlanResult result;
        OptimalStats stats;
        Status status;
        {
          py::gil_scoped_release release;
          status = PlanOptimal(Span<const UsageRecord>(records.data(), records.size()), options,
                               &result, &stats);
        }
        hooks.RaiseIfError();
        ThrowIfError(status);
        py::dict info;
        info["proven_optimal"] = stats.proven_optimal;
        info["lower_bound"] = stats.lower_bound;
        info["nodes"] = stats.nodes;
        info["seconds"] = stats.seconds;
        info["source"] = stats.incumbent_source;
        return py::make_tuple(ToArray(result.offsets), result.arena_bytes, info);
      },
      py::arg("sizes"), py::arg("first"), py::arg("last"), py::arg("fixed"), py::arg("alignment"),
      py::arg("time_limit"), py::arg("progress") = py::none(), py::arg("capacity") = 0);
  m.def(
      "plan_best",
      [](const I64Array& sizes, const I32Array& first, const I32Array& last, const I64Array& fixed,
         int64_t alignment, double time_limit, const py::object& progress, int threads) {
        auto records = ToRecords(sizes, first, last, fixed);
        OptimalHooks hooks;
        hooks.progress = progress;
        const OptimalOptions options = HookedOptions(&hooks, alignment, time_limit, &BestStop);
        PlanResult result;
        BestStats stats;
        Status status;
        {
          py::gil_scoped_release release;
          status = PlanBest(Span<const UsageRecord>(records.data(), records.size()), options,
                            threads, &result, &stats);
        }
        hooks.RaiseIfError();
        ThrowIfError(status);
        py::dict info;
        info["strategy"] = stats.strategy;
        info["proven_optimal"] = stats.proven_optimal;
        info["refused"] = stats.refused;
        return py::make_tuple(ToArray(result.offsets), result.arena_bytes, info);
      },
      py::arg("sizes"), py::arg("first"), py::arg("last"), py::arg("fixed"), py::arg("alignment"),
      py::arg("time_limit"), py::arg("progress") = py::none(), py::arg("threads") = 0);
  DefOfRecords<&LowerBound>(m, "lower_bound");
  m.def(
      "validate_plan",
      [](const I64Array& sizes, const I32Array& first, const I32Array& last, const I64Array& fixed,
         const I64Array& offsets, int64_t arena_bytes) {
        auto records = ToRecords(sizes, first, last, fixed);
        ThrowIfError(ValidatePlan(Span<const UsageRecord>(records.data(), records.size()),
                                  Span<const ByteOffset>(offsets.data(), offsets.size()),
                                  arena_bytes));
      },
      py::arg("sizes"), py::arg("first"), py::arg("last"), py::arg("fixed"), py::arg("offsets"),
      py::arg("arena_bytes"));
  m.def(
      "render_ascii",
      [](const I64Array& sizes, const I32Array& first, const I32Array& last, const I64Array& fixed,
         const I64Array& offsets) {
        auto records = ToRecords(sizes, first, last, fixed);
        if (offsets.size() != sizes.size()) throw py::value_error("one offset per record");
        return RenderAscii(Span<const UsageRecord>(records.data(), records.size()),
                           Span<const ByteOffset>(offsets.data(), offsets.size()));
      },
      py::arg("sizes"), py::arg("first"), py::arg("last"), py::arg("fixed"), py::arg("offsets"));
}

}  // namespace bindings
}  // namespace tflm_arena
