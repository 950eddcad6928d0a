#include "tflm_arena/rewrite/tiled_stage.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace rewrite {
namespace {

constexpr uint16_t kConcatAxisField = 0, kConcatActivationField = 1;
constexpr int32_t kAxisHeight = 1, kAxisWidth = 2;

// The part of an original tensor a tile holds: rows h, columns w.
struct Tile {
  int32_t tensor = -1;
  Range h, w;
};

struct Region {
  Range h, w;
  bool empty() const { return h.empty() || w.empty(); }
};

class Emitter {
 public:
  Emitter(const model::Model& m, const Stage& stage, TiledStage* out)
      : stage_(stage), out_(out), num_original_(static_cast<int32_t>(m.num_tensors(0))) {}

  Status Run(const Tiling& tiling);

 private:
  int32_t NewTensor(const std::vector<int32_t>& shape, int32_t like, std::vector<uint8_t> data,
                    int32_t type = 0) {
    model::NewTensor t;
    t.shape = shape;
    t.like = like;
    t.type = type;
    t.name = "rw" + std::to_string(out_->edit.tensors.size());
    t.data = std::move(data);
    out_->edit.tensors.push_back(std::move(t));
    return num_original_ + static_cast<int32_t>(out_->edit.tensors.size()) - 1;
  }
  // An int32 constant; equal constants are written once.
  int32_t Int32Constant(const std::vector<int32_t>& shape, const std::vector<int32_t>& values) {
    std::vector<int32_t> key = shape;
    key.insert(key.end(), values.begin(), values.end());
    auto it = constants_.find(key);
    if (it != constants_.end()) return it->second;
    std::vector<uint8_t> bytes(values.size() * 4);
    for (size_t i = 0; i < values.size(); ++i) {
      const uint32_t v = static_cast<uint32_t>(values[i]);
      for (size_t b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<uint8_t>(v >> (8 * b));
    }
    const int32_t t =
        NewTensor(shape, -1, std::move(bytes), static_cast<int32_t>(model::TensorType::kInt32));
    constants_[key] = t;
    return t;
  }
  void Emit(model::BuiltinCode code, std::vector<int32_t> inputs, int32_t output,
            uint8_t options_type = 0, std::vector<model::OptionField> options = {}) {
    model::NewOperator op;
    op.builtin_code = code;
    op.inputs = std::move(inputs);
    op.outputs = {output};
    op.options_type = options_type;
    op.options = std::move(options);
    out_->edit.order.push_back({true, static_cast<int32_t>(out_->edit.operators.size())});
    out_->edit.operators.push_back(std::move(op));
    ++out_->new_operators;
  }
  int32_t Channels(int32_t original) const { return stage_.dims.at(original).c; }
  std::vector<int32_t> Shape(int32_t original, const Region& r) const {
    return {1, r.h.size(), r.w.size(), Channels(original)};
  }
  // `tile` cut down to region `r` (a SLICE, or `tile` itself when equal).
  Tile Slice(int32_t original, const Tile& tile, const Region& r) {
    if (tile.h == r.h && tile.w == r.w) return tile;
    const int32_t begin =
        Int32Constant({4}, {0, r.h.begin - tile.h.begin, r.w.begin - tile.w.begin, 0});
    const int32_t size = Int32Constant({4}, {1, r.h.size(), r.w.size(), Channels(original)});
    const int32_t t = NewTensor(Shape(original, r), original, {});
    Emit(model::kBuiltinSlice, {tile.tensor, begin, size}, t);
    return {t, r.h, r.w};
  }
  // `tile` (covering the in-image part of `want`) padded out to `want`.
  Tile Pad(int32_t original, const Tile& tile, const Region& want) {
    const int32_t top = tile.h.begin - want.h.begin, bottom = want.h.end - tile.h.end;
    const int32_t left = tile.w.begin - want.w.begin, right = want.w.end - tile.w.end;
    if (top == 0 && bottom == 0 && left == 0 && right == 0) return tile;
    const int32_t pads = Int32Constant({4, 2}, {0, 0, top, bottom, left, right, 0, 0});
    const int32_t t = NewTensor(Shape(original, want), original, {});
    Emit(model::kBuiltinPad, {tile.tensor, pads}, t, model::kPadOptions);
    return {t, want.h, want.w};
  }
  Region Extent(int32_t original) const {
    const Dims& d = stage_.dims.at(original);
    return {{0, d.h}, {0, d.w}};
  }
  Status EmitTile(const Tiling& tiling, const Region& cut_region, Tile* cut_tile);

  const Stage& stage_;
  TiledStage* out_;
  int32_t num_original_;
  std::map<std::vector<int32_t>, int32_t> constants_;
};

Status Emitter::EmitTile(const Tiling& tiling, const Region& cut_region, Tile* cut_tile) {
  const size_t n = static_cast<size_t>(tiling.length);
  // Backward: the region of every stage tensor this tile needs.
  std::map<int32_t, Region> need;
  need[stage_.ops[n - 1].output] = cut_region;
  for (size_t k = n; k-- > 0;) {
    const StageOp& op = stage_.ops[k];
    auto it = need.find(op.output);
    if (it == need.end() || it->second.empty()) continue;
    const Region want = {InputRange(op.h, it->second.h), InputRange(op.w, it->second.w)};
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      if (!op.is_activation[i]) continue;
      const Region ext = Extent(op.inputs[i]);
      const Region clip = {Intersect(want.h, ext.h), Intersect(want.w, ext.w)};
      Region& r = need[op.inputs[i]];
      r = {Hull(r.h, clip.h), Hull(r.w, clip.w)};
    }
  }
  // Forward: the tile of every needed tensor.
  std::map<int32_t, Tile> tiles;
  const Region in_ext = Extent(stage_.input);
  const Tile whole_input = {stage_.input, in_ext.h, in_ext.w};
  tiles[stage_.input] = Slice(stage_.input, whole_input, need[stage_.input]);
  for (size_t k = 0; k < n; ++k) {
    const StageOp& op = stage_.ops[k];
    auto it = need.find(op.output);
    if (it == need.end() || it->second.empty()) continue;
    const Region out_r = it->second;
    const Region want = {InputRange(op.h, out_r.h), InputRange(op.w, out_r.w)};
    std::vector<int32_t> inputs = op.inputs;
    Tile passthrough;
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      if (!op.is_activation[i]) continue;
      const int32_t x = op.inputs[i];
      const Region ext = Extent(x);
      const Region clip = {Intersect(want.h, ext.h), Intersect(want.w, ext.w)};
      auto tx = tiles.find(x);
      if (tx == tiles.end()) {
        return Status::Error(StatusCode::kInternal, "rewrite: tensor %d has no tile", x);
      }
      Tile t = Slice(x, tx->second, clip);
      if (op.kind == StageOpKind::kConv || op.kind == StageOpKind::kDepthwise) {
        t = Pad(x, t, want);
      } else if (op.kind == StageOpKind::kPad) {
        // The original PAD's own padding, on this tile: what lies outside the image.
        const Tile padded = Pad(x, t, want);
        passthrough = {padded.tensor, out_r.h, out_r.w};
      } else if (t.h != want.h || t.w != want.w) {
        return Status::Error(StatusCode::kInternal, "rewrite: pooling window leaves the image");
      }
      inputs[i] = t.tensor;
    }
    if (op.kind == StageOpKind::kPad) {
      tiles[op.output] = passthrough;  // no operator: the padded tile is the output's tile
      continue;
    }
    const int32_t t = NewTensor(Shape(op.output, out_r), op.output, {});
    Emit(op.code, inputs, t, op.options_type, op.options);
    out_->tiled_macs = AddSat(out_->tiled_macs, MulSat(int64_t{out_r.h.size()} * out_r.w.size(),
                                                       op.macs_per_output_pixel));
    tiles[op.output] = {t, out_r.h, out_r.w};
  }
  *cut_tile = tiles[stage_.ops[n - 1].output];
  if (cut_tile->h != cut_region.h || cut_tile->w != cut_region.w) {
    return Status::Error(StatusCode::kInternal, "rewrite: a tile does not cover its region");
  }
  return Status::Ok();
}

Status Emitter::Run(const Tiling& tiling) {
  bool is_cut = false;
  for (int32_t c : stage_.cuts) is_cut = is_cut || c == tiling.length;
  if (!is_cut) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "the stage cannot end after %d operators (no single tensor carries it "
                         "to the rest of the model there)",
                         tiling.length);
  }
  const int32_t cut = stage_.ops[static_cast<size_t>(tiling.length) - 1].output;
  const Dims& cd = stage_.dims.at(cut);
  if (tiling.rows < 1 || tiling.cols < 1 || tiling.rows > cd.h || tiling.cols > cd.w ||
      tiling.rows > kMaxTilesPerAxis || tiling.cols > kMaxTilesPerAxis) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%d x %d tiles do not fit a %d x %d stage output (1 to min(extent, "
                         "%d) per axis)",
                         tiling.rows, tiling.cols, cd.h, cd.w, kMaxTilesPerAxis);
  }
  if (tiling.rows == 1 && tiling.cols == 1) {
    return Status::Error(StatusCode::kInvalidArgument, "1 x 1 tiles is the original model");
  }
  for (size_t k = 0; k < static_cast<size_t>(tiling.length); ++k) {
    const StageOp& op = stage_.ops[k];
    const Dims& d = stage_.dims.at(op.output);
    out_->stage_macs =
        AddSat(out_->stage_macs, MulSat(int64_t{d.h} * d.w, op.macs_per_output_pixel));
  }
  const std::vector<Range> rows = SplitEvenly(cd.h, tiling.rows);
  const std::vector<Range> cols = SplitEvenly(cd.w, tiling.cols);
  std::vector<int32_t> strips;
  for (const Range& rr : rows) {
    std::vector<int32_t> row_tiles;
    for (const Range& cr : cols) {
      Tile t;
      TFLM_ARENA_RETURN_IF_ERROR(EmitTile(tiling, {rr, cr}, &t));
      row_tiles.push_back(t.tensor);
    }
    if (row_tiles.size() == 1) {
      strips.push_back(row_tiles[0]);
      continue;
    }
    const int32_t strip = rows.size() == 1 ? cut : NewTensor({1, rr.size(), cd.w, cd.c}, cut, {});
    Emit(model::kBuiltinConcatenation, row_tiles, strip, model::kConcatenationOptions,
         {{kConcatAxisField, 4, kAxisWidth}, {kConcatActivationField, 1, 0}});
    strips.push_back(strip);
  }
  if (strips.size() > 1) {
    Emit(model::kBuiltinConcatenation, strips, cut, model::kConcatenationOptions,
         {{kConcatAxisField, 4, kAxisHeight}, {kConcatActivationField, 1, 0}});
  }
  return Status::Ok();
}

}  // namespace

Status TileStage(const model::Model& m, const Stage& stage, const Tiling& tiling, TiledStage* out) {
  *out = TiledStage();
  // The operators before the stage, unchanged.
  for (int32_t i = 0; i < stage.start_op; ++i) out->edit.order.push_back({false, i});
  TFLM_ARENA_RETURN_IF_ERROR(Emitter(m, stage, out).Run(tiling));
  // The stage's own tensors, now unused (the cut tensor is the join's output).
  const int32_t cut = stage.ops[static_cast<size_t>(tiling.length) - 1].output;
  for (size_t k = 0; k + 1 < static_cast<size_t>(tiling.length); ++k) {
    if (stage.ops[k].output != cut) out->edit.emptied.push_back(stage.ops[k].output);
  }
  // The operators after the stage, unchanged.
  const size_t after = static_cast<size_t>(stage.start_op) + static_cast<size_t>(tiling.length);
  for (size_t i = after; i < m.num_operators(0); ++i) {
    out->edit.order.push_back({false, static_cast<int32_t>(i)});
  }
  return Status::Ok();
}

}  // namespace rewrite
}  // namespace tflm_arena
