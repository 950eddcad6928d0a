// Model::FromBuffer on arbitrary bytes, then every accessor of a model that
// loads. Checks model.h's promises: every span and string lies inside the
// input, every index handed out is in range, counts agree, and indices one
// past the end give kOutOfRange. Reading each element lets ASan catch reads
// outside the input (the input sits in an exact-size heap block).
#include <cstddef>
#include <cstdint>

#include "fuzz_util.h"
#include "tflm_arena/model/flexbuffer_map.h"
#include "tflm_arena/model/model.h"

namespace {

using tflm_arena::Span;
using tflm_arena::StatusCode;
namespace model = tflm_arena::model;

// Caps the walk: a crafted file may alias one long vector from many tables
// (the verifier allows 2^26 visits), which would make one run take seconds.
constexpr uint64_t kMaxVisits = uint64_t{1} << 20;

struct Walker {
  const model::Model& m;
  uint64_t visits = 0;
  volatile uint64_t sink = 0;  // keeps element reads from being optimised out

  bool Budget(size_t n) {
    visits += n + 1;
    return visits <= kMaxVisits;
  }
  template <typename T>
  void CheckSpan(Span<const T> s, const char* what) {
    if (s.empty()) return;
    FUZZ_CHECK(fuzz::Inside(s.data(), s.size() * sizeof(T), m.data(), m.size()),
               "%s: span of %zu elements lies outside the model bytes", what, s.size());
    uint64_t acc = 0;  // byte sum: works for float elements too
    const uint8_t* bytes = reinterpret_cast<const uint8_t*>(s.data());
    for (size_t i = 0; i < s.size() * sizeof(T); ++i) acc += bytes[i];
    sink = sink + acc;
  }
  void CheckString(const char* s, const char* what) {
    FUZZ_CHECK(s != nullptr, "%s: null string", what);
    if (*s == '\0') return;  // "" may be a literal outside the model
    FUZZ_CHECK(fuzz::Inside(s, 1, m.data(), m.size()), "%s: string outside the model", what);
    size_t n = 0;
    while (s[n] != '\0') ++n;  // ASan flags a missing terminator
    FUZZ_CHECK(fuzz::Inside(s, n + 1, m.data(), m.size()), "%s: string runs past the model", what);
  }
  void CheckIndices(Span<const int32_t> s, int32_t lo, size_t count, const char* what) {
    CheckSpan(s, what);
    for (int32_t v : s) {
      FUZZ_CHECK(v >= lo && (v < 0 || static_cast<size_t>(v) < count),
                 "%s: index %d outside [%d, %zu)", what, v, lo, count);
    }
  }

  void Tensor(size_t sg, size_t t) {
    model::TensorInfo info;
    FUZZ_CHECK(m.tensor(sg, t, &info).ok(), "tensor(%zu, %zu) failed", sg, t);
    if (!Budget(info.shape.size() + info.shape_signature.size() + info.scale.size())) return;
    CheckString(info.name, "tensor name");
    CheckSpan(info.shape, "tensor shape");
    uint64_t elements = 1;
    bool overflow = false;
    for (int32_t d : info.shape) {
      FUZZ_CHECK(d >= 0, "tensor (%zu, %zu): negative dim %d", sg, t, d);
      if (d != 0 && elements > UINT64_MAX / static_cast<uint64_t>(d)) overflow = true;
      elements *= static_cast<uint64_t>(d);
    }
    FUZZ_CHECK(info.shape.size() <= model::kMaxRank, "tensor (%zu, %zu): rank %zu", sg, t,
               info.shape.size());
    if (!overflow) {
      FUZZ_CHECK(elements == info.num_elements, "tensor (%zu, %zu): %llu elements, info says %llu",
                 sg, t, static_cast<unsigned long long>(elements),
                 static_cast<unsigned long long>(info.num_elements));
    }
    CheckSpan(info.shape_signature, "shape_signature");
    for (int32_t d : info.shape_signature) FUZZ_CHECK(d >= -1, "shape_signature dim %d", d);
    FUZZ_CHECK(info.buffer < m.num_buffers(), "tensor buffer %u of %zu", info.buffer,
               m.num_buffers());
    CheckSpan(info.scale, "scale");
    CheckSpan(info.zero_point, "zero_point");
    if (!info.zero_point.empty()) {
      FUZZ_CHECK(reinterpret_cast<uintptr_t>(info.zero_point.data()) % 8 == 0,
                 "int64 zero points not 8-aligned");
    }
    size_t bytes = 0;
    tflm_arena::Status s = m.tensor_bytes(sg, t, &bytes);
    const size_t element = model::ElementByteSize(info.type);
    if (element == 0) {
      FUZZ_CHECK(!s.ok(), "tensor_bytes accepted a type without element size");
    } else {
      FUZZ_CHECK(s.ok(), "tensor_bytes(%zu, %zu): %s", sg, t, s.message());
      FUZZ_CHECK(bytes == info.num_elements * element, "tensor_bytes %zu != %llu x %zu", bytes,
                 static_cast<unsigned long long>(info.num_elements), element);
      FUZZ_CHECK(bytes <= model::kMaxTensorBytes, "tensor_bytes %zu above the limit", bytes);
    }
  }

  // The custom options as a flexbuffer map (what the Signal kernels read):
  // every key a string inside the options, every element readable.
  void CustomOptions(Span<const uint8_t> bytes) {
    model::FlexbufferMap map;
    if (!model::FlexbufferMap::Parse("op", bytes, &map).ok()) return;
    for (size_t i = 0; i < map.size() && Budget(1); ++i) {
      const char* key = map.KeyAt(i);
      FUZZ_CHECK(key != nullptr, "key %zu of a parsed map is null", i);
      CheckString(key, "flexbuffer key");
      FUZZ_CHECK(fuzz::Inside(key, 1, bytes.data(), bytes.size()), "key %zu outside the options",
                 i);
      int32_t v = 0;
      bool b = false;
      (void)map.Int32At(i, key, &v);
      (void)map.BoolAt(i, key, &b);
      (void)map.Int32ByKey(key, &v);
    }
  }

  void Op(size_t sg, size_t o, size_t num_tensors) {
    model::OperatorInfo info;
    FUZZ_CHECK(m.op(sg, o, &info).ok(), "op(%zu, %zu) failed", sg, o);
    if (!Budget(info.inputs.size() + info.outputs.size() + info.intermediates.size() +
                info.custom_options.size())) {
      return;
    }
    FUZZ_CHECK(info.opcode_index < m.num_operator_codes(), "opcode index %u of %zu",
               info.opcode_index, m.num_operator_codes());
    model::OperatorCodeInfo code;
    FUZZ_CHECK(m.operator_code(info.opcode_index, &code).ok(), "operator_code failed");
    FUZZ_CHECK(code.builtin_code == info.builtin_code, "op builtin %d != opcode's %d",
               static_cast<int>(info.builtin_code), static_cast<int>(code.builtin_code));
    CheckString(info.custom_code, "op custom_code");
    CheckIndices(info.inputs, -1, num_tensors, "op inputs");
    CheckIndices(info.outputs, 0, num_tensors, "op outputs");
    CheckIndices(info.intermediates, 0, num_tensors, "op intermediates");
    CheckSpan(info.custom_options, "custom_options");
    CustomOptions(info.custom_options);
    FUZZ_CHECK(info.called.count <= 2, "called count %zu", info.called.count);
    for (size_t i = 0; i < info.called.count; ++i) {
      FUZZ_CHECK(info.called.index[i] >= 0 &&
                     static_cast<size_t>(info.called.index[i]) < m.num_subgraphs(),
                 "called subgraph %d of %zu", info.called.index[i], m.num_subgraphs());
    }
    model::OptionsTable options;
    tflm_arena::Status s = m.builtin_options(sg, o, &options);
    if (s.ok() && options.present()) {
      // Raw field reads stay inside the buffer whatever the table holds;
      // a [int] vector read is bounds- and alignment-checked.
      for (size_t id = 0; id < 8; ++id) (void)options.Int32(id, 0);
      Span<const int32_t> vec;
      if (options.Int32Vector(0, &vec)) CheckSpan(vec, "options [int] field 0");
    }
  }

  void Run() {
    CheckString(m.description(), "description");
    size_t first_tensor = 0;
    for (size_t sg = 0; sg < m.num_subgraphs(); ++sg) {
      model::SubgraphInfo info;
      FUZZ_CHECK(m.subgraph(sg, &info).ok(), "subgraph(%zu) failed", sg);
      FUZZ_CHECK(info.num_tensors == m.num_tensors(sg), "subgraph %zu tensor count", sg);
      FUZZ_CHECK(info.num_operators == m.num_operators(sg), "subgraph %zu op count", sg);
      FUZZ_CHECK(info.first_tensor == first_tensor, "subgraph %zu first tensor %zu != %zu", sg,
                 info.first_tensor, first_tensor);
      first_tensor += info.num_tensors;
      CheckString(info.name, "subgraph name");
      CheckIndices(info.inputs, 0, info.num_tensors, "subgraph inputs");
      CheckIndices(info.outputs, 0, info.num_tensors, "subgraph outputs");
      for (size_t t = 0; t < info.num_tensors && Budget(0); ++t) Tensor(sg, t);
      for (size_t o = 0; o < info.num_operators && Budget(0); ++o) Op(sg, o, info.num_tensors);
      model::TensorInfo t;
      model::OperatorInfo op;
      FUZZ_CHECK(m.tensor(sg, info.num_tensors, &t).code() == StatusCode::kOutOfRange,
                 "tensor past the end");
      FUZZ_CHECK(m.op(sg, info.num_operators, &op).code() == StatusCode::kOutOfRange,
                 "op past the end");
      if (!Budget(0)) return;
    }
    FUZZ_CHECK(first_tensor == m.total_tensors(), "total_tensors %zu != %zu", m.total_tensors(),
               first_tensor);
    for (size_t i = 0; i < m.num_operator_codes() && Budget(0); ++i) {
      model::OperatorCodeInfo code;
      FUZZ_CHECK(m.operator_code(i, &code).ok(), "operator_code(%zu)", i);
      CheckString(code.custom_code, "opcode custom_code");
    }
    for (size_t i = 0; i < m.num_buffers() && Budget(0); ++i) {
      model::BufferInfo b;
      FUZZ_CHECK(m.buffer(i, &b).ok(), "buffer(%zu)", i);
      if (!b.data.empty()) {
        FUZZ_CHECK(fuzz::Inside(b.data.data(), b.data.size(), m.data(), m.size()),
                   "buffer %zu: data outside the model", i);
        sink = sink + b.data[0] + b.data[b.data.size() - 1];
      }
    }
    for (size_t i = 0; i < m.num_metadata() && Budget(0); ++i) {
      model::MetadataInfo md;
      FUZZ_CHECK(m.metadata(i, &md).ok(), "metadata(%zu)", i);
      if (md.name_length != 0) {
        FUZZ_CHECK(fuzz::Inside(md.name, md.name_length, m.data(), m.size()),
                   "metadata %zu: name outside the model", i);
      }
      FUZZ_CHECK(md.buffer < m.num_buffers(), "metadata buffer %u of %zu", md.buffer,
                 m.num_buffers());
    }
    model::SubgraphInfo s;
    model::OperatorCodeInfo c;
    model::BufferInfo b;
    model::MetadataInfo md;
    FUZZ_CHECK(m.subgraph(m.num_subgraphs(), &s).code() == StatusCode::kOutOfRange, "subgraph");
    FUZZ_CHECK(m.operator_code(m.num_operator_codes(), &c).code() == StatusCode::kOutOfRange,
               "operator_code");
    FUZZ_CHECK(m.buffer(m.num_buffers(), &b).code() == StatusCode::kOutOfRange, "buffer");
    FUZZ_CHECK(m.metadata(m.num_metadata(), &md).code() == StatusCode::kOutOfRange, "metadata");
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::InputCopy input(data, size);
  model::Model m;
  tflm_arena::Status s = model::Model::FromBuffer(input.data(), input.size(), &m);
  if (!s.ok()) {
    FUZZ_CHECK(!m.loaded() && m.num_subgraphs() == 0, "failed load left a model behind");
    FUZZ_CHECK(s.message()[0] != '\0', "error without a message");
    return 0;
  }
  FUZZ_CHECK(m.num_subgraphs() >= 1, "loaded model without subgraphs");
  Walker{m}.Run();
  return 0;
}
