#include "tflm_arena/rewrite/stage.h"

#include <cstring>
#include <set>

#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace rewrite {
namespace {

using model::BuiltinCode;

// Fields of the options tables a tile operator is given: schema field id,
// size in bytes, the format's default.
struct FieldSpec {
  uint16_t id;
  uint8_t size;
  int32_t def;
};
constexpr FieldSpec kConvFields[] = {{0, 1, 0}, {1, 4, 0}, {2, 4, 0}, {3, 1, 0},
                                     {4, 4, 1}, {5, 4, 1}, {6, 1, 0}};
constexpr FieldSpec kDepthwiseFields[] = {{0, 1, 0}, {1, 4, 0}, {2, 4, 0}, {3, 4, 0},
                                          {4, 1, 0}, {5, 4, 1}, {6, 4, 1}};
constexpr FieldSpec kPoolFields[] = {{0, 1, 0}, {1, 4, 0}, {2, 4, 0},
                                     {3, 4, 0}, {4, 4, 0}, {5, 1, 0}};
constexpr FieldSpec kAddSubFields[] = {{0, 1, 0}, {1, 1, 1}};
constexpr FieldSpec kActivationOnlyFields[] = {{0, 1, 0}};
constexpr FieldSpec kLeakyReluFields[] = {{0, 4, 0}};  // alpha: float, read as its bits
constexpr uint16_t kPaddingField = 0;
constexpr int32_t kPaddingValid = static_cast<int32_t>(model::Padding::kValid);

struct OpRule {
  const FieldSpec* fields;
  size_t num_fields;
  BuiltinCode code;
  StageOpKind kind;
  uint8_t options_type;
  bool binary;  // pointwise with two inputs
};

template <size_t N>
constexpr size_t Count(const FieldSpec (&)[N]) {
  return N;
}

const OpRule* FindRule(BuiltinCode code) {
  static const OpRule kRules[] = {
      {kConvFields, Count(kConvFields), model::kBuiltinConv2D, StageOpKind::kConv,
       model::kConv2DOptions, false},
      {kDepthwiseFields, Count(kDepthwiseFields), model::kBuiltinDepthwiseConv2D,
       StageOpKind::kDepthwise, model::kDepthwiseConv2DOptions, false},
      {kPoolFields, Count(kPoolFields), model::kBuiltinAveragePool2D, StageOpKind::kPool,
       model::kPool2DOptions, false},
      {kPoolFields, Count(kPoolFields), model::kBuiltinMaxPool2D, StageOpKind::kPool,
       model::kPool2DOptions, false},
      {nullptr, 0, model::kBuiltinPad, StageOpKind::kPad, model::kPadOptions, false},
      {kAddSubFields, Count(kAddSubFields), model::kBuiltinAdd, StageOpKind::kPointwise,
       model::kAddOptions, true},
      {kAddSubFields, Count(kAddSubFields), model::kBuiltinSub, StageOpKind::kPointwise,
       model::kSubOptions, true},
      {kActivationOnlyFields, Count(kActivationOnlyFields), model::kBuiltinMul,
       StageOpKind::kPointwise, model::kMulOptions, true},
      {nullptr, 0, model::kBuiltinMaximum, StageOpKind::kPointwise, model::kMaximumMinimumOptions,
       true},
      {nullptr, 0, model::kBuiltinMinimum, StageOpKind::kPointwise, model::kMaximumMinimumOptions,
       true},
      {nullptr, 0, model::kBuiltinRelu, StageOpKind::kPointwise, 0, false},
      {nullptr, 0, model::kBuiltinRelu6, StageOpKind::kPointwise, 0, false},
      {nullptr, 0, model::kBuiltinReluN1To1, StageOpKind::kPointwise, 0, false},
      {nullptr, 0, model::kBuiltinRelu0To1, StageOpKind::kPointwise, 0, false},
      {nullptr, 0, model::kBuiltinLogistic, StageOpKind::kPointwise, 0, false},
      {nullptr, 0, model::kBuiltinTanh, StageOpKind::kPointwise, 0, false},
      {nullptr, 0, model::kBuiltinHardSwish, StageOpKind::kPointwise, 0, false},
      {kLeakyReluFields, Count(kLeakyReluFields), model::kBuiltinLeakyRelu, StageOpKind::kPointwise,
       model::kLeakyReluOptions, false},
      {nullptr, 0, model::kBuiltinAbs, StageOpKind::kPointwise, 0, false},
      {nullptr, 0, model::kBuiltinNeg, StageOpKind::kPointwise, 0, false},
      {nullptr, 0, model::kBuiltinQuantize, StageOpKind::kPointwise, 0, false},
      {nullptr, 0, model::kBuiltinDequantize, StageOpKind::kPointwise, 0, false},
  };
  for (const OpRule& r : kRules) {
    if (r.code == code) return &r;
  }
  return nullptr;
}

class StageFinder {
 public:
  StageFinder(const model::Model& m, Stage* out) : m_(m), out_(out) {}

  // start_op 0 and input -1: the stage from the model's input.
  Status Run(int32_t start_op, int32_t input);

 private:
  // "" when `t` is an activation [1, H, W, C] of int8 / float32 (dims set).
  std::string ActivationDims(int32_t t, Dims* d);
  bool IsConstant(int32_t t);
  // "" when operator `i` joins the stage (appended to out_->ops).
  std::string TryAdd(int32_t i);
  std::string Window2D(const model::OperatorInfo& info, const OpRule& rule, StageOp* op,
                       const Dims& in, const Dims& outd);
  std::string ReadOptions(int32_t i, const OpRule& rule, StageOp* op);

  const model::Model& m_;
  Stage* out_;
  std::set<int32_t> stage_tensors_;
};

std::string OpName(BuiltinCode code) {
  const char* n = model::BuiltinCodeName(code);
  return n ? n : "builtin " + std::to_string(code);
}

std::string StageFinder::ActivationDims(int32_t t, Dims* d) {
  model::TensorInfo ti;
  if (t < 0 || !m_.tensor(0, static_cast<size_t>(t), &ti).ok()) return "a missing tensor";
  if (ti.type != model::TensorType::kInt8 && ti.type != model::TensorType::kFloat32) {
    return "tensor " + std::to_string(t) + " is neither int8 nor float32";
  }
  if (ti.shape.size() != 4 || ti.shape[0] != 1) {
    return "tensor " + std::to_string(t) + " is not [1, H, W, C]";
  }
  *d = {ti.shape[1], ti.shape[2], ti.shape[3]};
  if (d->h < 1 || d->w < 1 || d->c < 1) return "tensor " + std::to_string(t) + " is empty";
  if (d->h > kMaxStageExtent || d->w > kMaxStageExtent || d->c > kMaxStageExtent) {
    return "tensor " + std::to_string(t) + " has a dimension above 2^24";
  }
  return "";
}

bool StageFinder::IsConstant(int32_t t) {
  model::TensorInfo ti;
  return t >= 0 && m_.tensor(0, static_cast<size_t>(t), &ti).ok() && ti.has_constant_data;
}

std::string StageFinder::ReadOptions(int32_t i, const OpRule& rule, StageOp* op) {
  op->options_type = rule.options_type;
  if (rule.options_type == 0) return "";
  model::OptionsTable table;
  if (!m_.builtin_options(0, static_cast<size_t>(i), &table).ok()) return "unreadable options";
  if (table.present() && table.type() != rule.options_type) return "options of another type";
  for (size_t k = 0; k < rule.num_fields; ++k) {
    const FieldSpec& f = rule.fields[k];
    const int32_t v = f.size == 1
                          ? static_cast<int32_t>(table.UInt8(f.id, static_cast<uint8_t>(f.def)))
                          : table.Int32(f.id, f.def);
    op->options.push_back({f.id, f.size, v});
  }
  // A field this table does not know would be dropped: refuse instead.
  for (size_t id = rule.num_fields; id < rule.num_fields + 8; ++id) {
    if (table.present() && (table.UInt8(id, 0) != 0 || table.UInt8(id, 1) != 1)) {
      return "options field " + std::to_string(id) + " is newer than this tool";
    }
  }
  if (!table.ok()) return "malformed options";
  return "";
}

std::string StageFinder::Window2D(const model::OperatorInfo& info, const OpRule& rule, StageOp* op,
                                  const Dims& in, const Dims& outd) {
  auto field = [&](uint16_t id) {
    for (const model::OptionField& f : op->options)
      if (f.id == id) return f.value;
    return 0;
  };
  const bool same = field(kPaddingField) == static_cast<int32_t>(model::Padding::kSame);
  const int32_t sw = field(1), sh = field(2);
  int32_t kh = 0, kw = 0;
  if (rule.kind == StageOpKind::kPool) {
    kw = field(3);
    kh = field(4);
  } else {
    const int32_t dil_w = field(rule.kind == StageOpKind::kConv ? 4 : 5);
    const int32_t dil_h = field(rule.kind == StageOpKind::kConv ? 5 : 6);
    if (dil_w != 1 || dil_h != 1) return "dilation is not 1";
    model::TensorInfo f;
    if (info.inputs.size() < 2 || !m_.tensor(0, static_cast<size_t>(info.inputs[1]), &f).ok() ||
        f.shape.size() != 4 || !f.has_constant_data) {
      return "its filter is not a constant 4-D tensor";
    }
    kh = f.shape[1];
    kw = f.shape[2];
    const int64_t reduction =
        rule.kind == StageOpKind::kConv ? MulSat(MulSat(kh, kw), f.shape[3]) : MulSat(kh, kw);
    op->macs_per_output_pixel = MulSat(reduction, outd.c);
    if (info.inputs.size() > 2 && info.inputs[2] >= 0 && !IsConstant(info.inputs[2])) {
      return "its bias is not constant";
    }
  }
  if (sw < 1 || sh < 1 || kh < 1 || kw < 1) return "a stride or kernel size below 1";
  if (sw > kMaxStageExtent || sh > kMaxStageExtent || kh > kMaxStageExtent ||
      kw > kMaxStageExtent) {
    return "a stride or kernel size above 2^24";
  }
  op->h = {kh, sh, same ? SamePadBefore(in.h, kh, sh) : 0};
  op->w = {kw, sw, same ? SamePadBefore(in.w, kw, sw) : 0};
  const int32_t eh = same ? SameOutput(in.h, sh) : ValidOutput(in.h, kh, sh);
  const int32_t ew = same ? SameOutput(in.w, sw) : ValidOutput(in.w, kw, sw);
  if (eh != outd.h || ew != outd.w) return "its output shape does not follow from its window";
  if (rule.kind == StageOpKind::kPool) {
    // Zero padding on every side: the last window ends inside the input.
    const int64_t end_h = int64_t{outd.h - 1} * sh - op->h.pad_before + kh;
    const int64_t end_w = int64_t{outd.w - 1} * sw - op->w.pad_before + kw;
    if (op->h.pad_before != 0 || op->w.pad_before != 0 || end_h > in.h || end_w > in.w) {
      return "pooling with padding (TFLM's pooling ignores padded cells, a PAD cannot stand in)";
    }
  }
  for (model::OptionField& f : op->options) {
    if (f.id == kPaddingField) f.value = kPaddingValid;
  }
  return "";
}

std::string StageFinder::TryAdd(int32_t i) {
  model::OperatorInfo info;
  if (!m_.op(0, static_cast<size_t>(i), &info).ok()) return "unreadable operator";
  const OpRule* rule = FindRule(info.builtin_code);
  if (rule == nullptr || info.custom_code[0] != '\0') return "not an operator the rewrite tiles";
  if (info.outputs.size() != 1 || !info.intermediates.empty()) return "not one output";
  StageOp op;
  op.op = i;
  op.code = info.builtin_code;
  op.kind = rule->kind;
  op.output = info.outputs[0];
  Dims outd;
  std::string why = ActivationDims(op.output, &outd);
  if (!why.empty()) return why;
  why = ReadOptions(i, *rule, &op);
  if (!why.empty()) return why;
  op.inputs.assign(info.inputs.begin(), info.inputs.end());
  op.is_activation.assign(op.inputs.size(), false);
  const size_t num_act = rule->binary ? 2 : 1;
  if (op.inputs.size() < num_act) return "too few inputs";
  Dims in;
  size_t acts = 0;
  for (size_t k = 0; k < num_act; ++k) {
    const int32_t t = op.inputs[k];
    if (stage_tensors_.count(t)) {
      op.is_activation[k] = true;
      ++acts;
      Dims d;
      why = ActivationDims(t, &d);
      if (!why.empty()) return why;
      if (acts == 1) in = d;
    } else if (!rule->binary || !IsConstant(t)) {
      return "it reads tensor " + std::to_string(t) + ", which the stage does not produce";
    }
  }
  if (acts == 0) return "it reads no stage tensor";
  for (size_t k = num_act; k < op.inputs.size(); ++k) {
    if (op.inputs[k] >= 0 && !IsConstant(op.inputs[k])) return "a non-constant extra input";
  }
  switch (rule->kind) {
    case StageOpKind::kConv:
    case StageOpKind::kDepthwise:
    case StageOpKind::kPool:
      why = Window2D(info, *rule, &op, in, outd);
      if (!why.empty()) return why;
      if (rule->kind == StageOpKind::kPool && outd.c != in.c) return "channels change";
      break;
    case StageOpKind::kPad: {
      model::TensorInfo p;
      if (op.inputs.size() != 2 || !m_.tensor(0, static_cast<size_t>(op.inputs[1]), &p).ok() ||
          !p.has_constant_data || p.type != model::TensorType::kInt32 ||
          p.constant_data.size() != 32) {
        return "its paddings are not a constant int32 [4, 2]";
      }
      int32_t pads[8];
      std::memcpy(pads, p.constant_data.data(), sizeof(pads));
      if (pads[0] || pads[1] || pads[6] || pads[7]) return "it pads batch or channels";
      for (int32_t v : pads) {
        if (v < 0) return "a negative padding";
        if (v > kMaxStageExtent) return "a padding above 2^24";
      }
      if (int64_t{in.h} + pads[2] + pads[3] != outd.h ||
          int64_t{in.w} + pads[4] + pads[5] != outd.w || in.c != outd.c) {
        return "its output shape does not follow from its paddings";
      }
      op.h = {1, 1, pads[2]};
      op.w = {1, 1, pads[4]};
      break;
    }
    case StageOpKind::kPointwise:
      if (in.h != outd.h || in.w != outd.w || in.c != outd.c) return "shapes differ (broadcast)";
      for (size_t k = 0; k < num_act; ++k) {
        Dims d;
        if (op.is_activation[k]) {
          ActivationDims(op.inputs[k], &d);
          if (d.h != in.h || d.w != in.w || d.c != in.c) return "shapes differ (broadcast)";
        } else {
          model::TensorInfo c;
          m_.tensor(0, static_cast<size_t>(op.inputs[k]), &c);
          // Broadcast over height and width only: rank <= 4 with H = W = 1.
          const size_t r = c.shape.size();
          if (r > 4 || (r >= 2 && c.shape[r - 2] != 1) || (r >= 3 && c.shape[r - 3] != 1)) {
            return "a constant that varies over height or width";
          }
        }
      }
      break;
  }
  out_->dims[op.output] = outd;
  stage_tensors_.insert(op.output);
  out_->ops.push_back(std::move(op));
  return "";
}

Status StageFinder::Run(int32_t start_op, int32_t input) {
  *out_ = Stage();
  if (m_.num_subgraphs() != 1) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "the model has %zu subgraphs (control flow); the rewrite handles "
                         "one-subgraph models only",
                         m_.num_subgraphs());
  }
  bool has_plan = false;
  model::OfflinePlanView plan;
  if (!model::DecodeOfflinePlan(m_, &plan, &has_plan).ok() || has_plan) {
    return Status::Error(StatusCode::kFailedPrecondition,
                         "the model carries an OfflineMemoryAllocation plan, which cannot place "
                         "the tensors the rewrite adds; rewrite the model without it and plan "
                         "the result");
  }
  model::SubgraphInfo sg;
  TFLM_ARENA_RETURN_IF_ERROR(m_.subgraph(0, &sg));
  for (size_t i = 0; i < sg.num_operators; ++i) {
    model::OperatorInfo info;
    TFLM_ARENA_RETURN_IF_ERROR(m_.op(0, i, &info));
    if (info.called.count > 0) {
      return Status::Error(StatusCode::kFailedPrecondition,
                           "operator %zu (%s) runs other subgraphs (control flow)", i,
                           OpName(info.builtin_code).c_str());
    }
  }
  out_->start_op = start_op;
  Dims in;
  if (input < 0) {
    // Not a one-image model: no stage (the model is left as it is).
    if (sg.inputs.size() != 1) {
      out_->end_reason = "the model has " + std::to_string(sg.inputs.size()) +
                         " inputs; the rewrite tiles a model with one image input";
      return Status::Ok();
    }
    const std::string why = ActivationDims(sg.inputs[0], &in);
    if (!why.empty()) {
      out_->end_reason = "the model input: " + why;
      return Status::Ok();
    }
    input = sg.inputs[0];
  } else {
    const std::string why = ActivationDims(input, &in);
    if (!why.empty() || start_op < 0 || static_cast<size_t>(start_op) > sg.num_operators) {
      return Status::Error(StatusCode::kInvalidArgument, "rewrite: no stage starts at operator %d",
                           start_op);
    }
  }
  out_->input = input;
  out_->dims[out_->input] = in;
  stage_tensors_.insert(out_->input);

  // Last reader of every tensor, and the model outputs, for the cuts.
  std::vector<int64_t> last_use(m_.num_tensors(0), -1);
  for (size_t i = 0; i < sg.num_operators; ++i) {
    model::OperatorInfo info;
    TFLM_ARENA_RETURN_IF_ERROR(m_.op(0, i, &info));
    for (int32_t t : info.inputs) {
      if (t >= 0) last_use[static_cast<size_t>(t)] = static_cast<int64_t>(i);
    }
  }
  for (int32_t t : sg.outputs) last_use[static_cast<size_t>(t)] = INT64_MAX;

  for (size_t i = static_cast<size_t>(start_op); i < sg.num_operators; ++i) {
    const std::string stop = TryAdd(static_cast<int32_t>(i));
    if (!stop.empty()) {
      model::OperatorInfo info;
      m_.op(0, i, &info);
      out_->end_reason =
          "operator " + std::to_string(i) + " (" + OpName(info.builtin_code) + "): " + stop;
      break;
    }
    // A cut: no stage tensor but this output (and the input) is read later.
    bool cut = last_use[static_cast<size_t>(out_->ops.back().output)] > static_cast<int64_t>(i);
    for (const StageOp& op : out_->ops) {
      if (op.output != out_->ops.back().output &&
          last_use[static_cast<size_t>(op.output)] > static_cast<int64_t>(i)) {
        cut = false;
      }
    }
    if (cut) out_->cuts.push_back(static_cast<int32_t>(out_->ops.size()));
  }
  if (out_->end_reason.empty()) out_->end_reason = "the model ends";
  return Status::Ok();
}

}  // namespace

Status FindStage(const model::Model& m, Stage* out) { return StageFinder(m, out).Run(0, -1); }

Status FindStageFrom(const model::Model& m, int32_t start_op, int32_t input, Stage* out) {
  return StageFinder(m, out).Run(start_op, input);
}

int64_t ModelMacs(const model::Model& m) {
  int64_t total = 0;
  model::SubgraphInfo sg;
  if (m.num_subgraphs() == 0 || !m.subgraph(0, &sg).ok()) return 0;
  for (size_t i = 0; i < sg.num_operators; ++i) {
    model::OperatorInfo info;
    if (!m.op(0, i, &info).ok() || info.inputs.size() < 2 || info.outputs.empty()) continue;
    model::TensorInfo f, o;
    if (info.inputs[1] < 0 || !m.tensor(0, static_cast<size_t>(info.inputs[1]), &f).ok() ||
        info.outputs[0] < 0 || !m.tensor(0, static_cast<size_t>(info.outputs[0]), &o).ok()) {
      continue;
    }
    const int64_t out_elems =
        o.num_elements > uint64_t{INT64_MAX} ? INT64_MAX : static_cast<int64_t>(o.num_elements);
    int64_t macs = 0;
    if (info.builtin_code == model::kBuiltinConv2D && f.shape.size() == 4) {
      macs = MulSat(MulSat(MulSat(out_elems, f.shape[1]), f.shape[2]), f.shape[3]);
    } else if (info.builtin_code == model::kBuiltinDepthwiseConv2D && f.shape.size() == 4) {
      macs = MulSat(MulSat(out_elems, f.shape[1]), f.shape[2]);
    } else if (info.builtin_code == model::kBuiltinFullyConnected && f.shape.size() == 2) {
      macs = MulSat(out_elems, f.shape[1]);
    }
    total = AddSat(total, macs);
  }
  return total;
}

}  // namespace rewrite
}  // namespace tflm_arena
