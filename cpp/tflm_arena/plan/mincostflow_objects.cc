// MINCOSTFLOW: a bipartite flow graph. Left vertex j means "buffer j hands
// its object on", right vertex i means "buffer i gets an object". Edges:
// source -> left j and right i -> sink (capacity 1, cost 0); source -> right
// i (cost size_i: open a new object); left j -> right i for every j whose
// lifetime ended before i starts, in first_step order (cost: growth
// max(0, size_i - size_j), only an approximation of the object's growth, so
// the result is not optimal either). Successive shortest paths (SPFA, round
// by round) until no augmenting path; each saturated left -> right edge
// chains two buffers into one object. O(n^2) edges. The cancel hook is
// polled before each augmentation (one SPFA pass over the graph).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "tflm_arena/plan/shared_objects.h"
#include "tflm_arena/plan/shared_objects_internal.h"

namespace tflm_arena {
namespace {

class FlowGraph {
 public:
  explicit FlowGraph(size_t vertices) : from_(vertices) {}

  // Edge e and its reverse e ^ 1.
  void Add(size_t src, size_t dst, int64_t cost) {
    from_[src].push_back(edges_.size());
    edges_.push_back({dst, 1, cost});
    from_[dst].push_back(edges_.size());
    edges_.push_back({src, 0, -cost});
  }

  // Augments along shortest paths until the sink is unreachable (each path
  // gives one buffer its object; *paths counts them); false when the cancel
  // hook stopped it first.
  bool Solve(size_t source, size_t sink, PlanCancel cancel, size_t* paths) {
    *paths = 0;
    constexpr int64_t kInf = std::numeric_limits<int64_t>::max();
    std::vector<size_t> prev(from_.size());
    while (true) {
      if (cancel.stop != nullptr && cancel.stop(cancel.context)) return false;
      std::vector<int64_t> dist(from_.size(), kInf);
      std::vector<size_t> queued_round(from_.size(), 0);
      std::queue<size_t> cur, next;
      size_t round = 1;
      cur.push(source);
      queued_round[source] = round;
      dist[source] = 0;
      while (!cur.empty()) {
        ++round;
        while (!cur.empty()) {
          const size_t v = cur.front();
          cur.pop();
          for (size_t e : from_[v]) {
            const Edge& edge = edges_[e];
            if (edge.cap <= 0) continue;
            const int64_t d = dist[v] + edge.cost;
            if (d < dist[edge.dst]) {
              dist[edge.dst] = d;
              prev[edge.dst] = e;
              if (queued_round[edge.dst] != round) {
                next.push(edge.dst);
                queued_round[edge.dst] = round;
              }
            }
          }
        }
        std::swap(cur, next);
      }
      if (dist[sink] == kInf) return true;
      for (size_t v = sink; v != source;) {
        --edges_[prev[v]].cap;
        Edge& back = edges_[prev[v] ^ 1];
        ++back.cap;
        v = back.dst;
      }
      ++*paths;
    }
  }

  struct Edge {
    size_t dst;
    int cap;
    int64_t cost;
  };
  const std::vector<size_t>& from(size_t v) const { return from_[v]; }
  const Edge& edge(size_t e) const { return edges_[e]; }

 private:
  std::vector<Edge> edges_;
  std::vector<std::vector<size_t>> from_;
};

}  // namespace

Status AssignMinCostFlow(Span<const UsageRecord> records, SharedObjects* out) {
  return AssignMinCostFlowCancellable(records, out, PlanCancel());
}

Status AssignMinCostFlowCancellable(Span<const UsageRecord> records, SharedObjects* out,
                                    PlanCancel cancel) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckSharedObjectRecords(records));
  if (records.size() > kMaxMinCostFlowBuffers) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "mincostflow: %zu buffers, more than %zu (its flow graph is O(n^2))",
                         records.size(), kMaxMinCostFlowBuffers);
  }
  *out = SharedObjects();
  const size_t n = records.size();
  out->object_ids.assign(n, -1);
  const size_t source = 2 * n, sink = 2 * n + 1;
  FlowGraph graph(2 * n + 2);
  std::vector<size_t> ended;  // buffers whose lifetime is over, in end order
  plan_internal::InUseQueue in_use;
  for (size_t i : plan_internal::ByFirstStep(records)) {
    while (!in_use.empty() && in_use.top().last_step < records[i].first_step) {
      ended.push_back(static_cast<size_t>(in_use.top().object));
      in_use.pop();
    }
    in_use.push({records[i].last_step, static_cast<int32_t>(i)});
    graph.Add(source, i, 0);
    graph.Add(n + i, sink, 0);
    graph.Add(source, n + i, records[i].size);
    for (size_t j : ended) {
      graph.Add(j, n + i, std::max<int64_t>(0, records[i].size - records[j].size));
    }
  }
  size_t paths = 0;
  if (!graph.Solve(source, sink, cancel, &paths)) {
    *out = SharedObjects();
    return Status::Error(StatusCode::kFailedPrecondition,
                         "planning cancelled after %zu of %zu buffers", paths, n);
  }
  // Each saturated source -> right i edge opened an object; follow the
  // saturated left -> right edges from buffer i to its successors.
  for (size_t e : graph.from(source)) {
    const auto& edge = graph.edge(e);
    if (edge.cap != 0 || edge.dst < n || edge.dst >= 2 * n) continue;
    const int32_t obj = static_cast<int32_t>(out->object_sizes.size());
    int64_t size = 0;
    std::vector<size_t> stack = {edge.dst - n};
    while (!stack.empty()) {
      const size_t t = stack.back();
      stack.pop_back();
      if (out->object_ids[t] != -1) continue;
      out->object_ids[t] = obj;
      size = std::max(size, records[t].size);
      for (size_t f : graph.from(t)) {
        const auto& next = graph.edge(f);
        if (next.cap == 0 && next.dst >= n && next.dst < 2 * n &&
            out->object_ids[next.dst - n] == -1) {
          stack.push_back(next.dst - n);
        }
      }
    }
    out->object_sizes.push_back(size);
  }
  for (size_t i = 0; i < n; ++i) {
    if (out->object_ids[i] == -1) {
      return Status::Error(StatusCode::kInternal, "buffer %zu: no object after min-cost flow", i);
    }
  }
  plan_internal::Finish(out);
  return Status::Ok();
}

}  // namespace tflm_arena
