// Interpreter bindings: owns the arena, the resolver, the C++ interpreter and
// the application's preallocated arrays; tensors are numpy views into the
// arena whose base is this object (so a view keeps the arena alive).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "register.h"
#include "tflm_arena/arena/allocation_category.h"
#include "tflm_arena/core/align.h"
#include "tflm_arena/plan/linear_planner.h"
#include "tflm_arena/plan/strategies.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/kernels/all_kernels.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/op_resolver.h"
#include "tflm_arena/runtime/required_arena_size.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {
namespace {

using runtime::EvalTensor;
using runtime::InterpreterOptions;

// The tensor types a numpy array can view, with numpy's name for each.
struct NumpyType {
  model::TensorType type;
  const char* dtype;
};
constexpr NumpyType kNumpyTypes[] = {
    {model::TensorType::kFloat32, "float32"}, {model::TensorType::kFloat16, "float16"},
    {model::TensorType::kFloat64, "float64"}, {model::TensorType::kInt8, "int8"},
    {model::TensorType::kUint8, "uint8"},     {model::TensorType::kInt16, "int16"},
    {model::TensorType::kUint16, "uint16"},   {model::TensorType::kInt32, "int32"},
    {model::TensorType::kUint32, "uint32"},   {model::TensorType::kInt64, "int64"},
    {model::TensorType::kUint64, "uint64"},   {model::TensorType::kBool, "bool"},
};

py::dtype DtypeOf(model::TensorType t) {
  for (const NumpyType& n : kNumpyTypes) {
    if (n.type == t) return py::dtype(n.dtype);
  }
  throw py::value_error(std::string("tensors of type ") + model::TensorTypeName(t) +
                        " have no numpy view");
}

// Largest arena the binding allocates: the planner's offsets are int32 (as
// TFLM's), so a larger arena could not be used anyway.
constexpr size_t kMaxArenaBytes = size_t{INT32_MAX};

class InterpreterHandle {
 public:
  InterpreterHandle(std::shared_ptr<ModelHandle> model, std::optional<size_t> arena_size,
                    const std::string& planner, bool keep_plan)
      : model_(std::move(model)), arena_size_(arena_size) {
    if (arena_size && *arena_size > kMaxArenaBytes) {
      throw py::value_error("arena_size " + std::to_string(*arena_size) +
                            " is larger than the limit of " + std::to_string(kMaxArenaBytes) +
                            " bytes (TFLM plans offsets as int32)");
    }
    const StrategyInfo* info = FindStrategy(planner);
    const RuntimePlanner runtime = info == nullptr ? RuntimePlanner::kNone : info->runtime;
    switch (runtime) {
      case RuntimePlanner::kGreedy:
        options_.planner = nullptr;  // the interpreter's own GreedyPlanner
        break;
      case RuntimePlanner::kLinear:
        options_.planner = &linear_;
        break;
      case RuntimePlanner::kNone:
        throw py::value_error("unknown runtime planner '" + planner +
                              "' (known: " + StrategyNames(StrategyKind::kRuntimePlanner) + ")");
    }
    options_.recording = true;  // costs no arena bytes
    options_.keep_plan = keep_plan;
    ThrowIfError(runtime::AddKernelsForModel(model_->model(), &resolver_));
  }

  void RegisterPreallocated(int tensor, py::array array) {
    if (interpreter_ || required_ != 0) {
      throw std::runtime_error("register_preallocated() must come before allocate_tensors()");
    }
    // Only plain numbers: an object array holds pointers the arena would
    // overwrite (and Python would then dereference).
    const char kind = array.dtype().kind();
    if (kind != 'b' && kind != 'i' && kind != 'u' && kind != 'f' && kind != 'c') {
      throw py::value_error("preallocated buffer must have a plain numeric or bool dtype, got " +
                            std::string(py::str(array.dtype())));
    }
    if (!(array.flags() & py::array::c_style) || !array.writeable()) {
      throw py::value_error("preallocated buffer must be a writable, C-contiguous numpy array");
    }
    pre_.push_back(
        {tensor, static_cast<uint8_t*>(array.mutable_data()), static_cast<size_t>(array.nbytes())});
    pre_arrays_.push_back(array);  // keep the application's memory alive
  }

  // Exact arena need (dry runs in heap arenas); cached, since the
  // configuration is frozen once computed.
  size_t RequiredBytes() {
    if (required_ == 0) {
      ThrowIfError(runtime::RequiredArenaSize(
          model_->model(), resolver_, options_,
          Span<const runtime::Preallocation>(pre_.data(), pre_.size()), &required_));
    }
    return required_;
  }

  void AllocateTensors() {
    if (interpreter_ && interpreter_->allocated()) return;
    if (interpreter_) ThrowIfError(interpreter_->status());  // sticky failure
    const size_t size = arena_size_ ? *arena_size_ : RequiredBytes();
    // 16-aligned start so that `size` bytes behave exactly as planned.
    raw_.reset(new (std::nothrow) uint8_t[size + 16]);
    if (!raw_) {
      PyErr_SetString(PyExc_MemoryError, ("could not allocate an arena of " + std::to_string(size) +
                                          " bytes on the host")
                                             .c_str());
      throw py::error_already_set();
    }
    uint8_t* arena = AlignPointerUp(raw_.get(), kArenaAlignment);
    arena_bytes_ = size;
    interpreter_ =
        std::make_unique<runtime::Interpreter>(model_->model(), resolver_, arena, size, options_);
    for (const runtime::Preallocation& p : pre_) {
      ThrowIfError(interpreter_->RegisterPreallocatedTensor(p.tensor_index, p.buffer, p.bytes));
    }
    Status s = interpreter_->AllocateTensors();
    if (s.code() == StatusCode::kArenaTooSmall) {
      const size_t needed = RequiredBytes();
      ThrowStatus(StatusCode::kArenaTooSmall,
                  "arena of " + std::to_string(size) +
                      " bytes is too small for this model: it "
                      "needs " +
                      std::to_string(needed) + " bytes (" + s.message() + ")",
                  needed);
    }
    ThrowIfError(s);
  }

  // Invoke without the GIL: the arena, the interpreter and the preallocated
  // arrays are this object's own, and the model is immutable. One invoke at
  // a time per interpreter; a second thread gets an error, not a race.
  void Invoke() {
    runtime::Interpreter& it = Ready();
    std::unique_lock<std::mutex> lock(busy_, std::try_to_lock);
    if (!lock.owns_lock()) {
      throw std::runtime_error(
          "this Interpreter is already invoking in another thread; "
          "use one Interpreter per thread");
    }
    Status s;
    {
      py::gil_scoped_release release;
      s = it.Invoke();
    }
    ThrowIfError(s);
  }

  // Constants (the model's bytes, or an aligned copy) are read-only views.
  bool IsConstant(size_t subgraph, size_t index) const {
    model::TensorInfo info;
    return model_->model().tensor(subgraph, index, &info).ok() && info.has_constant_data;
  }

  runtime::Interpreter& Ready() {
    if (!interpreter_ || !interpreter_->allocated()) AllocateTensors();
    return *interpreter_;
  }

  py::array View(const py::object& self, EvalTensor* t, bool read_only) {
    if (t == nullptr || t->data == nullptr) throw py::value_error("tensor has no data");
    std::vector<py::ssize_t> shape(t->dims, t->dims + t->rank);
    py::array a(DtypeOf(t->type), shape, t->data, self);  // base = self
    // Constants are the model's bytes: writing them would change every
    // later interpreter of the model.
    if (read_only) a.attr("flags").attr("writeable") = false;
    return a;
  }

  py::dict Allocations() {
    runtime::Interpreter& it = Ready();
    py::dict d;
    d["arena_bytes"] = arena_bytes_;
    d["required_bytes"] = it.required_arena_bytes();
    d["total"] = it.used_bytes();
    d["head"] = it.head_bytes();
    d["tail"] = it.tail_bytes();
    py::dict cats;
    for (size_t c = 0; c < kAllocationCategoryCount; ++c) {
      auto cat = static_cast<AllocationCategory>(c);
      RecordedAllocation r = it.recorded(cat);
      if (cat == AllocationCategory::kOther) continue;
      py::dict e;
      e["requested_bytes"] = r.requested_bytes;
      e["used_bytes"] = r.used_bytes;
      e["count"] = r.count;
      cats[AllocationCategoryName(cat)] = e;
    }
    d["categories"] = cats;
    return d;
  }

  std::string PrintAllocations() {
    runtime::Interpreter& it = Ready();
    int n = it.PrintAllocations(nullptr, 0);
    std::string s(static_cast<size_t>(n > 0 ? n : 0) + 1, '\0');
    it.PrintAllocations(s.data(), s.size());
    s.resize(static_cast<size_t>(n > 0 ? n : 0));
    return s;
  }

  py::dict MemoryPlan() {
    runtime::Interpreter& it = Ready();
    const size_t n = it.planned_buffer_count();
    const auto len = static_cast<py::ssize_t>(n);
    py::array_t<int32_t> subgraph(len), tensor(len), scratch(len), first(len), last(len);
    py::array_t<int64_t> offset(len), size(len);
    for (size_t i = 0; i < n; ++i) {
      runtime::PlannedBuffer b;
      ThrowIfError(it.planned_buffer(i, &b));
      subgraph.mutable_at(i) = b.subgraph;
      tensor.mutable_at(i) = b.tensor;
      scratch.mutable_at(i) = b.scratch_index;
      offset.mutable_at(i) = b.offset;
      size.mutable_at(i) = b.size;
      first.mutable_at(i) = b.first;
      last.mutable_at(i) = b.last;
    }
    py::dict d;
    d["subgraph"] = subgraph;
    d["tensor"] = tensor;
    d["scratch"] = scratch;
    d["offset"] = offset;
    d["size"] = size;
    d["first"] = first;
    d["last"] = last;
    return d;
  }

  size_t arena_bytes() const { return arena_bytes_; }
  bool allocated() const { return interpreter_ && interpreter_->allocated(); }
  const ModelHandle& model() const { return *model_; }
  size_t num_inputs() const {
    model::SubgraphInfo info;
    ThrowIfError(model_->model().subgraph(0, &info));
    return info.inputs.size();
  }

 private:
  std::shared_ptr<ModelHandle> model_;
  std::optional<size_t> arena_size_;
  LinearPlanner linear_;  // options_.planner for planner="linear"
  InterpreterOptions options_;
  runtime::MutableOpResolver<runtime::kNumAllShippedKernels> resolver_;
  std::vector<runtime::Preallocation> pre_;
  std::vector<py::array> pre_arrays_;
  std::unique_ptr<uint8_t[]> raw_;
  size_t arena_bytes_ = 0;
  size_t required_ = 0;
  std::unique_ptr<runtime::Interpreter> interpreter_;
  std::mutex busy_;
};

}  // namespace

void RegisterInterpreter(py::module_& m) {
  // The operators our runtime ships kernels for, in kernel_list.h's order.
  m.def("runtime_kernels", [] {
    std::vector<std::string> names;
#define TFLM_ARENA_KERNEL_NAME(NAME) names.emplace_back(#NAME);
    TFLM_ARENA_SHIPPED_KERNELS(TFLM_ARENA_KERNEL_NAME)
#undef TFLM_ARENA_KERNEL_NAME
    return names;
  });
  // The custom operators it ships kernels for: (custom code, NAME of
  // Register_NAME()), in kernel_list.h's order.
  m.def("runtime_custom_kernels", [] {
    std::vector<std::pair<std::string, std::string>> names;
#define TFLM_ARENA_KERNEL_NAME(NAME) names.emplace_back(runtime::Register_##NAME().name, #NAME);
    TFLM_ARENA_SHIPPED_CUSTOM_KERNELS(TFLM_ARENA_KERNEL_NAME)
#undef TFLM_ARENA_KERNEL_NAME
    return names;
  });
  py::class_<InterpreterHandle>(m, "InterpreterHandle")
      .def(
          py::init<std::shared_ptr<ModelHandle>, std::optional<size_t>, const std::string&, bool>(),
          py::arg("model"), py::arg("arena_size"), py::arg("planner"), py::arg("keep_plan"),
          py::keep_alive<1, 2>())
      .def("register_preallocated", &InterpreterHandle::RegisterPreallocated, py::arg("tensor"),
           py::arg("array"))
      .def("required_bytes", &InterpreterHandle::RequiredBytes)
      .def("allocate_tensors", &InterpreterHandle::AllocateTensors)
      .def("invoke", &InterpreterHandle::Invoke)
      .def("reset", [](InterpreterHandle& h) { ThrowIfError(h.Ready().Reset()); })
      .def_property_readonly("allocated", &InterpreterHandle::allocated)
      .def_property_readonly("arena_bytes", &InterpreterHandle::arena_bytes)
      .def("input_index",
           [](InterpreterHandle& h, size_t i) {
             int32_t t = h.Ready().input_tensor_index(i);
             if (t < 0) throw py::index_error("input " + std::to_string(i) + " out of range");
             return t;
           })
      .def("output_index",
           [](InterpreterHandle& h, size_t i) {
             int32_t t = h.Ready().output_tensor_index(i);
             if (t < 0) throw py::index_error("output " + std::to_string(i) + " out of range");
             return t;
           })
      .def("tensor_view",
           [](const py::object& self, size_t subgraph, size_t index) {
             InterpreterHandle& h = self.cast<InterpreterHandle&>();
             runtime::EvalTensor* t = h.Ready().tensor(subgraph, index);
             if (t == nullptr)
               throw py::index_error("tensor " + std::to_string(index) + " out of range");
             return h.View(self, t, h.IsConstant(subgraph, index));
           })
      .def("allocations", &InterpreterHandle::Allocations)
      .def("print_allocations", &InterpreterHandle::PrintAllocations)
      .def("memory_plan", &InterpreterHandle::MemoryPlan);
}

}  // namespace bindings
}  // namespace tflm_arena
