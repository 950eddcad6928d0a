// Reorder graph checks, dependencies and the peak of a given order
// (reorder.h). OrderPeak is written straight from TFLM's lifetime rules and
// is independent of the incremental bookkeeping in Prepared, so each checks
// the other (ReorderForPeak compares them on every answer).
#include <algorithm>
#include <cinttypes>
#include <string>

#include "tflm_arena/core/usage_record.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/plan/reorder.h"
#include "tflm_arena/plan/reorder_internal.h"

namespace tflm_arena {
namespace plan_internal {
namespace {

#define REORDER_INVALID(...) \
  ::tflm_arena::Status::Error(::tflm_arena::StatusCode::kInvalidArgument, __VA_ARGS__)

// Sums stay far from overflow: every size and every sum of them fits.
constexpr int64_t kMaxTotalBytes = INT64_MAX / 4;

void SortUnique(std::vector<int32_t>* v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

Status CheckIds(const ReorderGraph& g) {
  const int64_t nt = static_cast<int64_t>(g.tensor_bytes.size());
  if (g.ops.size() > static_cast<size_t>(INT32_MAX) ||
      g.tensor_bytes.size() > static_cast<size_t>(INT32_MAX)) {
    return REORDER_INVALID("reorder graph too large (%zu operators, %zu tensors)", g.ops.size(),
                           g.tensor_bytes.size());
  }
  int64_t total = 0;
  for (size_t t = 0; t < g.tensor_bytes.size(); ++t) {
    const int64_t b = g.tensor_bytes[t];
    if (b < 0 || b > kMaxTotalBytes - total) {
      return REORDER_INVALID("tensor %zu: size %" PRId64 " is negative or too large", t, b);
    }
    total += b;
  }
  auto check_list = [&](const std::vector<int32_t>& list, const char* what, size_t op,
                        bool allow_omitted) -> Status {
    for (int32_t t : list) {
      if ((t == -1 && allow_omitted) || (t >= 0 && t < nt)) continue;
      if (op == SIZE_MAX) {
        return REORDER_INVALID("graph %s: tensor id %" PRId32 " out of range (%" PRId64 " tensors)",
                               what, t, nt);
      }
      return REORDER_INVALID("operator %zu %s: tensor id %" PRId32 " out of range (%" PRId64
                             " tensors)",
                             op, what, t, nt);
    }
    return Status::Ok();
  };
  TFLM_ARENA_RETURN_IF_ERROR(check_list(g.inputs, "inputs", SIZE_MAX, false));
  TFLM_ARENA_RETURN_IF_ERROR(check_list(g.outputs, "outputs", SIZE_MAX, false));
  TFLM_ARENA_RETURN_IF_ERROR(check_list(g.stateful_tensors, "stateful tensors", SIZE_MAX, false));
  std::vector<uint8_t> stateful(g.tensor_bytes.size(), 0);
  for (int32_t t : g.stateful_tensors) stateful[t] = 1;
  std::vector<size_t> written_by(g.tensor_bytes.size(), SIZE_MAX);  // last operator writing it
  for (size_t i = 0; i < g.ops.size(); ++i) {
    const ReorderOp& op = g.ops[i];
    TFLM_ARENA_RETURN_IF_ERROR(check_list(op.inputs, "inputs", i, true));
    TFLM_ARENA_RETURN_IF_ERROR(check_list(op.outputs, "outputs", i, false));
    if (op.extra_bytes < 0 || op.extra_bytes > kMaxTotalBytes - total) {
      return REORDER_INVALID("operator %zu: extra bytes %" PRId64 " negative or too large", i,
                             op.extra_bytes);
    }
    total += op.extra_bytes;
    for (int32_t t : op.outputs) written_by[t] = i;
    for (int32_t t : op.inputs) {
      if (t >= 0 && written_by[t] == i && !stateful[t]) {
        return REORDER_INVALID("operator %zu reads its own output tensor %" PRId32, i, t);
      }
    }
  }
  return Status::Ok();
}

// Names one cycle among the operators Kahn's algorithm could not sort.
Status CycleError(const Prepared& p, const std::vector<int32_t>& indegree) {
  size_t start = 0;
  while (indegree[start] == 0) ++start;
  std::vector<int32_t> seen_at(p.num_ops, -1), path;
  int32_t v = static_cast<int32_t>(start);
  while (seen_at[v] < 0) {
    seen_at[v] = static_cast<int32_t>(path.size());
    path.push_back(v);
    for (int32_t u : p.preds[v]) {
      if (indegree[u] > 0) {
        v = u;
        break;
      }
    }
  }
  std::string text;
  for (size_t i = path.size(); i-- > static_cast<size_t>(seen_at[v]);) {
    text += "operator " + std::to_string(path[i]) + " -> ";
  }
  text += "operator " + std::to_string(path.back());  // v runs before path.back()
  return REORDER_INVALID("dependency cycle: %s", text.c_str());
}

}  // namespace

Status Prepare(const ReorderGraph& g, Prepared* p) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckIds(g));
  const size_t n = g.ops.size(), nt = g.tensor_bytes.size();
  *p = Prepared();
  p->num_ops = n;
  std::vector<uint8_t> is_input(nt, 0), chained(nt, 0);
  p->is_output.assign(nt, 0);
  for (int32_t t : g.inputs) is_input[t] = 1;
  for (int32_t t : g.outputs) p->is_output[t] = 1;
  for (int32_t t : g.stateful_tensors) chained[t] = 1;
  std::vector<std::vector<int32_t>> producers(nt), readers(nt);
  for (size_t i = 0; i < n; ++i) {
    for (int32_t t : g.ops[i].outputs) producers[t].push_back(static_cast<int32_t>(i));
    for (int32_t t : g.ops[i].inputs) {
      if (t >= 0) readers[t].push_back(static_cast<int32_t>(i));
    }
  }
  // Dependencies: data flow for single-producer tensors; original order
  // among all users of chained tensors and among ordered operators.
  p->preds.assign(n, {});
  p->succs.assign(n, {});
  auto edge = [&](int32_t a, int32_t b) {
    if (a != b) p->preds[b].push_back(a);
  };
  for (size_t t = 0; t < nt; ++t) {
    SortUnique(&producers[t]);
    SortUnique(&readers[t]);
    if (producers[t].size() > 1 || (is_input[t] && !producers[t].empty())) chained[t] = 1;
    if (chained[t]) {
      std::vector<int32_t> users = producers[t];
      users.insert(users.end(), readers[t].begin(), readers[t].end());
      SortUnique(&users);
      for (size_t k = 1; k < users.size(); ++k) edge(users[k - 1], users[k]);
    } else if (producers[t].size() == 1) {
      for (int32_t r : readers[t]) edge(producers[t][0], r);
    }
  }
  int32_t last_ordered = -1;
  for (size_t i = 0; i < n; ++i) {
    if (!g.ops[i].ordered) continue;
    if (last_ordered >= 0) edge(last_ordered, static_cast<int32_t>(i));
    last_ordered = static_cast<int32_t>(i);
  }
  for (size_t i = 0; i < n; ++i) {
    SortUnique(&p->preds[i]);
    for (int32_t a : p->preds[i]) p->succs[a].push_back(static_cast<int32_t>(i));
  }
  // Kahn's algorithm: every operator sorted <=> no cycle.
  std::vector<int32_t> indegree(n), queue;
  for (size_t i = 0; i < n; ++i) {
    indegree[i] = static_cast<int32_t>(p->preds[i].size());
    if (indegree[i] == 0) queue.push_back(static_cast<int32_t>(i));
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    for (int32_t s : p->succs[queue[head]]) {
      if (--indegree[s] == 0) queue.push_back(s);
    }
  }
  if (queue.size() != n) return CycleError(*p, indegree);

  // Per tensor: how it enters the live set; order-independent steps.
  p->enters.assign(nt, Enters::kNever);
  p->producers.assign(nt, {});
  p->users.assign(nt, {});
  int64_t step_minus1 = 0, step0 = 0;
  for (size_t t = 0; t < nt; ++t) {
    const bool read = !readers[t].empty(), produced = !producers[t].empty();
    Enters e = is_input[t]       ? Enters::kAtStart
               : produced        ? Enters::kProduced
               : read            ? Enters::kAtStart
               : p->is_output[t] ? Enters::kAtEnd
                                 : Enters::kNever;
    p->enters[t] = e;
    const int64_t b = g.tensor_bytes[t];
    if (b == 0) continue;
    p->producers[t] = producers[t];
    p->users[t] = producers[t];
    p->users[t].insert(p->users[t].end(), readers[t].begin(), readers[t].end());
    SortUnique(&p->users[t]);
    if (!is_input[t] && !produced && e != Enters::kAtEnd) step_minus1 += b;  // first = -1
    if (e == Enters::kAtStart) {
      step0 += b;  // inputs live at 0; unproduced read tensors until a read
      if (p->is_output[t] || !p->users[t].empty()) p->start_live += b;
    }
    if (e == Enters::kAtEnd) p->end_bytes += b;
  }
  p->before_ops = std::max(step_minus1, n == 0 ? step0 + p->end_bytes : step0);
  p->touched.assign(n, {});
  p->made.assign(n, {});
  for (size_t i = 0; i < n; ++i) {
    for (int32_t t : g.ops[i].inputs) {
      if (t >= 0 && g.tensor_bytes[t] > 0) p->touched[i].push_back(t);
    }
    for (int32_t t : g.ops[i].outputs) {
      if (g.tensor_bytes[t] == 0) continue;
      p->touched[i].push_back(t);
      if (p->enters[t] == Enters::kProduced) p->made[i].push_back(t);
    }
    SortUnique(&p->touched[i]);
    SortUnique(&p->made[i]);
  }
  // The original order must itself be valid (edges only go forward).
  for (size_t i = 0; i < n; ++i) {
    if (!p->preds[i].empty() && p->preds[i].back() > static_cast<int32_t>(i)) {
      const int32_t later = p->preds[i].back();
      for (int32_t t : g.ops[i].inputs) {
        if (t >= 0 && producers[t].size() == 1 && producers[t][0] == later) {
          return REORDER_INVALID("operator %zu reads tensor %" PRId32 " before operator %" PRId32
                                 " produces it (original order invalid)",
                                 i, t, later);
        }
      }
      return REORDER_INVALID(
          "operator %zu must run after operator %" PRId32 " (original order invalid)", i, later);
    }
  }
  return Status::Ok();
}

}  // namespace plan_internal

Status ValidateReorderGraph(const ReorderGraph& graph) {
  plan_internal::Prepared p;
  return plan_internal::Prepare(graph, &p);
}

namespace {

// Order check against prepared dependencies.
Status CheckPrepared(const plan_internal::Prepared& p, const ReorderGraph& g,
                     Span<const int32_t> order) {
  const size_t n = p.num_ops;
  if (order.size() != n) {
    return REORDER_INVALID("order has %zu entries, the graph has %zu operators", order.size(), n);
  }
  std::vector<int32_t> pos(n, -1);
  for (size_t k = 0; k < n; ++k) {
    const int32_t op = order[k];
    if (op < 0 || static_cast<size_t>(op) >= n) {
      return REORDER_INVALID("order[%zu] = %" PRId32 " is not an operator index (0..%zu)", k, op,
                             n - 1);
    }
    if (pos[op] >= 0) {
      return REORDER_INVALID("operator %" PRId32 " appears twice in the order (positions %" PRId32
                             " and %zu)",
                             op, pos[op], k);
    }
    pos[op] = static_cast<int32_t>(k);
  }
  for (size_t i = 0; i < n; ++i) {
    for (int32_t a : p.preds[i]) {
      if (pos[a] < pos[i]) continue;
      for (int32_t t : g.ops[i].inputs) {
        if (t >= 0 && std::find(g.ops[a].outputs.begin(), g.ops[a].outputs.end(), t) !=
                          g.ops[a].outputs.end()) {
          return REORDER_INVALID("operator %zu reads tensor %" PRId32
                                 " but runs before operator %" PRId32 ", which produces it",
                                 i, t, a);
        }
      }
      return REORDER_INVALID("operator %zu must run after operator %" PRId32
                             " (shared stateful tensor or side effects)",
                             i, a);
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckOperatorOrder(const ReorderGraph& graph, Span<const int32_t> order) {
  plan_internal::Prepared p;
  TFLM_ARENA_RETURN_IF_ERROR(plan_internal::Prepare(graph, &p));
  return CheckPrepared(p, graph, order);
}

Status OrderPeak(const ReorderGraph& g, Span<const int32_t> order, int64_t* peak) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckOperatorOrder(g, order));
  // TFLM's allocation-scope walk for one subgraph (micro_allocation_info.cc,
  // MarkSubgraphLifetimesIfNecessary): inputs at the current scope; each
  // operator advances the scope, its outputs start and all its tensors end
  // there; outputs end at the final scope.
  const size_t nt = g.tensor_bytes.size();
  std::vector<Step> first(nt, -1), last(nt, -1);
  std::vector<UsageRecord> records;
  Step scope = 0;
  for (int32_t t : g.inputs) {
    if (first[t] < 0) first[t] = scope;
    last[t] = scope;
  }
  for (int32_t i : order) {
    const ReorderOp& op = g.ops[i];
    ++scope;
    for (int32_t t : op.outputs) {
      if (first[t] < 0) first[t] = scope;
    }
    for (int32_t t : op.inputs) {
      if (t >= 0) last[t] = scope;
    }
    for (int32_t t : op.outputs) last[t] = scope;
    if (op.extra_bytes > 0) records.push_back({op.extra_bytes, scope, scope, kOnlineOffset});
  }
  for (int32_t t : g.outputs) {
    if (first[t] < 0) first[t] = scope;
    last[t] = scope;
  }
  for (size_t t = 0; t < nt; ++t) {
    if (g.tensor_bytes[t] > 0)
      records.push_back({g.tensor_bytes[t], first[t], last[t], kOnlineOffset});
  }
  *peak = LowerBound(Span<const UsageRecord>(records.data(), records.size()));
  return Status::Ok();
}

}  // namespace tflm_arena
