// Offline-plan decoding and the plan writer.
//  - The input as raw metadata words: DecodeOfflinePlanBytes with the model
//    shape taken from the input's own header (so valid plans are reachable)
//    and with a mismatching one; an accepted plan must read back in range.
//  - The input as a model: DecodeOfflinePlan, then the writer round trip:
//    encode a plan (the decoded one, or offsets derived from the input),
//    write it into a copy, and require that the copy loads, decodes to the
//    same offsets and keeps every tensor, operator code and buffer as before;
//    then overwrite that plan once more (the replace path).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_util.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/model/offline_plan_writer.h"

namespace {

using tflm_arena::Span;
using tflm_arena::Status;
using tflm_arena::StatusCode;
namespace model = tflm_arena::model;

// Keeps a run fast: plans for more tensors than this are not rewritten.
constexpr size_t kMaxRewriteTensors = size_t{1} << 16;

uint32_t Word(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

void CheckView(const model::OfflinePlanView& v, size_t num_subgraphs, size_t total) {
  FUZZ_CHECK(!v.empty(), "accepted plan is empty");
  FUZZ_CHECK(v.version() == model::kOfflinePlanVersion, "version %d", v.version());
  FUZZ_CHECK(static_cast<size_t>(v.num_subgraphs()) == num_subgraphs, "num_subgraphs %d != %zu",
             v.num_subgraphs(), num_subgraphs);
  FUZZ_CHECK(v.size() == total, "plan size %zu != %zu", v.size(), total);
  for (size_t i = 0; i < v.size(); ++i) {
    FUZZ_CHECK(v.offset(i) >= -1, "offset %zu is %d", i, v.offset(i));
    FUZZ_CHECK(v.IsAligned(i, 1) && v.IsAligned(i, 0), "IsAligned(1)/IsAligned(0) false");
    if (v.offset(i) >= 0) {
      FUZZ_CHECK(v.IsAligned(i, 16) == (v.offset(i) % 16 == 0), "IsAligned(16) wrong");
    }
  }
  FUZZ_CHECK(v.offset(v.size()) == model::kOfflinePlanOnline, "offset past the end");
}

void DecodeRaw(const uint8_t* data, size_t size) {
  Span<const uint8_t> bytes(data, size);
  model::OfflinePlanView v;
  if (size >= 12) {
    // The header's own claims: the path on which valid plans decode.
    const size_t ns = Word(data + 4), n = Word(data + 8);
    if (model::DecodeOfflinePlanBytes(bytes, ns, n, &v).ok()) CheckView(v, ns, n);
    model::OfflinePlanView w;
    Status s = model::DecodeOfflinePlanBytes(bytes, ns, n + 1, &w);
    FUZZ_CHECK(!s.ok(), "plan accepted with the wrong tensor count");
  }
  model::OfflinePlanView u;
  const size_t words = size / 4;
  if (model::DecodeOfflinePlanBytes(bytes, 1, words >= 3 ? words - 3 : 0, &u).ok()) {
    CheckView(u, 1, words - 3);
  }
}

// Everything a rewrite must leave as it was.
void CheckSameModel(const model::Model& a, const model::Model& b) {
  FUZZ_CHECK(a.version() == b.version(), "version changed");
  FUZZ_CHECK(a.num_subgraphs() == b.num_subgraphs(), "subgraph count changed");
  FUZZ_CHECK(a.total_tensors() == b.total_tensors(), "tensor count changed");
  FUZZ_CHECK(a.num_operator_codes() == b.num_operator_codes(), "opcode count changed");
  FUZZ_CHECK(b.num_buffers() == a.num_buffers() || b.num_buffers() == a.num_buffers() + 1,
             "buffers %zu -> %zu", a.num_buffers(), b.num_buffers());
  FUZZ_CHECK(b.num_metadata() == a.num_metadata() || b.num_metadata() == a.num_metadata() + 1,
             "metadata %zu -> %zu", a.num_metadata(), b.num_metadata());
  size_t checked = 0;
  for (size_t sg = 0; sg < a.num_subgraphs(); ++sg) {
    FUZZ_CHECK(a.num_tensors(sg) == b.num_tensors(sg), "subgraph %zu tensors", sg);
    FUZZ_CHECK(a.num_operators(sg) == b.num_operators(sg), "subgraph %zu ops", sg);
    for (size_t t = 0; t < a.num_tensors(sg) && checked < 4096; ++t, ++checked) {
      model::TensorInfo x, y;
      FUZZ_CHECK(a.tensor(sg, t, &x).ok() && b.tensor(sg, t, &y).ok(), "tensor read");
      FUZZ_CHECK(x.type == y.type && x.buffer == y.buffer && x.is_variable == y.is_variable &&
                     x.num_elements == y.num_elements && x.shape.size() == y.shape.size() &&
                     x.has_constant_data == y.has_constant_data &&
                     x.uses_external_buffer == y.uses_external_buffer,
                 "tensor (%zu, %zu) changed", sg, t);
      model::BufferInfo bx, by;
      FUZZ_CHECK(a.buffer(x.buffer, &bx).ok() && b.buffer(y.buffer, &by).ok(), "buffer read");
      FUZZ_CHECK(bx.data.size() == by.data.size(), "tensor (%zu, %zu): buffer %u size %zu -> %zu",
                 sg, t, x.buffer, bx.data.size(), by.data.size());
      for (size_t i = 0; i < bx.data.size(); ++i) {
        FUZZ_CHECK(bx.data[i] == by.data[i], "buffer %u byte %zu changed", x.buffer, i);
      }
    }
  }
}

// Writes `offsets` into a copy of `m` and checks the copy; returns it in
// `out` (empty when the writer declined the model).
void RoundTrip(const model::Model& m, const std::vector<int64_t>& offsets,
               std::vector<uint8_t>* out) {
  out->clear();
  std::vector<uint8_t> payload;
  Status s =
      model::EncodeOfflinePlan(static_cast<int32_t>(m.num_subgraphs()),
                               Span<const int64_t>(offsets.data(), offsets.size()), &payload);
  FUZZ_CHECK(s.ok(), "EncodeOfflinePlan: %s", s.message());
  model::OfflinePlanView v;
  s = model::DecodeOfflinePlanBytes(payload, m.num_subgraphs(), offsets.size(), &v);
  FUZZ_CHECK(s.ok(), "encoded plan does not decode: %s", s.message());
  for (size_t i = 0; i < offsets.size(); ++i) FUZZ_CHECK(v.offset(i) == offsets[i], "word %zu", i);

  std::vector<uint8_t> written;
  s = model::WriteOfflinePlanMetadata(m.data(), m.size(), payload, &written);
  if (!s.ok()) {
    // Allowed only for what the writer documents it cannot rewrite.
    FUZZ_CHECK(s.code() == StatusCode::kInvalidArgument, "writer: %s", s.message());
    return;
  }
  // Exact-size copy so ASan sees reads past the end.
  fuzz::InputCopy copy(written.data(), written.size());
  model::Model m2;
  s = model::Model::FromBuffer(copy.data(), copy.size(), &m2);
  FUZZ_CHECK(s.ok(), "rewritten model does not load: %s", s.message());
  CheckSameModel(m, m2);
  bool present = false;
  s = model::DecodeOfflinePlan(m2, &v, &present);
  FUZZ_CHECK(s.ok() && present, "rewritten plan: %s", s.ok() ? "absent" : s.message());
  CheckView(v, m.num_subgraphs(), m.total_tensors());
  for (size_t i = 0; i < offsets.size(); ++i) {
    FUZZ_CHECK(v.offset(i) == offsets[i], "tensor %zu: wrote %lld, read %d", i,
               static_cast<long long>(offsets[i]), v.offset(i));
  }
  *out = std::move(written);
}

void FuzzModel(const model::Model& m, uint64_t hash) {
  model::OfflinePlanView plan;
  bool present = false;
  Status s = model::DecodeOfflinePlan(m, &plan, &present);
  if (s.ok() && present) {
    CheckView(plan, m.num_subgraphs(), m.total_tensors());
    FUZZ_CHECK(plan.metadata_index() < m.num_metadata(), "metadata index");
    FUZZ_CHECK(plan.buffer_index() < m.num_buffers(), "buffer index");
  }
  if (!s.ok()) FUZZ_CHECK(s.code() == StatusCode::kInvalidArgument, "%s", s.message());
  const size_t n = m.total_tensors();
  if (n > kMaxRewriteTensors || m.num_subgraphs() > INT32_MAX) return;

  std::vector<int64_t> offsets(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t h = (hash ^ (i * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
    switch (h % 4) {
      case 0:
        offsets[i] = -1;
        break;
      case 1:
        offsets[i] = static_cast<int64_t>((h >> 8) % 4096) * 16;
        break;
      case 2:
        offsets[i] = static_cast<int64_t>((h >> 8) & 0x7FFFFFFF);
        break;
      default:
        offsets[i] = present ? plan.offset(i) : 0;
        break;
    }
  }
  std::vector<uint8_t> once;
  RoundTrip(m, offsets, &once);
  if (once.empty()) return;
  // Replace the plan just written (the existing-entry path of the writer).
  fuzz::InputCopy copy(once.data(), once.size());
  model::Model m2;
  FUZZ_CHECK(model::Model::FromBuffer(copy.data(), copy.size(), &m2).ok(), "reload");
  for (int64_t& o : offsets) o = o < 0 ? 0 : -1;
  std::vector<uint8_t> twice;
  RoundTrip(m2, offsets, &twice);
  if (!twice.empty()) {
    fuzz::InputCopy copy2(twice.data(), twice.size());
    model::Model m3;
    FUZZ_CHECK(model::Model::FromBuffer(copy2.data(), copy2.size(), &m3).ok(), "reload 2");
    FUZZ_CHECK(m3.num_metadata() == m2.num_metadata(), "replacing the plan added metadata");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::InputCopy input(data, size);
  DecodeRaw(input.data(), input.size());
  model::Model m;
  if (model::Model::FromBuffer(input.data(), input.size(), &m).ok()) {
    FuzzModel(m, fuzz::Hash(data, size));
  }
  return 0;
}
