// The graph rewrite (rewrite/) on untrusted models: FindStage, one tiling
// of the stage (TileStage, then model/graph_edit_writer.h's
// WriteGraphEdit), WriteTiling, and SearchTilings over one tile shape on a
// build target picked from the input's hash (every build target of the
// registry is reachable), then every candidate it measured written again.
//
// Checks beyond "no crash / no UB":
//  - every error has a message; a stage's cuts lie in 1..ops;
//  - a model the writer emits loads (Model::FromBuffer) and keeps subgraph
//    0's inputs and outputs, the original tensors (indices and types) and
//    the other subgraphs; a model the rewrite never produces is a finding;
//  - the search's best candidate is smaller than the original, and stock
//    TFLM's arena of the written best (tflm/) is the total it reported.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_model_util.h"
#include "fuzz_util.h"
#include "tflm_arena/model/graph_edit_writer.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/rewrite/rewrite.h"
#include "tflm_arena/rewrite/stage.h"
#include "tflm_arena/rewrite/tiled_stage.h"
#include "tflm_arena/tflm/build_targets.h"
#include "tflm_arena/tflm/tflm_arena_size.h"

namespace {

using tflm_arena::Span;
using tflm_arena::Status;
namespace model = tflm_arena::model;
using fuzz::SameSpan;
namespace rewrite = tflm_arena::rewrite;
namespace tflm = tflm_arena::tflm;

// Keeps one run fast: the search (a stock-TFLM arena per candidate) only
// on models with at most this many operators, and one input in four.
constexpr size_t kMaxSearchOperators = 400;

// The written model loads and keeps what the rewrite promises to keep.
void CheckWritten(const model::Model& orig, const std::vector<uint8_t>& bytes, const char* what) {
  fuzz::InputCopy copy(bytes.data(), bytes.size());
  model::Model w;
  const Status s = model::Model::FromBuffer(copy.data(), copy.size(), &w);
  FUZZ_CHECK(s.ok(), "%s wrote a model that does not load: %s", what, s.message());
  FUZZ_CHECK(w.num_subgraphs() == orig.num_subgraphs(), "%s: subgraphs %zu -> %zu", what,
             orig.num_subgraphs(), w.num_subgraphs());
  model::SubgraphInfo a, b;
  FUZZ_CHECK(orig.subgraph(0, &a).ok() && w.subgraph(0, &b).ok(), "%s: subgraph 0", what);
  FUZZ_CHECK(SameSpan(a.inputs, b.inputs) && SameSpan(a.outputs, b.outputs),
             "%s: subgraph 0's inputs or outputs changed", what);
  FUZZ_CHECK(b.num_tensors >= a.num_tensors, "%s: tensors %zu -> %zu", what, a.num_tensors,
             b.num_tensors);
  for (size_t t = 0; t < a.num_tensors; ++t) {
    model::TensorInfo ta, tb;
    FUZZ_CHECK(orig.tensor(0, t, &ta).ok() && w.tensor(0, t, &tb).ok(), "%s: tensor %zu", what, t);
    FUZZ_CHECK(ta.type == tb.type, "%s: tensor %zu changed type", what, t);
  }
  for (size_t sg = 1; sg < orig.num_subgraphs(); ++sg) {
    FUZZ_CHECK(
        orig.num_operators(sg) == w.num_operators(sg) && orig.num_tensors(sg) == w.num_tensors(sg),
        "%s: subgraph %zu changed", what, sg);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::InputCopy input(data, size);
  model::Model m;
  if (!model::Model::FromBuffer(input.data(), input.size(), &m).ok()) return 0;
  const uint64_t h = fuzz::Hash(data, size);

  rewrite::Stage stage;
  Status s = rewrite::FindStage(m, &stage);
  if (!s.ok()) {
    FUZZ_CHECK(s.message()[0] != '\0', "FindStage: error without a message");
    return 0;
  }
  for (int32_t c : stage.cuts) {
    FUZZ_CHECK(c >= 1 && static_cast<size_t>(c) <= stage.ops.size(), "cut %d of %zu operators", c,
               stage.ops.size());
  }
  if (stage.cuts.empty()) {
    FUZZ_CHECK(!stage.end_reason.empty(), "a stage with no cut and no reason");
    return 0;
  }

  // One tiling, written twice: the edit by hand, and WriteTiling.
  rewrite::Tiling tiling;
  tiling.length = stage.cuts[(h >> 8) % stage.cuts.size()];
  tiling.rows = static_cast<int32_t>(1 + (h >> 20) % 4);
  tiling.cols = static_cast<int32_t>(1 + (h >> 24) % 4);
  if (tiling.rows == 1 && tiling.cols == 1) tiling.rows = 2;
  rewrite::TiledStage tiled;
  s = rewrite::TileStage(m, stage, tiling, &tiled);
  if (s.ok()) {
    std::vector<uint8_t> out;
    s = model::WriteGraphEdit(input.data(), input.size(), tiled.edit, &out);
    if (s.ok()) {
      CheckWritten(m, out, "WriteGraphEdit");
    } else {
      FUZZ_CHECK(s.message()[0] != '\0', "WriteGraphEdit: error without a message");
    }
  } else {
    FUZZ_CHECK(s.message()[0] != '\0', "TileStage: error without a message");
  }
  std::vector<uint8_t> out;
  s = rewrite::WriteTiling(input.data(), input.size(), tiling, &out);
  if (s.ok()) CheckWritten(m, out, "WriteTiling");

  // The search sizes stock TFLM's arena per candidate (the slow part): one
  // input in four, so the stage and writer paths above run faster.
  if (m.num_operators(0) > kMaxSearchOperators || (h >> 32) % 4 != 0) return 0;
  const Span<const tflm::BuildTarget> targets = tflm::BuildTargets();
  rewrite::RewriteOptions options;
  options.target = targets[h % targets.size()].name;
  options.shapes = {{tiling.rows, tiling.cols}};
  options.length = (h >> 28) % 2 == 0 ? tiling.length : 0;
  rewrite::RewriteResult result;
  s = rewrite::SearchTilings(input.data(), input.size(), options, &result);
  if (!s.ok()) {
    FUZZ_CHECK(s.message()[0] != '\0', "SearchTilings: error without a message");
    return 0;
  }
  FUZZ_CHECK(result.best >= -1 && result.best < static_cast<int32_t>(result.candidates.size()),
             "best %d of %zu candidates", result.best, result.candidates.size());
  for (const rewrite::Candidate& c : result.candidates) {
    if (!c.error.empty()) continue;
    std::vector<uint8_t> bytes;
    s = rewrite::WriteTilings(input.data(), input.size(), c.tiling, c.second, &bytes);
    FUZZ_CHECK(s.ok(), "a measured candidate cannot be written again: %s", s.message());
    CheckWritten(m, bytes, "WriteTilings");
  }
  if (result.best < 0) return 0;
  const rewrite::Candidate& best = result.candidates[static_cast<size_t>(result.best)];
  FUZZ_CHECK(best.error.empty() && best.total < result.original.total,
             "best candidate %llu bytes, original %llu",
             static_cast<unsigned long long>(best.total),
             static_cast<unsigned long long>(result.original.total));
  std::vector<uint8_t> bytes;
  s = rewrite::WriteTilings(input.data(), input.size(), best.tiling, best.second, &bytes);
  FUZZ_CHECK(s.ok(), "WriteTilings: %s", s.message());
  fuzz::InputCopy copy(bytes.data(), bytes.size());
  model::Model w;
  FUZZ_CHECK(model::Model::FromBuffer(copy.data(), copy.size(), &w).ok(), "best does not load");
  tflm::TflmArenaOptions size_options;
  size_options.target = options.target;
  tflm::TflmArenaSize arena;
  s = tflm::ComputeTflmArenaSize(w, size_options, &arena);
  FUZZ_CHECK(s.ok(), "stock TFLM's arena of the written best: %s", s.message());
  FUZZ_CHECK(arena.min_arena_bytes == best.total, "written best needs %llu, the search said %llu",
             static_cast<unsigned long long>(arena.min_arena_bytes),
             static_cast<unsigned long long>(best.total));
  return 0;
}
