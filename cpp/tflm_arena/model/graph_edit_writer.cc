#include "tflm_arena/model/graph_edit_writer.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <utility>

#include "tflm_arena/model/flatbuffer_raw.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/model/prefix_builder.h"
#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace model {
namespace {

// Field ids of the TFLite schema used here.
constexpr size_t kModelFieldCount = 8;  // version .. signature_defs; 0 is a scalar
constexpr size_t kModelOperatorCodes = 1, kModelSubgraphs = 2, kModelBuffers = 4;
constexpr size_t kSubgraphFieldCount = 6;  // tensors .. name (offsets), debug_metadata_index (int)
constexpr size_t kSubgraphTensors = 0, kSubgraphOperators = 3, kSubgraphDebugIndex = 5;
// Tensor: shape, type (byte), buffer (uint), name, quantization.
constexpr size_t kTensorFieldCount = 5;
constexpr size_t kTensorShape = 0, kTensorType = 1, kTensorBuffer = 2, kTensorName = 3,
                 kTensorQuantization = 4;
// Operator: opcode_index (uint), inputs, outputs, builtin_options_type
// (ubyte), builtin_options.
constexpr size_t kOperatorFieldCount = 5;
constexpr size_t kOperatorOpcode = 0, kOperatorInputs = 1, kOperatorOutputs = 2,
                 kOperatorOptionsType = 3, kOperatorOptions = 4;
// OperatorCode: deprecated_builtin_code (byte), custom_code, version (int),
// builtin_code (int).
constexpr size_t kOpcodeFieldCount = 4;
constexpr size_t kOpcodeDeprecated = 0, kOpcodeVersion = 2, kOpcodeBuiltin = 3;
constexpr size_t kBufferData = 0;
// OperatorCode.deprecated_builtin_code of codes that do not fit the byte
// (the format's PLACEHOLDER_FOR_GREATER_OP_CODES).
constexpr int32_t kPlaceholderForGreaterOpCodes = 127;
constexpr size_t kOptionFieldIds = 64;  // option field ids 0..63

Status Malformed(const char* what) { return MalformedForRewrite(what); }

// What the edit resolves to, before any byte is written.
struct Resolved {
  size_t num_tensors = 0;                   // original tensors of subgraph 0
  std::vector<int8_t> tensor_type;          // per new tensor
  std::vector<int32_t> like;                // per new tensor; -1: no quantization link
  std::vector<uint32_t> tensor_buffer;      // per new tensor
  std::vector<uint32_t> op_opcode;          // per new operator: index into operator_codes
  std::vector<int32_t> new_codes;           // builtin codes appended to operator_codes
  bool append_empty_buffer = false;         // buffers[nbuf] = empty (for activations)
  uint32_t activation_buffer = 0;           // the empty buffer activations use
  std::vector<const NewTensor*> constants;  // new buffers after it, in order
};

Status CheckNoOfflinePlan(const Model& m) {
  for (size_t i = 0; i < m.num_metadata(); ++i) {
    MetadataInfo md;
    TFLM_ARENA_RETURN_IF_ERROR(m.metadata(i, &md));
    if (md.name_length == sizeof(kOfflinePlanMetadataName) - 1 &&
        std::memcmp(md.name, kOfflinePlanMetadataName, md.name_length) == 0) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "the model has an OfflineMemoryAllocation plan: the edit adds tensors "
                           "the plan does not place (edit the model without its plan, then write "
                           "a plan for the result)");
    }
  }
  return Status::Ok();
}

// Element count of `shape`, or false when a dimension is negative or the
// count exceeds kMaxTensorBytes.
bool ElementCount(const std::vector<int32_t>& shape, uint64_t* count) {
  uint64_t n = 1;
  for (int32_t d : shape) {
    if (d < 0) return false;
    if (d != 0 && n > kMaxTensorBytes / static_cast<uint64_t>(d)) return false;
    n *= static_cast<uint64_t>(d);
  }
  *count = n;
  return true;
}

// Types, quantization links and constant sizes of the new tensors.
Status ResolveTensors(const Model& m, const GraphEdit& edit, Resolved* r) {
  r->num_tensors = m.num_tensors(0);
  if (edit.tensors.size() > static_cast<size_t>(INT32_MAX) - r->num_tensors) {
    return Status::Error(StatusCode::kInvalidArgument, "too many new tensors (%zu)",
                         edit.tensors.size());
  }
  for (size_t k = 0; k < edit.tensors.size(); ++k) {
    const NewTensor& t = edit.tensors[k];
    const size_t index = r->num_tensors + k;
    TensorType type = static_cast<TensorType>(t.type);
    int32_t like = -1;
    if (t.like >= 0) {
      if (static_cast<size_t>(t.like) >= r->num_tensors) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "new tensor %zu (tensor %zu): like = %" PRId32
                             " is not a tensor of the original subgraph 0 (0..%zu)",
                             k, index, t.like, r->num_tensors - 1);
      }
      TensorInfo info;
      TFLM_ARENA_RETURN_IF_ERROR(m.tensor(0, static_cast<size_t>(t.like), &info));
      type = info.type;
      like = t.like;
    } else if (t.type < 0 || t.type > INT8_MAX ||
               std::strcmp(TensorTypeName(type), "UNKNOWN") == 0) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "new tensor %zu (tensor %zu): type %" PRId32 " is not a TensorType", k,
                           index, t.type);
    }
    uint64_t count = 0;
    if (!ElementCount(t.shape, &count)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "new tensor %zu (tensor %zu): shape has a negative dimension or too "
                           "many elements",
                           k, index);
    }
    // Constants hold exactly their elements (INT4 constants are packed, so
    // their size is left to the model's own check).
    const uint64_t element = ElementByteSize(type);
    if (!t.data.empty() && element != 0 && type != TensorType::kInt4 &&
        (count > kMaxTensorBytes / element || t.data.size() != count * element)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "new tensor %zu (tensor %zu): %zu data bytes, its shape and type "
                           "need %" PRIu64,
                           k, index, t.data.size(), count * element);
    }
    r->tensor_type.push_back(static_cast<int8_t>(type));
    r->like.push_back(like);
  }
  return Status::Ok();
}

// Buffer indices of the new tensors: buffer 0 for activations when it is an
// empty buffer, else one appended empty buffer; one new buffer per constant.
Status ResolveBuffers(const Model& m, const GraphEdit& edit, Resolved* r) {
  const size_t nbuf = m.num_buffers();
  bool empty0 = false;
  if (nbuf > 0) {
    BufferInfo b0;
    TFLM_ARENA_RETURN_IF_ERROR(m.buffer(0, &b0));
    empty0 = b0.data.empty();
  }
  uint32_t activation = 0;
  bool any_activation = false;
  for (const NewTensor& t : edit.tensors) any_activation = any_activation || t.data.empty();
  any_activation = any_activation || !edit.emptied.empty();
  if (any_activation && !empty0) {
    r->append_empty_buffer = true;
    activation = static_cast<uint32_t>(nbuf);
  }
  r->activation_buffer = activation;
  size_t next = nbuf + (r->append_empty_buffer ? 1 : 0);
  if (next + edit.tensors.size() > UINT32_MAX) return Malformed("too many buffers");
  for (const NewTensor& t : edit.tensors) {
    if (t.data.empty()) {
      r->tensor_buffer.push_back(activation);
    } else {
      r->tensor_buffer.push_back(static_cast<uint32_t>(next++));
      r->constants.push_back(&t);
    }
  }
  return Status::Ok();
}

// Tensor indices, options and operator codes of the new operators.
Status ResolveOperators(const Model& m, const GraphEdit& edit, Resolved* r) {
  const size_t total = r->num_tensors + edit.tensors.size();
  std::vector<int32_t> codes;  // resolved builtin code of each existing entry (-1: custom)
  for (size_t i = 0; i < m.num_operator_codes(); ++i) {
    OperatorCodeInfo c;
    TFLM_ARENA_RETURN_IF_ERROR(m.operator_code(i, &c));
    codes.push_back(c.custom_code[0] == '\0' && c.builtin_code != kBuiltinCustom ? c.builtin_code
                                                                                 : -1);
  }
  for (size_t k = 0; k < edit.operators.size(); ++k) {
    const NewOperator& op = edit.operators[k];
    if (op.builtin_code < 0 || op.builtin_code == kBuiltinCustom) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "new operator %zu: builtin code %" PRId32
                           " is not a builtin operator (custom operators are not supported)",
                           k, op.builtin_code);
    }
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      const int32_t t = op.inputs[i];
      if (t < -1 || (t >= 0 && static_cast<size_t>(t) >= total)) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "new operator %zu: input %zu = %" PRId32
                             " is not a tensor index (0..%zu, or -1 for an omitted input)",
                             k, i, t, total - 1);
      }
    }
    for (size_t i = 0; i < op.outputs.size(); ++i) {
      const int32_t t = op.outputs[i];
      if (t < 0 || static_cast<size_t>(t) >= total) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "new operator %zu: output %zu = %" PRId32
                             " is not a tensor index (0..%zu)",
                             k, i, t, total - 1);
      }
    }
    if (op.options_type == 0 && !op.options.empty()) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "new operator %zu: option fields given without an options type", k);
    }
    uint64_t seen = 0;
    for (const OptionField& f : op.options) {
      if (f.id >= kOptionFieldIds) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "new operator %zu: option field id %u is not below %zu", k,
                             static_cast<unsigned>(f.id), kOptionFieldIds);
      }
      if (f.size != 1 && f.size != 2 && f.size != 4) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "new operator %zu: option field %u has size %u (1, 2 or 4)", k,
                             static_cast<unsigned>(f.id), static_cast<unsigned>(f.size));
      }
      if ((seen >> f.id) & 1u) {
        return Status::Error(StatusCode::kInvalidArgument,
                             "new operator %zu: option field %u given twice", k,
                             static_cast<unsigned>(f.id));
      }
      seen |= uint64_t{1} << f.id;
    }
    // The operator code: an existing entry of that builtin code, else one
    // appended (once, however many operators use it).
    size_t index = 0;
    while (index < codes.size() && codes[index] != op.builtin_code) ++index;
    if (index == codes.size()) {
      codes.push_back(op.builtin_code);
      r->new_codes.push_back(op.builtin_code);
    }
    r->op_opcode.push_back(static_cast<uint32_t>(index));
  }
  return Status::Ok();
}

// Original operators at most once, new operators exactly once.
Status CheckOrder(const GraphEdit& edit, size_t num_operators) {
  std::vector<bool> seen_old(num_operators, false), seen_new(edit.operators.size(), false);
  for (size_t k = 0; k < edit.order.size(); ++k) {
    const OperatorRef& ref = edit.order[k];
    const size_t limit = ref.is_new ? edit.operators.size() : num_operators;
    if (ref.index < 0 || static_cast<size_t>(ref.index) >= limit) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "order[%zu] = %s operator %" PRId32 ", which does not exist (%zu %s)", k,
                           ref.is_new ? "new" : "original", ref.index, limit,
                           ref.is_new ? "new operators" : "original operators");
    }
    std::vector<bool>& seen = ref.is_new ? seen_new : seen_old;
    if (seen[ref.index]) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "order[%zu]: %s operator %" PRId32 " appears twice in the order", k,
                           ref.is_new ? "new" : "original", ref.index);
    }
    seen[ref.index] = true;
  }
  for (size_t k = 0; k < seen_new.size(); ++k) {
    if (!seen_new[k]) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "new operator %zu does not appear in the order", k);
    }
  }
  return Status::Ok();
}

// A vector of int32 values; returns its position (the length word).
size_t PutIntVector(PrefixBuilder* p, const std::vector<int32_t>& v) {
  p->Align(4);
  const size_t at = p->Put<uint32_t>(static_cast<uint32_t>(v.size()));
  for (int32_t x : v) p->Put<int32_t>(x);
  return at;
}

size_t PutString(PrefixBuilder* p, const std::string& s) {
  p->Align(4);
  const size_t at = p->Put<uint32_t>(static_cast<uint32_t>(s.size()));
  for (char c : s) p->Put<char>(c);
  p->Put<uint8_t>(0);
  return at;
}

// A scalar field of `size` bytes (the low bytes of `value`) at `slot`.
void PutScalar(PrefixBuilder* p, size_t slot, uint8_t size, int32_t value) {
  if (size == 1) p->PutAt<int8_t>(slot, static_cast<int8_t>(value));
  if (size == 2) p->PutAt<int16_t>(slot, static_cast<int16_t>(value));
  if (size == 4) p->PutAt<int32_t>(slot, value);
}

// An options table holding only the given fields: a vtable up to the
// highest id, one 4-byte slot per field (the value in its low bytes).
size_t PutOptionsTable(PrefixBuilder* p, const std::vector<OptionField>& fields) {
  size_t nfields = 0;
  for (const OptionField& f : fields) nfields = std::max(nfields, f.id + size_t{1});
  p->Align(4);
  const size_t vt = p->Put<uint16_t>(static_cast<uint16_t>(4 + 2 * nfields));
  p->Put<uint16_t>(static_cast<uint16_t>(4 + 4 * fields.size()));
  std::vector<uint16_t> offset(nfields, 0);
  for (size_t i = 0; i < fields.size(); ++i)
    offset[fields[i].id] = static_cast<uint16_t>(4 + 4 * i);
  for (uint16_t o : offset) p->Put<uint16_t>(o);
  p->Align(4);
  const size_t table = p->Put<int32_t>(static_cast<int32_t>(p->pos() - vt));
  for (const OptionField& f : fields) PutScalar(p, p->Put<uint32_t>(0), f.size, f.value);
  return table;
}

// Emptied tensors: original, distinct, and neither a subgraph input or
// output nor touched by any operator of the new order.
Status CheckEmptied(const Model& m, const GraphEdit& edit) {
  if (edit.emptied.empty()) return Status::Ok();
  const size_t n = m.num_tensors(0);
  std::vector<bool> used(n, false);
  SubgraphInfo sg;
  TFLM_ARENA_RETURN_IF_ERROR(m.subgraph(0, &sg));
  auto mark = [&](Span<const int32_t> ts) {
    for (int32_t t : ts)
      if (t >= 0 && static_cast<size_t>(t) < n) used[static_cast<size_t>(t)] = true;
  };
  mark(sg.inputs);
  mark(sg.outputs);
  for (const OperatorRef& ref : edit.order) {
    if (ref.is_new) {
      const NewOperator& op = edit.operators[static_cast<size_t>(ref.index)];
      mark(Span<const int32_t>(op.inputs.data(), op.inputs.size()));
      mark(Span<const int32_t>(op.outputs.data(), op.outputs.size()));
    } else {
      OperatorInfo info;
      TFLM_ARENA_RETURN_IF_ERROR(m.op(0, static_cast<size_t>(ref.index), &info));
      mark(info.inputs);
      mark(info.outputs);
      mark(info.intermediates);
    }
  }
  std::vector<bool> seen(n, false);
  for (int32_t t : edit.emptied) {
    if (t < 0 || static_cast<size_t>(t) >= n) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "emptied tensor %d is not an original tensor (0..%zu)", t, n - 1);
    }
    if (used[static_cast<size_t>(t)] || seen[static_cast<size_t>(t)]) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "emptied tensor %d is still used (or listed twice)", t);
    }
    seen[static_cast<size_t>(t)] = true;
  }
  return Status::Ok();
}

// The prefix + original bytes (a verified model); see the header.
Status Rewrite(const uint8_t* model, size_t model_size, const GraphEdit& edit, const Resolved& res,
               std::vector<uint8_t>* out) {
  internal::RawReader r(model, model_size);
  Subgraph0Tables t;
  TFLM_ARENA_RETURN_IF_ERROR(OpenSubgraph0(&r, &t));
  const size_t root = t.root, subgraphs = t.subgraphs, sg0 = t.sg0;
  const uint32_t nsub = t.count;
  const size_t codes = r.FieldTarget(root, kModelOperatorCodes);
  const size_t buffers = r.FieldTarget(root, kModelBuffers);
  const size_t tensors = r.FieldTarget(sg0, kSubgraphTensors);
  const size_t ops = r.FieldTarget(sg0, kSubgraphOperators);
  const uint32_t ncodes = r.VectorLength(codes), nbuf = r.VectorLength(buffers);
  if (!r.ok()) return Malformed("offsets point outside the file");
  if (r.VectorLength(tensors) != res.num_tensors) return Malformed("tensor count changed");

  // Slots that point into the original bytes, linked once the shift is known.
  std::vector<std::pair<size_t, size_t>> to_original;

  PrefixBuilder p;
  const size_t root_slot = p.Put<uint32_t>(0);
  p.Put<uint32_t>(0x334C4654);  // "TFL3"
  const uint32_t model_present = PresentFields(&r, root, kModelFieldCount) | (1u << 0) |
                                 (1u << kModelOperatorCodes) | (1u << kModelSubgraphs) |
                                 (1u << kModelBuffers);
  size_t model_slots[kModelFieldCount];
  p.Link(root_slot, p.Table(kModelFieldCount, model_slots, model_present));
  const size_t version_field = r.Field(root, 0);
  p.PutAt<uint32_t>(model_slots[0], version_field ? r.Read<uint32_t>(version_field) : 0);
  for (size_t id = 1; id < kModelFieldCount; ++id) {
    if (id == kModelOperatorCodes || id == kModelSubgraphs || id == kModelBuffers) continue;
    const size_t target = r.FieldTarget(root, id);
    if (target != 0) to_original.emplace_back(model_slots[id], target);
  }

  // operator_codes: the original entries, then the new codes.
  const size_t code_slots = p.Vector(ncodes + res.new_codes.size());
  p.Link(model_slots[kModelOperatorCodes], code_slots - 4);
  for (uint32_t i = 0; i < ncodes; ++i)
    to_original.emplace_back(code_slots + size_t{4} * i, r.VectorTable(codes, i));
  for (size_t k = 0; k < res.new_codes.size(); ++k) {
    const int32_t code = res.new_codes[k];
    size_t slots[kOpcodeFieldCount];
    const uint32_t present =
        (1u << kOpcodeDeprecated) | (1u << kOpcodeVersion) | (1u << kOpcodeBuiltin);
    p.Link(code_slots + 4 * (ncodes + k), p.Table(kOpcodeFieldCount, slots, present));
    p.PutAt<int8_t>(
        slots[kOpcodeDeprecated],
        static_cast<int8_t>(code < kPlaceholderForGreaterOpCodes ? code
                                                                 : kPlaceholderForGreaterOpCodes));
    p.PutAt<int32_t>(slots[kOpcodeVersion], 1);
    p.PutAt<int32_t>(slots[kOpcodeBuiltin], code);
  }

  // subgraphs: a new subgraph 0, the others as they were.
  const size_t sub_slots = p.Vector(nsub);
  p.Link(model_slots[kModelSubgraphs], sub_slots - 4);
  for (uint32_t s = 1; s < nsub; ++s)
    to_original.emplace_back(sub_slots + size_t{4} * s, r.VectorTable(subgraphs, s));
  const uint32_t sg_present = PresentFields(&r, sg0, kSubgraphFieldCount) |
                              (1u << kSubgraphTensors) | (1u << kSubgraphOperators);
  size_t sg_slots[kSubgraphFieldCount];
  p.Link(sub_slots, p.Table(kSubgraphFieldCount, sg_slots, sg_present));
  const size_t debug_field = r.Field(sg0, kSubgraphDebugIndex);
  if (debug_field) p.PutAt<int32_t>(sg_slots[kSubgraphDebugIndex], r.Read<int32_t>(debug_field));
  for (size_t id = 0; id < kSubgraphDebugIndex; ++id) {
    if (id == kSubgraphTensors || id == kSubgraphOperators) continue;
    const size_t target = r.FieldTarget(sg0, id);
    if (target != 0) to_original.emplace_back(sg_slots[id], target);
  }

  // tensors: the original Tensor tables, then the new ones.
  const size_t tensor_slots = p.Vector(res.num_tensors + edit.tensors.size());
  p.Link(sg_slots[kSubgraphTensors], tensor_slots - 4);
  std::vector<bool> emptied(res.num_tensors, false);
  for (int32_t t : edit.emptied) emptied[static_cast<size_t>(t)] = true;
  for (size_t t = 0; t < res.num_tensors; ++t) {
    if (!emptied[t]) {
      to_original.emplace_back(tensor_slots + 4 * t, r.VectorTable(tensors, t));
      continue;
    }
    // Shape [0], the original type, no name or quantization: TFLM plans no
    // bytes for a tensor of 0 bytes.
    const size_t type_field = r.Field(r.VectorTable(tensors, t), kTensorType);
    size_t slots[kTensorFieldCount];
    p.Link(tensor_slots + 4 * t,
           p.Table(kTensorFieldCount, slots,
                   (1u << kTensorShape) | (1u << kTensorType) | (1u << kTensorBuffer)));
    p.PutAt<int8_t>(slots[kTensorType], type_field ? r.Read<int8_t>(type_field) : int8_t{0});
    p.PutAt<uint32_t>(slots[kTensorBuffer], res.activation_buffer);
    p.Link(slots[kTensorShape], PutIntVector(&p, std::vector<int32_t>{0}));
  }
  for (size_t k = 0; k < edit.tensors.size(); ++k) {
    const NewTensor& t = edit.tensors[k];
    size_t quantization = 0;
    if (res.like[k] >= 0) {
      quantization = r.FieldTarget(r.VectorTable(tensors, static_cast<size_t>(res.like[k])),
                                   kTensorQuantization);
    }
    uint32_t present =
        (1u << kTensorShape) | (1u << kTensorType) | (1u << kTensorBuffer) | (1u << kTensorName);
    if (quantization != 0) present |= 1u << kTensorQuantization;
    size_t slots[kTensorFieldCount];
    p.Link(tensor_slots + 4 * (res.num_tensors + k), p.Table(kTensorFieldCount, slots, present));
    p.PutAt<int8_t>(slots[kTensorType], res.tensor_type[k]);
    p.PutAt<uint32_t>(slots[kTensorBuffer], res.tensor_buffer[k]);
    if (quantization != 0) to_original.emplace_back(slots[kTensorQuantization], quantization);
    p.Link(slots[kTensorShape], PutIntVector(&p, t.shape));
    p.Link(slots[kTensorName], PutString(&p, t.name));
  }

  // operators: in the edit's order, original Operator tables linked.
  const size_t op_slots = p.Vector(edit.order.size());
  p.Link(sg_slots[kSubgraphOperators], op_slots - 4);
  for (size_t k = 0; k < edit.order.size(); ++k) {
    const OperatorRef& ref = edit.order[k];
    const size_t slot = op_slots + 4 * k;
    if (!ref.is_new) {
      to_original.emplace_back(slot, r.VectorTable(ops, static_cast<size_t>(ref.index)));
      continue;
    }
    const NewOperator& op = edit.operators[static_cast<size_t>(ref.index)];
    uint32_t present = (1u << kOperatorOpcode) | (1u << kOperatorInputs) | (1u << kOperatorOutputs);
    if (op.options_type != 0) present |= (1u << kOperatorOptionsType) | (1u << kOperatorOptions);
    size_t slots[kOperatorFieldCount];
    p.Link(slot, p.Table(kOperatorFieldCount, slots, present));
    p.PutAt<uint32_t>(slots[kOperatorOpcode], res.op_opcode[static_cast<size_t>(ref.index)]);
    p.PutAt<uint8_t>(slots[kOperatorOptionsType], op.options_type);
    p.Link(slots[kOperatorInputs], PutIntVector(&p, op.inputs));
    p.Link(slots[kOperatorOutputs], PutIntVector(&p, op.outputs));
    if (op.options_type != 0) p.Link(slots[kOperatorOptions], PutOptionsTable(&p, op.options));
  }

  // buffers: the original entries, an empty one if needed, the constants.
  const size_t nbuf_new = nbuf + (res.append_empty_buffer ? 1 : 0) + res.constants.size();
  const size_t buf_slots = p.Vector(nbuf_new);
  p.Link(model_slots[kModelBuffers], buf_slots - 4);
  for (uint32_t i = 0; i < nbuf; ++i)
    to_original.emplace_back(buf_slots + size_t{4} * i, r.VectorTable(buffers, i));
  size_t next = nbuf;
  if (res.append_empty_buffer) p.Link(buf_slots + 4 * next++, p.Table(0, nullptr));
  for (const NewTensor* t : res.constants) {
    size_t data_slot[1];
    p.Link(buf_slots + 4 * next++, p.Table(1, data_slot));
    while ((p.pos() + 4) % kPrefixAlignment != 0) p.Put<uint8_t>(0);  // data 16-aligned
    p.Link(data_slot[kBufferData], p.Put<uint32_t>(static_cast<uint32_t>(t->data.size())));
    for (uint8_t byte : t->data) p.Put<uint8_t>(byte);
  }
  p.Align(kPrefixAlignment);

  // Point the remaining slots into the original bytes, shifted by the prefix.
  const size_t shift = p.pos();
  if (!r.ok()) return Malformed("offsets point outside the file");
  if (model_size > UINT32_MAX - shift) return Malformed("model too large to rewrite");
  for (const auto& link : to_original) p.Link(link.first, shift + link.second);
  return AppendOriginal(&p, &r, model, model_size, out);
}

}  // namespace

Status WriteGraphEdit(const uint8_t* model, size_t model_size, const GraphEdit& edit,
                      std::vector<uint8_t>* out) {
  Model original;
  TFLM_ARENA_RETURN_IF_ERROR(Model::FromBuffer(model, model_size, &original));
  TFLM_ARENA_RETURN_IF_ERROR(CheckNoOfflinePlan(original));
  Resolved res;
  TFLM_ARENA_RETURN_IF_ERROR(ResolveTensors(original, edit, &res));
  TFLM_ARENA_RETURN_IF_ERROR(ResolveBuffers(original, edit, &res));
  TFLM_ARENA_RETURN_IF_ERROR(ResolveOperators(original, edit, &res));
  TFLM_ARENA_RETURN_IF_ERROR(CheckOrder(edit, original.num_operators(0)));
  TFLM_ARENA_RETURN_IF_ERROR(CheckEmptied(original, edit));
  std::vector<uint8_t> bytes;
  TFLM_ARENA_RETURN_IF_ERROR(Rewrite(model, model_size, edit, res, &bytes));
  Model edited;
  const Status s = Model::FromBuffer(bytes.data(), bytes.size(), &edited);
  if (!s.ok()) {
    return Status::Error(StatusCode::kInvalidArgument, "the edited model does not verify: %s",
                         s.message());
  }
  *out = std::move(bytes);
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
