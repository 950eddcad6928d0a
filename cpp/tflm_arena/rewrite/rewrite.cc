#include "tflm_arena/rewrite/rewrite.h"

#include <cstdlib>
#include <cstring>
#include <memory>

#include "tflm_arena/model/graph_edit_writer.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/tflm/tflm_arena_size.h"

namespace tflm_arena {
namespace rewrite {
namespace {

// A 16-byte aligned copy of `bytes` (Model::FromBuffer's requirement).
struct AlignedCopy {
  explicit AlignedCopy(const std::vector<uint8_t>& bytes)
      : storage((bytes.size() + 16) / 16 + 1), size(bytes.size()) {
    if (!bytes.empty()) std::memcpy(storage.data(), bytes.data(), bytes.size());
  }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(storage.data()); }
  struct alignas(16) Block {
    uint8_t b[16];
  };
  std::vector<Block> storage;
  size_t size;
};

Status Measure(const model::Model& m, const std::string& target, Candidate* c) {
  tflm::TflmArenaOptions opts;
  if (!target.empty()) opts.target = target;
  tflm::TflmArenaSize size;
  TFLM_ARENA_RETURN_IF_ERROR(tflm::ComputeTflmArenaSize(m, opts, &size));
  c->head = size.head;
  c->tail = size.tail;
  c->total = size.min_arena_bytes;
  c->macs = ModelMacs(m);
  c->file_bytes = m.size();
  c->operators = static_cast<int32_t>(m.num_operators(0));
  return Status::Ok();
}

}  // namespace

std::vector<std::pair<int32_t, int32_t>> DefaultTileShapes() {
  std::vector<std::pair<int32_t, int32_t>> shapes;
  for (int32_t r = 2; r <= kMaxTilesPerAxis; ++r) shapes.push_back({r, 1});
  for (int32_t r = 2; r <= kMaxTilesPerAxis; ++r) {
    if (r - 1 > 1) shapes.push_back({r, r - 1});
    shapes.push_back({r, r});
    if (r < kMaxTilesPerAxis) shapes.push_back({r, r + 1});
  }
  return shapes;
}

Status WriteTiling(const uint8_t* data, size_t size, const Tiling& tiling,
                   std::vector<uint8_t>* out) {
  model::Model m;
  TFLM_ARENA_RETURN_IF_ERROR(model::Model::FromBuffer(data, size, &m));
  Stage stage;
  TFLM_ARENA_RETURN_IF_ERROR(FindStage(m, &stage));
  TiledStage tiled;
  TFLM_ARENA_RETURN_IF_ERROR(TileStage(m, stage, tiling, &tiled));
  return model::WriteGraphEdit(data, size, tiled.edit, out);
}

Status WriteTilings(const uint8_t* data, size_t size, const Tiling& first, const Tiling& second,
                    std::vector<uint8_t>* out) {
  std::vector<uint8_t> one;
  TFLM_ARENA_RETURN_IF_ERROR(WriteTiling(data, size, first, &one));
  if (second.length == 0) {
    *out = std::move(one);
    return Status::Ok();
  }
  model::Model m0;
  TFLM_ARENA_RETURN_IF_ERROR(model::Model::FromBuffer(data, size, &m0));
  Stage a;
  TFLM_ARENA_RETURN_IF_ERROR(FindStage(m0, &a));
  const int32_t cut = a.ops[static_cast<size_t>(first.length) - 1].output;
  const AlignedCopy copy(one);
  model::Model m1;
  TFLM_ARENA_RETURN_IF_ERROR(model::Model::FromBuffer(copy.data(), copy.size, &m1));
  // The first stage's operators became its tiles and joins; the original
  // operators after it close the list.
  const size_t after = m0.num_operators(0) - static_cast<size_t>(first.length);
  const int32_t start = static_cast<int32_t>(m1.num_operators(0) - after);
  Stage b;
  TFLM_ARENA_RETURN_IF_ERROR(FindStageFrom(m1, start, cut, &b));
  TiledStage tiled;
  TFLM_ARENA_RETURN_IF_ERROR(TileStage(m1, b, second, &tiled));
  return model::WriteGraphEdit(copy.data(), copy.size, tiled.edit, out);
}

namespace {

// Shapes tried for the two parts of a split stage.
constexpr std::pair<int32_t, int32_t> kFirstPartShapes[] = {{3, 3}, {4, 4}, {5, 5},
                                                            {6, 6}, {5, 4}, {8, 1}};
constexpr std::pair<int32_t, int32_t> kSecondPartShapes[] = {{2, 1}, {2, 2}, {3, 2}, {3, 3}};

void MeasureTilings(const uint8_t* data, size_t size, const std::string& target, Candidate* c) {
  std::vector<uint8_t> bytes;
  Status s = WriteTilings(data, size, c->tiling, c->second, &bytes);
  if (s.ok()) {
    const AlignedCopy copy(bytes);
    model::Model tiled;
    s = model::Model::FromBuffer(copy.data(), copy.size, &tiled);
    if (s.ok()) s = Measure(tiled, target, c);
  }
  if (!s.ok()) c->error = s.message();
}

}  // namespace

Status SearchTilings(const uint8_t* data, size_t size, const RewriteOptions& options,
                     RewriteResult* out) {
  *out = RewriteResult();
  model::Model m;
  TFLM_ARENA_RETURN_IF_ERROR(model::Model::FromBuffer(data, size, &m));
  TFLM_ARENA_RETURN_IF_ERROR(FindStage(m, &out->stage));
  TFLM_ARENA_RETURN_IF_ERROR(Measure(m, options.target, &out->original));
  out->original.tiling = {0, 1, 1};
  if (out->stage.cuts.empty()) return Status::Ok();  // nothing to tile: end_reason says why
  const auto shapes = options.shapes.empty() ? DefaultTileShapes() : options.shapes;
  for (int32_t length : out->stage.cuts) {
    if (options.length > 0 && length != options.length) continue;
    const Dims& cd = out->stage.dims.at(out->stage.ops[static_cast<size_t>(length) - 1].output);
    for (const auto& shape : shapes) {
      const bool forced = !options.shapes.empty();
      if (!forced && (shape.first > cd.h || shape.second > cd.w)) continue;
      Candidate c;
      c.tiling = {length, shape.first, shape.second};
      MeasureTilings(data, size, options.target, &c);
      out->candidates.push_back(std::move(c));
    }
  }
  if (options.length > 0 && out->candidates.empty()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "the stage cannot end after %d operators (no single tensor carries it "
                         "to the rest of the model there)",
                         options.length);
  }
  // The best single stage, split in two at each earlier cut.
  const Candidate* single = nullptr;
  for (const Candidate& c : out->candidates) {
    if (c.error.empty() && (single == nullptr || c.total < single->total)) single = &c;
  }
  if (single != nullptr && options.shapes.empty() && options.length == 0) {
    const int32_t end = single->tiling.length;
    const Dims& ed = out->stage.dims.at(out->stage.ops[static_cast<size_t>(end) - 1].output);
    std::vector<Candidate> split;
    for (int32_t first : out->stage.cuts) {
      if (first >= end) break;
      const Dims& fd = out->stage.dims.at(out->stage.ops[static_cast<size_t>(first) - 1].output);
      for (const auto& a : kFirstPartShapes) {
        if (a.first > fd.h || a.second > fd.w) continue;
        for (const auto& b : kSecondPartShapes) {
          if (b.first > ed.h || b.second > ed.w) continue;
          Candidate c;
          c.tiling = {first, a.first, a.second};
          c.second = {end - first, b.first, b.second};
          MeasureTilings(data, size, options.target, &c);
          // A second part that cannot end there is not a choice: skip it.
          if (c.error.empty()) split.push_back(std::move(c));
        }
      }
    }
    for (Candidate& c : split) out->candidates.push_back(std::move(c));
  }
  uint64_t best_total = out->original.total;
  for (size_t i = 0; i < out->candidates.size(); ++i) {
    const Candidate& c = out->candidates[i];
    if (c.error.empty() && c.total < best_total) {
      best_total = c.total;
      out->best = static_cast<int32_t>(i);
    }
  }
  return Status::Ok();
}

}  // namespace rewrite
}  // namespace tflm_arena
