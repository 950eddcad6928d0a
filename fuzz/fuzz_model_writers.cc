// The model writers that reorder and edit a graph, on untrusted models
// (the offline-plan writer has its own harness, fuzz_offline_plan):
//  - WriteOperatorOrder with the identity, the reverse and a permutation
//    from the input's hash, each first checked by plan/'s
//    CheckOperatorOrder on BuildOperatorGraph's graph (as the bindings do),
//    and written whether the check passes or not (the writer must refuse
//    cleanly or write a model that loads);
//  - WriteGraphEdit replacing one operator of subgraph 0 (picked from the
//    hash) by a new one with the same code, inputs and outputs, plus a new
//    activation tensor like an original one and a new int32 constant.
//
// Checks beyond "no crash / no UB": every error has a message; whatever a
// writer emits loads (Model::FromBuffer) and holds exactly what was asked:
// the operators in the new order (code, inputs, outputs), every tensor and
// the other subgraphs unchanged, the edit's new tensors appended; an edit
// of a model with an offline plan is refused. (A writer may refuse a model
// it cannot copy faithfully, e.g. tables with fields newer than it knows:
// that is a clean error, not a finding.)
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "fuzz_model_util.h"
#include "fuzz_util.h"
#include "tflm_arena/core/reorder_graph.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/graph_edit_writer.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/model/operator_graph.h"
#include "tflm_arena/model/operator_order_writer.h"
#include "tflm_arena/plan/reorder.h"

namespace {

using tflm_arena::Span;
using tflm_arena::Status;
namespace model = tflm_arena::model;
using fuzz::SameSpan;

// Keeps one run fast: models with more operators than this are not
// reordered (CheckOperatorOrder and the writer are linear, the checks here
// are not).
constexpr size_t kMaxOperators = 2000;

bool Load(const std::vector<uint8_t>& bytes, fuzz::InputCopy* copy, model::Model* out) {
  *copy = fuzz::InputCopy(bytes.data(), bytes.size());
  return model::Model::FromBuffer(copy->data(), copy->size(), out).ok();
}

// Operator `i` of `w`'s subgraph 0 is operator `j` of `m`'s: same code,
// inputs and outputs.
void CheckSameOp(const model::Model& m, size_t j, const model::Model& w, size_t i,
                 const char* what) {
  model::OperatorInfo a, b;
  FUZZ_CHECK(m.op(0, j, &a).ok() && w.op(0, i, &b).ok(), "%s: operator %zu", what, i);
  // A custom code string names a custom operator only; on a builtin one
  // (a converter may leave it) TFLM ignores it, and so may a writer.
  const bool custom = a.builtin_code == model::kBuiltinCustom;
  FUZZ_CHECK(a.builtin_code == b.builtin_code &&
                 (!custom || std::strcmp(a.custom_code, b.custom_code) == 0),
             "%s: operator %zu has code %d, operator %zu had %d", what, i, b.builtin_code, j,
             a.builtin_code);
  FUZZ_CHECK(SameSpan(a.inputs, b.inputs) && SameSpan(a.outputs, b.outputs),
             "%s: operator %zu's tensors differ from operator %zu's", what, i, j);
}

void CheckTensorsKept(const model::Model& m, const model::Model& w, const char* what) {
  FUZZ_CHECK(w.num_subgraphs() == m.num_subgraphs(), "%s: subgraph count changed", what);
  for (size_t sg = 0; sg < m.num_subgraphs(); ++sg) {
    FUZZ_CHECK(w.num_tensors(sg) >= m.num_tensors(sg), "%s: subgraph %zu lost tensors", what, sg);
    for (size_t t = 0; t < m.num_tensors(sg); ++t) {
      model::TensorInfo a, b;
      FUZZ_CHECK(m.tensor(sg, t, &a).ok() && w.tensor(sg, t, &b).ok(), "%s: tensor %zu", what, t);
      FUZZ_CHECK(a.type == b.type && SameSpan(a.shape, b.shape) &&
                     a.constant_data.size() == b.constant_data.size(),
                 "%s: tensor %zu of subgraph %zu changed", what, t, sg);
    }
    if (sg > 0) {
      FUZZ_CHECK(w.num_operators(sg) == m.num_operators(sg), "%s: subgraph %zu's operators", what,
                 sg);
    }
  }
}

void WriteOrder(const model::Model& m, const fuzz::InputCopy& input,
                const tflm_arena::ReorderGraph& graph, const std::vector<int32_t>& order,
                bool drop_plan) {
  const Span<const int32_t> o(order.data(), order.size());
  const Status check = tflm_arena::CheckOperatorOrder(graph, o);
  if (!check.ok()) FUZZ_CHECK(check.message()[0] != '\0', "CheckOperatorOrder: no message");
  std::vector<uint8_t> out;
  const Status s = model::WriteOperatorOrder(input.data(), input.size(), o, drop_plan, &out);
  if (!s.ok()) {
    FUZZ_CHECK(s.message()[0] != '\0', "WriteOperatorOrder: error without a message");
    return;
  }
  fuzz::InputCopy copy(nullptr, 0);
  model::Model w;
  FUZZ_CHECK(Load(out, &copy, &w), "WriteOperatorOrder wrote a model that does not load");
  CheckTensorsKept(m, w, "WriteOperatorOrder");
  FUZZ_CHECK(w.num_operators(0) == order.size(), "WriteOperatorOrder: %zu operators for %zu",
             w.num_operators(0), order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    CheckSameOp(m, static_cast<size_t>(order[i]), w, i, "WriteOperatorOrder");
  }
  if (drop_plan) {
    model::OfflinePlanView plan;
    bool present = true;
    FUZZ_CHECK(model::DecodeOfflinePlan(w, &plan, &present).ok() && !present,
               "the offline plan was kept although asked to drop it");
  }
}

void Reorder(const model::Model& m, const fuzz::InputCopy& input, uint64_t h) {
  tflm_arena::ReorderGraph graph;
  const Status g = model::BuildOperatorGraph(m, &graph);
  if (!g.ok()) {
    FUZZ_CHECK(g.message()[0] != '\0', "BuildOperatorGraph: error without a message");
    return;
  }
  const size_t n = m.num_operators(0);
  if (n > kMaxOperators) return;
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  const bool drop = (h >> 4) % 2 == 0;
  WriteOrder(m, input, graph, order, drop);
  std::vector<int32_t> reversed(order.rbegin(), order.rend());
  WriteOrder(m, input, graph, reversed, drop);
  // A permutation from the hash (Fisher-Yates on a small generator), with
  // one in four inputs also a duplicated entry (not a permutation).
  uint64_t x = h | 1;
  for (size_t i = n; i > 1; --i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    std::swap(order[i - 1], order[x % i]);
  }
  if (n >= 2 && (h >> 6) % 4 == 0) order[0] = order[1];
  WriteOrder(m, input, graph, order, drop);
}

void Edit(const model::Model& m, const fuzz::InputCopy& input, uint64_t h) {
  const size_t n = m.num_operators(0);
  if (n == 0 || n > kMaxOperators) return;
  const size_t k = (h >> 12) % n;
  model::OperatorInfo op;
  if (!m.op(0, k, &op).ok()) return;
  model::GraphEdit edit;
  for (size_t i = 0; i < n; ++i) {
    edit.order.push_back(model::OperatorRef{i == k, i == k ? 0 : static_cast<int32_t>(i)});
  }
  model::NewOperator replacement;
  replacement.builtin_code = op.builtin_code;
  replacement.inputs.assign(op.inputs.begin(), op.inputs.end());
  replacement.outputs.assign(op.outputs.begin(), op.outputs.end());
  edit.operators.push_back(replacement);
  const size_t tensors = m.num_tensors(0);
  model::NewTensor like;
  if (tensors > 0) {
    like.like = static_cast<int32_t>((h >> 20) % tensors);
    model::TensorInfo t;
    if (m.tensor(0, static_cast<size_t>(like.like), &t).ok()) {
      like.shape.assign(t.shape.begin(), t.shape.end());
    }
    like.name = "fuzz_like";
    edit.tensors.push_back(like);
  }
  model::NewTensor constant;
  constant.type = 2;  // INT32
  constant.shape = {2};
  constant.data.assign(8, static_cast<uint8_t>(h));
  constant.name = "fuzz_constant";
  edit.tensors.push_back(constant);

  std::vector<uint8_t> out;
  const Status s = model::WriteGraphEdit(input.data(), input.size(), edit, &out);
  model::OfflinePlanView plan;
  bool present = false;
  const bool has_plan = model::DecodeOfflinePlan(m, &plan, &present).ok() && present;
  if (!s.ok()) {
    FUZZ_CHECK(s.message()[0] != '\0', "WriteGraphEdit: error without a message");
    return;
  }
  FUZZ_CHECK(!has_plan, "WriteGraphEdit edited a model with an offline plan");
  fuzz::InputCopy copy(nullptr, 0);
  model::Model w;
  FUZZ_CHECK(Load(out, &copy, &w), "WriteGraphEdit wrote a model that does not load");
  CheckTensorsKept(m, w, "WriteGraphEdit");
  FUZZ_CHECK(w.num_tensors(0) == tensors + edit.tensors.size(), "WriteGraphEdit: %zu tensors",
             w.num_tensors(0));
  FUZZ_CHECK(w.num_operators(0) == n, "WriteGraphEdit: %zu operators for %zu", w.num_operators(0),
             n);
  for (size_t i = 0; i < n; ++i) CheckSameOp(m, i, w, i, "WriteGraphEdit");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::InputCopy input(data, size);
  model::Model m;
  if (!model::Model::FromBuffer(input.data(), input.size(), &m).ok()) return 0;
  const uint64_t h = fuzz::Hash(data, size);
  Reorder(m, input, h);
  Edit(m, input, h);
  return 0;
}
