// ReorderForPeak: original order, beam search, exact bottleneck search
// (reorder.h explains the strategy and the determinism rules).
//
// A state is the set of executed operators (a downset of the dependency
// graph). Everything the future costs depends on follows from that set:
// `live` = bytes live after the last executed step that are still needed
// later, and running operator k next costs
//   during(S, k) = live(S) + new outputs of k + extra_bytes(k)
//                  (+ unproduced graph outputs when k is the last operator),
// so a set's best completion does not depend on how it was reached. That is
// what makes memoising on the set exact.
#include "tflm_arena/plan/reorder.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <queue>

#include "tflm_arena/plan/reorder_internal.h"

namespace tflm_arena {
namespace {

using plan_internal::Enters;
using plan_internal::Prepared;
using Clock = std::chrono::steady_clock;

// Deterministic per-operator hash words (splitmix64), XORed into a set hash.
uint64_t Zobrist(uint64_t i) {
  uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

bool Has(const uint64_t* bits, int32_t i) { return (bits[i >> 6] >> (i & 63)) & 1u; }
void Set(uint64_t* bits, int32_t i) { bits[i >> 6] |= uint64_t{1} << (i & 63); }

// Counted work plus the wall-clock safety net.
class Budget {
 public:
  Budget(double seconds, uint64_t max_expansions)
      : max_(max_expansions),
        has_deadline_(seconds > 0),
        deadline_(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(has_deadline_ ? seconds : 0))),
        share_max_(max_expansions),
        share_deadline_(deadline_) {}
  // False once the budget (or the current share of it) is spent.
  bool Spend(uint64_t n) {
    used_ += n;
    if (used_ > share_max_) exhausted_ = true;
    if (has_deadline_ && (used_ >> 12) != checked_) {
      checked_ = used_ >> 12;
      const Clock::time_point now = Clock::now();
      if (now > share_deadline_) exhausted_ = true;
      if (now > deadline_) exhausted_ = timed_out_ = true;
    }
    return !exhausted_;
  }
  // Limits the next search to `fraction` of what is left (counts and time),
  // so a search that cannot finish leaves room for the others.
  void Share(double fraction) {
    share_max_ = used_ + static_cast<uint64_t>(static_cast<double>(left()) * fraction);
    const Clock::time_point now = Clock::now();
    share_deadline_ =
        now + std::chrono::duration_cast<Clock::duration>((deadline_ - now) * fraction);
  }
  // Back to the whole budget; false if that is spent too.
  bool Unshare() {
    share_max_ = max_;
    share_deadline_ = deadline_;
    exhausted_ = used_ > max_ || timed_out_ || (has_deadline_ && Clock::now() > deadline_);
    return !exhausted_;
  }
  bool exhausted() const { return exhausted_; }
  bool timed_out() const { return timed_out_; }
  uint64_t used() const { return used_; }
  uint64_t left() const { return used_ >= max_ ? 0 : max_ - used_; }

 private:
  uint64_t max_;
  bool has_deadline_;
  Clock::time_point deadline_;
  uint64_t share_max_;
  Clock::time_point share_deadline_;
  uint64_t used_ = 0, checked_ = 0;
  bool exhausted_ = false, timed_out_ = false;
};

class Searcher {
 public:
  Searcher(const ReorderGraph& g, const Prepared& p, Budget* budget)
      : g_(g), p_(p), n_(p.num_ops), words_((p.num_ops + 63) / 64), budget_(budget) {}

  // Charges the loop iterations done since the last call to the budget.
  bool Charge(uint64_t extra = 0) {
    const uint64_t w = work_ + extra + 1;
    work_ = 0;
    return budget_->Spend(w);
  }

  // Bytes live while k runs after set `s` (|s| = count), and after it.
  void Step(const uint64_t* s, size_t count, int64_t live, int32_t k, int64_t* during,
            int64_t* after) const {
    int64_t made = 0;
    for (int32_t t : p_.made[k]) {
      bool already = false;
      for (int32_t q : p_.producers[t]) already = already || Has(s, q);
      work_ += 1 + p_.producers[t].size();
      if (!already) made += g_.tensor_bytes[t];
    }
    *during = live + made + g_.ops[k].extra_bytes + (count + 1 == n_ ? p_.end_bytes : 0);
    int64_t a = live + made;
    for (int32_t t : p_.touched[k]) {
      if (p_.is_output[t]) continue;
      bool alive = p_.enters[t] == Enters::kAtStart;
      for (size_t i = 0; !alive && i < p_.producers[t].size(); ++i, ++work_) {
        const int32_t q = p_.producers[t][i];
        alive = q == k || Has(s, q);
      }
      ++work_;
      if (!alive) continue;
      bool done = true;
      for (int32_t u : p_.users[t]) {
        ++work_;
        if (u != k && !Has(s, u)) {
          done = false;
          break;
        }
      }
      if (done) a -= g_.tensor_bytes[t];
    }
    *after = a;
  }

  bool Ready(const uint64_t* s, int32_t k) const {
    for (int32_t q : p_.preds[k]) {
      ++work_;
      if (!Has(s, q)) return false;
    }
    return true;
  }

  // Beam search of `width`; true with *order/*peak when it completes below
  // `bound`.
  bool Beam(size_t width, int64_t bound, std::vector<int32_t>* order, int64_t* peak);

  // Exact search below `bound`. Returns true when it finished: then either
  // *found (an optimal order below bound) or the bound is optimal.
  bool Exact(int64_t bound, uint64_t max_states, bool* found, std::vector<int32_t>* order,
             int64_t* peak);
  uint64_t states() const { return states_; }

 private:
  const ReorderGraph& g_;
  const Prepared& p_;
  size_t n_, words_;
  Budget* budget_;
  mutable uint64_t work_ = 0;  // loop iterations not yet charged
  uint64_t states_ = 0;
};

struct BeamState {
  std::vector<uint64_t> bits;
  std::vector<int32_t> ready;  // sorted
  uint64_t hash = 0;
  int64_t peak = 0, live = 0;
  int32_t node = -1;  // into the path-node array
};

struct Candidate {
  int64_t peak, live;
  uint64_t hash;
  int32_t from, op;
};

bool Searcher::Beam(size_t width, int64_t bound, std::vector<int32_t>* order, int64_t* peak) {
  std::vector<std::pair<int32_t, int32_t>> nodes;  // (parent node, operator)
  std::vector<BeamState> beam(1);
  beam[0].bits.assign(words_, 0);
  beam[0].peak = p_.before_ops;
  beam[0].live = p_.start_live;
  for (size_t k = 0; k < n_; ++k) {
    if (p_.preds[k].empty()) beam[0].ready.push_back(static_cast<int32_t>(k));
  }
  std::vector<Candidate> cand;
  for (size_t depth = 0; depth < n_; ++depth) {
    cand.clear();
    for (size_t b = 0; b < beam.size(); ++b) {
      const BeamState& st = beam[b];
      for (int32_t k : st.ready) {
        int64_t during = 0, after = 0;
        Step(st.bits.data(), depth, st.live, k, &during, &after);
        if (!Charge()) return false;
        const int64_t pk = std::max(st.peak, during);
        if (pk >= bound) continue;  // cannot beat what we have
        cand.push_back({pk, after, st.hash ^ Zobrist(k), static_cast<int32_t>(b), k});
      }
    }
    if (cand.empty()) return false;
    // Same set reached twice: keep the better path.
    std::sort(cand.begin(), cand.end(), [](const Candidate& a, const Candidate& b) {
      if (a.hash != b.hash) return a.hash < b.hash;
      if (a.peak != b.peak) return a.peak < b.peak;
      if (a.live != b.live) return a.live < b.live;
      return a.from != b.from ? a.from < b.from : a.op < b.op;
    });
    cand.erase(std::unique(cand.begin(), cand.end(),
                           [](const Candidate& a, const Candidate& b) { return a.hash == b.hash; }),
               cand.end());
    const size_t keep = std::min(width, cand.size());
    std::partial_sort(cand.begin(), cand.begin() + static_cast<std::ptrdiff_t>(keep), cand.end(),
                      [](const Candidate& a, const Candidate& b) {
                        if (a.peak != b.peak) return a.peak < b.peak;
                        if (a.live != b.live) return a.live < b.live;
                        return a.from != b.from ? a.from < b.from : a.op < b.op;
                      });
    std::vector<BeamState> next(keep);
    for (size_t c = 0; c < keep; ++c) {
      const Candidate& x = cand[c];
      const BeamState& from = beam[x.from];
      BeamState& st = next[c];
      st.bits = from.bits;
      Set(st.bits.data(), x.op);
      st.hash = x.hash;
      st.peak = x.peak;
      st.live = x.live;
      nodes.emplace_back(from.node, x.op);
      st.node = static_cast<int32_t>(nodes.size() - 1);
      for (int32_t r : from.ready) {
        if (r != x.op) st.ready.push_back(r);
      }
      for (int32_t s : p_.succs[x.op]) {
        if (Ready(st.bits.data(), s)) st.ready.push_back(s);
      }
      std::sort(st.ready.begin(), st.ready.end());
      if (!Charge(words_ + from.ready.size())) return false;
    }
    beam.swap(next);
  }
  order->assign(n_, 0);
  for (int32_t v = beam[0].node, k = static_cast<int32_t>(n_); v >= 0; v = nodes[v].first) {
    (*order)[--k] = nodes[v].second;
  }
  *peak = beam[0].peak;
  return true;
}

// Memoised states of the exact search: bit sets in one pool, found through
// an open-addressing table on their hash (full sets compared on a match).
class StateTable {
 public:
  explicit StateTable(size_t words) : words_(words) {}
  size_t size() const { return hash_.size(); }
  const uint64_t* bits(int32_t id) const { return pool_.data() + static_cast<size_t>(id) * words_; }
  uint64_t hash(int32_t id) const { return hash_[id]; }
  // Index of the set `bits` with hash `h`, or -1.
  int32_t Find(const uint64_t* bits, uint64_t h) const {
    if (slots_.empty()) return -1;
    for (size_t i = h & mask_;; i = (i + 1) & mask_) {
      const int32_t id = slots_[i];
      if (id < 0) return -1;
      if (hash_[id] == h && std::equal(bits, bits + words_, this->bits(id))) return id;
    }
  }
  int32_t Add(const uint64_t* bits, uint64_t h) {
    if (2 * (hash_.size() + 1) > slots_.size()) Grow();
    const int32_t id = static_cast<int32_t>(hash_.size());
    hash_.push_back(h);
    pool_.insert(pool_.end(), bits, bits + words_);
    Place(id);
    return id;
  }

 private:
  void Place(int32_t id) {
    size_t i = hash_[id] & mask_;
    while (slots_[i] >= 0) i = (i + 1) & mask_;
    slots_[i] = id;
  }
  void Grow() {
    slots_.assign(slots_.empty() ? 1024 : 2 * slots_.size(), -1);
    mask_ = slots_.size() - 1;
    for (size_t id = 0; id < hash_.size(); ++id) Place(static_cast<int32_t>(id));
  }
  size_t words_;
  size_t mask_ = 0;
  std::vector<int32_t> slots_;
  std::vector<uint64_t> hash_;
  std::vector<uint64_t> pool_;
};

struct Node {
  int64_t peak, live;
  int32_t parent, op, count;
  bool closed;
};

struct QueueEntry {
  int64_t peak;
  int32_t count, id;
};
// Min-heap order: lower peak, then deeper (reaches a full set sooner), then
// older.
struct Later {
  bool operator()(const QueueEntry& a, const QueueEntry& b) const {
    if (a.peak != b.peak) return a.peak > b.peak;
    if (a.count != b.count) return a.count < b.count;
    return a.id > b.id;
  }
};

bool Searcher::Exact(int64_t bound, uint64_t max_states, bool* found, std::vector<int32_t>* order,
                     int64_t* peak) {
  *found = false;
  StateTable table(words_);
  std::vector<Node> nodes;
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, Later> queue;
  std::vector<uint64_t> bits(words_, 0), child(words_);
  if (p_.before_ops >= bound) return true;
  // Memory cap whatever max_states says: 2^23 words (64 MiB) of sets.
  max_states = std::min<uint64_t>(max_states, std::max<uint64_t>(1, (uint64_t{1} << 23) / words_));
  table.Add(bits.data(), 0);
  nodes.push_back({p_.before_ops, p_.start_live, -1, -1, 0, false});
  queue.push({p_.before_ops, 0, 0});
  while (!queue.empty()) {
    const QueueEntry top = queue.top();
    queue.pop();
    Node& cur = nodes[top.id];
    if (cur.closed || cur.peak != top.peak) continue;  // stale entry
    cur.closed = true;
    if (static_cast<size_t>(cur.count) == n_) {
      order->assign(n_, 0);
      for (int32_t v = top.id, k = cur.count; nodes[v].parent >= 0; v = nodes[v].parent)
        (*order)[--k] = nodes[v].op;
      *peak = cur.peak;
      *found = true;
      states_ = table.size();
      return true;
    }
    const uint64_t* s = table.bits(top.id);
    const Node here = cur;  // `nodes` may grow below
    const uint64_t h = table.hash(top.id);
    for (size_t k = 0; k < n_; ++k) {
      const int32_t op = static_cast<int32_t>(k);
      if (Has(s, op) || !Ready(s, op)) continue;
      int64_t during = 0, after = 0;
      Step(s, here.count, here.live, op, &during, &after);
      if (!Charge(words_)) break;
      const int64_t pk = std::max(here.peak, during);
      if (pk >= bound) continue;
      std::copy(s, s + words_, child.begin());
      Set(child.data(), op);
      const uint64_t ch = h ^ Zobrist(k);
      int32_t id = table.Find(child.data(), ch);
      if (id < 0) {
        if (table.size() >= max_states || table.size() >= static_cast<size_t>(INT32_MAX)) {
          states_ = table.size();
          return false;  // out of memo budget
        }
        id = table.Add(child.data(), ch);
        nodes.push_back({pk, after, top.id, op, here.count + 1, false});
      } else if (nodes[id].closed || nodes[id].peak <= pk) {
        continue;
      } else {
        nodes[id] = {pk, after, top.id, op, here.count + 1, false};
      }
      if (queue.size() >= 4 * max_states) {  // stale entries count too: bound memory
        states_ = table.size();
        return false;
      }
      queue.push({pk, here.count + 1, id});
      s = table.bits(top.id);  // the pool may have moved
    }
    if (!Charge(n_) || budget_->exhausted()) break;  // n_: the readiness scan
  }
  states_ = table.size();
  return queue.empty() && !budget_->exhausted();
}

// No order runs below the order-independent steps, nor below any single
// operator's own tensors (its new outputs, inputs live from the start, its
// extra bytes) plus the graph inputs that are also outputs.
int64_t SimpleLowerBound(const ReorderGraph& g, const Prepared& p) {
  int64_t always = 0;
  for (size_t t = 0; t < g.tensor_bytes.size(); ++t) {
    if (p.enters[t] == Enters::kAtStart && p.is_output[t]) always += g.tensor_bytes[t];
  }
  int64_t lb = p.before_ops;
  for (size_t k = 0; k < p.num_ops; ++k) {
    int64_t own = always + g.ops[k].extra_bytes;
    for (int32_t t : p.touched[k]) {
      const bool made =
          std::binary_search(p.made[k].begin(), p.made[k].end(), t) && p.producers[t].size() == 1;
      if (made || (p.enters[t] == Enters::kAtStart && !p.is_output[t])) own += g.tensor_bytes[t];
    }
    lb = std::max(lb, own);
  }
  return lb;
}

}  // namespace

Status ReorderForPeak(const ReorderGraph& graph, const ReorderOptions& options,
                      ReorderResult* result) {
  *result = ReorderResult();
  plan_internal::Prepared p;
  TFLM_ARENA_RETURN_IF_ERROR(plan_internal::Prepare(graph, &p));
  const size_t n = p.num_ops;
  std::vector<int32_t> identity(n);
  for (size_t k = 0; k < n; ++k) identity[k] = static_cast<int32_t>(k);
  TFLM_ARENA_RETURN_IF_ERROR(OrderPeak(graph, identity, &result->peak_before));
  result->lower_bound = std::min(SimpleLowerBound(graph, p), result->peak_before);

  std::vector<int32_t> best = identity, order;
  int64_t best_peak = result->peak_before, peak = 0;
  bool exact = best_peak <= result->lower_bound;
  Budget budget(options.time_limit_seconds, options.max_expansions);
  Searcher search(graph, p, &budget);
  if (!exact && search.Beam(1, best_peak, &order, &peak)) {
    best.swap(order);
    best_peak = peak;
    result->method = "greedy";
    exact = best_peak <= result->lower_bound;
  }
  if (!exact && !budget.exhausted()) {
    bool found = false;
    budget.Share(0.75);  // leave a quarter for the wider beams
    exact = search.Exact(best_peak, options.max_states, &found, &order, &peak);
    if (found) {
      best.swap(order);
      best_peak = peak;
      result->method = "exact";
    }
    budget.Unshare();
  }
  // Wider beams while the budget lasts; path nodes (n x width) stay below
  // 2^22 entries.
  for (size_t width = 4;
       !exact && !budget.exhausted() && width <= 4096 && width * n <= (size_t{1} << 22);
       width *= 4) {
    if (search.Beam(width, best_peak, &order, &peak)) {
      best.swap(order);
      best_peak = peak;
      result->method = "beam";
    }
  }
  // Independent check of the claimed peak (TFLM's lifetimes for the order).
  int64_t check = 0;
  TFLM_ARENA_RETURN_IF_ERROR(OrderPeak(graph, best, &check));
  if (check != best_peak) {
    return Status::Error(StatusCode::kInternal,
                         "reorder: search claimed peak %lld, the order has %lld",
                         static_cast<long long>(best_peak), static_cast<long long>(check));
  }
  if (best_peak >= result->peak_before) {  // nothing better: keep the original
    best = identity;
    best_peak = result->peak_before;
    result->method = "original";
  }
  if (exact) result->lower_bound = best_peak;
  result->order = std::move(best);
  result->peak_after = best_peak;
  result->exact = exact;
  result->timed_out = budget.timed_out();
  result->states = search.states();
  result->expansions = budget.used();
  return Status::Ok();
}

}  // namespace tflm_arena
