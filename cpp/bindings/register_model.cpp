// Model bindings: a verified model over bytes the binding owns, its tables as
// plain dicts / numpy arrays, usage records, and offline-plan read/write.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "register.h"
#include "tflm_arena/model/offline_aliases.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/model/offline_plan_writer.h"
#include "tflm_arena/model/schema_enums.h"
#include "tflm_arena/model/tensor_type.h"

namespace py = pybind11;

namespace tflm_arena {
namespace bindings {

namespace {

template <typename T>
py::array_t<T> ToArray(Span<const T> s) {
  py::array_t<T> out(static_cast<py::ssize_t>(s.size()));
  std::copy(s.begin(), s.end(), out.mutable_data());
  return out;
}

py::list ToList(Span<const int32_t> s) {
  py::list out;
  for (int32_t v : s) out.append(v);
  return out;
}

}  // namespace

// Owns a copy of the bytes (malloc'd, so 16-aligned as the reader needs).
ModelHandle::ModelHandle(py::bytes data) {
  std::string_view view = data;
  bytes_.assign(view.begin(), view.end());
  ThrowIfError(model::Model::FromBuffer(bytes_.data(), bytes_.size(), &model_));
}

namespace {

py::dict SubgraphDict(const model::Model& m, size_t s) {
  model::SubgraphInfo info;
  ThrowIfError(m.subgraph(s, &info));
  py::dict d;
  d["name"] = Utf8(info.name);
  d["num_tensors"] = info.num_tensors;
  d["num_operators"] = info.num_operators;
  d["first_tensor"] = info.first_tensor;
  d["inputs"] = ToList(info.inputs);
  d["outputs"] = ToList(info.outputs);
  return d;
}

py::dict TensorDict(const model::Model& m, size_t s, size_t t) {
  model::TensorInfo info;
  ThrowIfError(m.tensor(s, t, &info));
  py::dict d;
  d["index"] = t;
  d["name"] = Utf8(info.name);
  d["type"] = std::string(model::TensorTypeName(info.type));
  d["shape"] = ToList(info.shape);
  d["shape_signature"] = info.shape_signature.empty() ? py::object(py::none())
                                                      : py::object(ToList(info.shape_signature));
  d["buffer"] = info.buffer;
  d["is_variable"] = info.is_variable;
  d["is_constant"] = info.has_constant_data;
  size_t bytes = 0;
  d["bytes"] = m.tensor_bytes(s, t, &bytes).ok() ? py::object(py::int_(bytes))
                                                 : py::object(py::none());
  d["scale"] = ToArray(info.scale);
  d["zero_point"] = ToArray(info.zero_point);
  d["quantized_dimension"] = info.quantized_dimension;
  return d;
}

py::dict OperatorDict(const model::Model& m, size_t s, size_t o) {
  model::OperatorInfo info;
  ThrowIfError(m.op(s, o, &info));
  py::dict d;
  d["index"] = o;
  const char* name = model::BuiltinCodeName(info.builtin_code);
  d["builtin_code"] = info.builtin_code;
  d["name"] = info.builtin_code == model::kBuiltinCustom ? Utf8(info.custom_code)
              : name != nullptr                          ? py::str(name)
                                                         : py::str("BUILTIN_" + std::to_string(info.builtin_code));
  d["custom_code"] = Utf8(info.custom_code);
  d["version"] = info.version;
  d["inputs"] = ToList(info.inputs);
  d["outputs"] = ToList(info.outputs);
  d["intermediates"] = ToList(info.intermediates);
  py::list called;
  for (size_t i = 0; i < info.called.count; ++i) called.append(info.called.index[i]);
  d["called_subgraphs"] = called;
  return d;
}

py::list Metadata(const model::Model& m) {
  py::list out;
  for (size_t i = 0; i < m.num_metadata(); ++i) {
    model::MetadataInfo md;
    ThrowIfError(m.metadata(i, &md));
    model::BufferInfo buf;
    ThrowIfError(m.buffer(md.buffer, &buf));
    out.append(py::make_tuple(Utf8(md.name, md.name_length), md.buffer,
                              py::bytes(reinterpret_cast<const char*>(buf.data.data()),
                                        buf.data.size())));
  }
  return out;
}

// SignatureDefs in file order: key, subgraph and (name, tensor) pairs.
py::list Signatures(const model::Model& m) {
  py::list out;
  for (size_t i = 0; i < m.num_signatures(); ++i) {
    model::SignatureInfo sig;
    ThrowIfError(m.signature(i, &sig));
    py::list maps[2];
    for (int output = 0; output < 2; ++output) {
      const size_t n = output ? sig.num_outputs : sig.num_inputs;
      for (size_t k = 0; k < n; ++k) {
        model::SignatureTensorInfo t;
        ThrowIfError(m.signature_tensor(i, output != 0, k, &t));
        maps[output].append(py::make_tuple(Utf8(t.name, t.name_length), t.tensor));
      }
    }
    py::dict d;
    d["key"] = Utf8(sig.key, sig.key_length);
    d["subgraph"] = sig.subgraph;
    d["inputs"] = maps[0];
    d["outputs"] = maps[1];
    out.append(d);
  }
  return out;
}

// Planner input in TFLM's order plus where each record came from.
py::dict UsageRecords(const model::Model& m, const std::vector<model::ScratchRequest>& scratch) {
  std::vector<model::AllocationEntry> entries(model::AllocationInfoCount(m, scratch.size()));
  ThrowIfError(model::ComputeModelAllocationInfo(
      m, Span<const model::ScratchRequest>(scratch.data(), scratch.size()),
      Span<model::AllocationEntry>(entries.data(), entries.size())));
  Span<const model::AllocationEntry> all(entries.data(), entries.size());
  const size_t n = model::PlannedBufferCount(all);
  std::vector<UsageRecord> records(n);
  std::vector<uint32_t> source(n);
  size_t count = 0;
  ThrowIfError(model::BuildUsageRecords(all, Span<UsageRecord>(records.data(), n),
                                        Span<uint32_t>(source.data(), n), &count));
  py::array_t<int64_t> size(n), offset(n);
  py::array_t<int32_t> first(n), last(n), subgraph(n), tensor(n), scratch_index(n), global(n);
  std::vector<size_t> first_tensor(m.num_subgraphs());
  for (size_t s = 0, acc = 0; s < m.num_subgraphs(); ++s) {
    first_tensor[s] = acc;
    acc += m.num_tensors(s);
  }
  for (size_t i = 0; i < n; ++i) {
    const model::AllocationEntry& e = entries[source[i]];
    size.mutable_at(i) = records[i].size;
    first.mutable_at(i) = records[i].first_step;
    last.mutable_at(i) = records[i].last_step;
    offset.mutable_at(i) = records[i].fixed_offset;
    subgraph.mutable_at(i) = static_cast<int32_t>(e.subgraph);
    tensor.mutable_at(i) = e.is_scratch ? -1 : static_cast<int32_t>(e.index);
    scratch_index.mutable_at(i) = e.is_scratch ? static_cast<int32_t>(e.index) : -1;
    global.mutable_at(i) =
        e.is_scratch ? -1 : static_cast<int32_t>(first_tensor[e.subgraph] + e.index);
  }
  py::dict d;
  d["size"] = size;
  d["first"] = first;
  d["last"] = last;
  d["fixed_offset"] = offset;
  d["subgraph"] = subgraph;
  d["tensor"] = tensor;
  d["global_tensor"] = global;
  d["scratch"] = scratch_index;
  return d;
}

py::object OfflinePlan(const model::Model& m) {
  model::OfflinePlanView view;
  bool present = false;
  ThrowIfError(model::DecodeOfflinePlan(m, &view, &present));
  if (!present) return py::none();
  py::array_t<int64_t> out(static_cast<py::ssize_t>(view.size()));
  for (size_t i = 0; i < view.size(); ++i) out.mutable_at(i) = view.offset(i);
  return std::move(out);
}

// Aliased pairs of the model's offline plan (model/offline_aliases.h, the
// same check the interpreter refuses on), as dicts naming both tensors.
py::list OfflinePlanAliases(const model::Model& m) {
  std::vector<model::AllocationEntry> entries(model::AllocationInfoCount(m, 0));
  ThrowIfError(model::ComputeModelAllocationInfo(
      m, Span<const model::ScratchRequest>(),
      Span<model::AllocationEntry>(entries.data(), entries.size())));
  std::vector<model::OfflineAlias> found;
  ThrowIfError(model::ForEachOfflineAlias(
      Span<const model::AllocationEntry>(entries.data(), entries.size()),
      [](const model::OfflineAlias& alias, void* context) {
        static_cast<std::vector<model::OfflineAlias>*>(context)->push_back(alias);
        return true;
      },
      &found));
  py::list out;
  for (const model::OfflineAlias& a : found) {
    py::dict d;
    const model::AllocationEntry& x = entries[a.a];
    const model::AllocationEntry& y = entries[a.b];
    d["subgraphs"] = py::make_tuple(x.subgraph, y.subgraph);
    d["tensors"] = py::make_tuple(x.index, y.index);
    d["offsets"] = py::make_tuple(x.offline_offset, y.offline_offset);
    d["shared_bytes"] = py::make_tuple(a.overlap_begin, a.overlap_end);
    d["steps"] = py::make_tuple(a.first_common, a.last_common);
    out.append(d);
  }
  return out;
}

py::bytes WithOfflinePlan(const ModelHandle& h,
                          py::array_t<int64_t, py::array::c_style | py::array::forcecast> offsets) {
  const model::Model& m = h.model();
  if (static_cast<size_t>(offsets.size()) != m.total_tensors()) {
    throw py::value_error("offline plan needs one offset per tensor (" +
                          std::to_string(m.total_tensors()) + "), got " +
                          std::to_string(offsets.size()));
  }
  std::vector<uint8_t> words, out;
  ThrowIfError(model::EncodeOfflinePlan(static_cast<int32_t>(m.num_subgraphs()),
                                        Span<const int64_t>(offsets.data(), offsets.size()),
                                        &words));
  ThrowIfError(model::WriteOfflinePlanMetadata(
      h.bytes().data(), h.bytes().size(), Span<const uint8_t>(words.data(), words.size()), &out));
  return py::bytes(reinterpret_cast<const char*>(out.data()), out.size());
}

// {enum name: {value name: value}} for every enum of model/schema_enums.h,
// values in ascending order.
py::dict SchemaEnums() {
  py::dict out;
  for (size_t i = 0; i < model::kNumSchemaEnums; ++i) {
    const auto e = static_cast<model::SchemaEnum>(i);
    py::dict values;
    for (int32_t v = 0; v < model::SchemaEnumSize(e); ++v) {
      values[py::str(model::SchemaEnumValueName(e, v))] = v;
    }
    out[py::str(model::SchemaEnumName(e))] = values;
  }
  return out;
}

}  // namespace

void RegisterModel(py::module_& m) {
  m.def("schema_enums", &SchemaEnums);
  py::class_<ModelHandle, std::shared_ptr<ModelHandle>>(m, "ModelHandle")
      .def(py::init<py::bytes>(), py::arg("data"))
      .def_property_readonly("size", [](const ModelHandle& h) { return h.bytes().size(); })
      .def_property_readonly("version", [](const ModelHandle& h) { return h.model().version(); })
      .def_property_readonly("description",
                             [](const ModelHandle& h) { return Utf8(h.model().description()); })
      .def_property_readonly("num_subgraphs",
                             [](const ModelHandle& h) { return h.model().num_subgraphs(); })
      .def_property_readonly("num_buffers",
                             [](const ModelHandle& h) { return h.model().num_buffers(); })
      .def_property_readonly("total_tensors",
                             [](const ModelHandle& h) { return h.model().total_tensors(); })
      .def("subgraph", [](const ModelHandle& h, size_t s) { return SubgraphDict(h.model(), s); })
      .def("tensor", [](const ModelHandle& h, size_t s, size_t t) { return TensorDict(h.model(), s, t); })
      .def("operator", [](const ModelHandle& h, size_t s, size_t o) { return OperatorDict(h.model(), s, o); })
      .def("num_tensors", [](const ModelHandle& h, size_t s) { return h.model().num_tensors(s); })
      .def("num_operators", [](const ModelHandle& h, size_t s) { return h.model().num_operators(s); })
      .def("metadata", [](const ModelHandle& h) { return Metadata(h.model()); })
      .def("signatures", [](const ModelHandle& h) { return Signatures(h.model()); })
      .def("usage_records",
           [](const ModelHandle& h, const std::vector<std::tuple<size_t, int32_t, int32_t>>& scratch) {
             std::vector<model::ScratchRequest> req;
             for (const auto& [bytes, node, subgraph] : scratch) req.push_back({bytes, node, subgraph});
             return UsageRecords(h.model(), req);
           },
           py::arg("scratch") = std::vector<std::tuple<size_t, int32_t, int32_t>>())
      .def("offline_plan", [](const ModelHandle& h) { return OfflinePlan(h.model()); })
      .def("offline_plan_aliases", [](const ModelHandle& h) { return OfflinePlanAliases(h.model()); })
      .def("with_offline_plan", &WithOfflinePlan, py::arg("offsets"));
}

}  // namespace bindings
}  // namespace tflm_arena
