// Semantic checks run by Model::FromBuffer after the flatbuffers Verifier.
// The Verifier only proves that every table, vector and string lies inside
// the bytes; these checks prove that every INDEX the format stores points
// at something that exists and every size can be computed, so no later
// layer needs a bounds check of its own. Messages name the exact place.
#include <cinttypes>

#include "tflm_arena/model/model.h"
#include "tflm_arena/model/schema_access.h"

namespace tflm_arena {
namespace model {
namespace internal {
namespace {

// Status::Error takes varargs directly; this wrapper only fixes the code.
#define TFLM_ARENA_INVALID(...) \
  ::tflm_arena::Status::Error(::tflm_arena::StatusCode::kInvalidArgument, __VA_ARGS__)

// Counts list entries visited; a crafted file can point many tables at one
// huge vector, which the Verifier checks once per reference in O(1).
class Budget {
 public:
  bool Charge(size_t n) {
    used_ += n;
    return used_ <= kMaxIndexVisits;
  }
  Status Exceeded() const {
    return TFLM_ARENA_INVALID("model is too complex to check: more than %" PRIu64
                              " index entries (vectors shared between tables?)",
                              kMaxIndexVisits);
  }

 private:
  uint64_t used_ = 0;
};

// Tensor index lists: `what` names the list for the message.
Status CheckIndexList(const flatbuffers::Vector<int32_t>* list, size_t sg, const char* owner,
                      size_t owner_index, const char* what, size_t num_tensors, bool allow_optional,
                      Budget* budget) {
  if (!budget->Charge(Size(list))) return budget->Exceeded();
  for (size_t k = 0; k < Size(list); ++k) {
    const int32_t t = list->Get(k);
    if (allow_optional && t == -1) continue;
    if (t < 0 || static_cast<size_t>(t) >= num_tensors) {
      if (owner == nullptr) {
        return TFLM_ARENA_INVALID("subgraph %zu %s %zu: tensor index %" PRId32
                                  " out of range (subgraph has %zu tensors)",
                                  sg, what, k, t, num_tensors);
      }
      return TFLM_ARENA_INVALID("subgraph %zu %s %zu %s %zu: tensor index %" PRId32
                                " out of range (subgraph has %zu tensors)",
                                sg, owner, owner_index, what, k, t, num_tensors);
    }
  }
  return Status::Ok();
}

// A constant's bytes must cover its shape: kernels read shape-many
// elements. (Alignment is not refused here: real converters write int64
// biases at odd offsets; the interpreter copies such constants to aligned
// memory instead of reading them misaligned.)
Status CheckConstantData(const fb::Model* model, const fb::Tensor* t, size_t sg, size_t ti,
                         uint64_t elements, size_t elem) {
  const fb::Buffer* buf = model->buffers()->Get(t->buffer());
  const size_t inline_bytes = Size(buf->data());
  const bool external = IsExternal(buf) && buf->size() > 0;
  if (inline_bytes == 0 && !external) return Status::Ok();  // not a constant
  if (elem == 0) return Status::Ok();                       // string / variant: no fixed size
  const uint64_t have = external ? buf->size() : inline_bytes;
  const uint64_t need = elements * elem;  // checked not to overflow
  // INT4 is stored packed, two elements a byte (the arena unpacks it).
  const uint64_t need_packed =
      static_cast<TensorType>(t->type()) == TensorType::kInt4 ? (elements + 1) / 2 : need;
  if (have < need_packed) {
    return TFLM_ARENA_INVALID("subgraph %zu tensor %zu ('%.64s'): constant buffer %" PRIu32
                              " holds %" PRIu64 " bytes but the tensor's shape needs %" PRIu64,
                              sg, ti, CStr(t->name()), t->buffer(), have, need_packed);
  }
  return Status::Ok();
}

// Scales and zero points describe the same channels: equal lengths (or no
// zero points), and per-channel parameters along a dimension of the shape
// match its extent.
Status CheckQuantization(const fb::Tensor* t, size_t sg, size_t ti) {
  const auto* q = t->quantization();
  if (q == nullptr) return Status::Ok();
  const size_t scales = Size(q->scale());
  const size_t zero_points = Size(q->zero_point());
  if (zero_points != 0 && scales != 0 && zero_points != scales) {
    return TFLM_ARENA_INVALID(
        "subgraph %zu tensor %zu ('%.64s'): %zu quantization scales but %zu "
        "zero points",
        sg, ti, CStr(t->name()), scales, zero_points);
  }
  const size_t channels = scales > zero_points ? scales : zero_points;
  if (channels <= 1) return Status::Ok();
  // TFLM's compression tool re-types each weight it encodes as a 1-D UINT8
  // tensor and leaves the weight's per-channel parameters on it; TFLM reads
  // them unchecked, and no TFLM kernel quantizes UINT8 per channel.
  if (static_cast<TensorType>(t->type()) == TensorType::kUint8) return Status::Ok();
  // Real converters write biases with the FILTER's quantized_dimension
  // (3 on a rank-1 bias), and TFLM ignores it there; so only a dimension
  // inside the shape is held to its extent. Kernels check what they read.
  const int32_t dim = q->quantized_dimension();
  const size_t rank = Size(t->shape());
  if (dim < 0 || static_cast<size_t>(dim) >= rank) return Status::Ok();
  const int32_t extent = t->shape()->Get(static_cast<size_t>(dim));
  if (static_cast<size_t>(extent) != channels) {
    return TFLM_ARENA_INVALID(
        "subgraph %zu tensor %zu ('%.64s'): %zu per-channel quantization "
        "parameters but dimension %" PRId32 " has %" PRId32 " channels",
        sg, ti, CStr(t->name()), channels, dim, extent);
  }
  return Status::Ok();
}

Status CheckTensor(const fb::Model* model, const fb::Tensor* t, size_t sg, size_t ti,
                   size_t num_buffers, Budget* budget) {
  if (t->buffer() >= num_buffers) {
    return TFLM_ARENA_INVALID("subgraph %zu tensor %zu: buffer index %" PRIu32
                              " out of range (model has %zu buffers)",
                              sg, ti, t->buffer(), num_buffers);
  }
  const auto* shape = t->shape();
  const auto* signature = t->shape_signature();
  if (Size(shape) > kMaxRank || Size(signature) > kMaxRank) {
    return TFLM_ARENA_INVALID("subgraph %zu tensor %zu: rank %zu exceeds the limit of %zu", sg, ti,
                              Size(shape) > Size(signature) ? Size(shape) : Size(signature),
                              kMaxRank);
  }
  if (!budget->Charge(Size(shape) + Size(signature))) return budget->Exceeded();
  for (size_t d = 0; d < Size(shape); ++d) {
    if (shape->Get(d) < 0) {
      return TFLM_ARENA_INVALID("subgraph %zu tensor %zu: negative dimension %" PRId32
                                " at shape[%zu]",
                                sg, ti, shape->Get(d), d);
    }
  }
  for (size_t d = 0; d < Size(signature); ++d) {
    if (signature->Get(d) < -1) {
      return TFLM_ARENA_INVALID("subgraph %zu tensor %zu: invalid dimension %" PRId32
                                " at shape_signature[%zu] (only -1 may be negative)",
                                sg, ti, signature->Get(d), d);
    }
  }
  uint64_t elements = 0;
  const size_t elem = ElementByteSize(static_cast<TensorType>(t->type()));
  if (!ElementCount(shape, &elements) || elements > kMaxTensorBytes / (elem == 0 ? 1 : elem)) {
    return TFLM_ARENA_INVALID("subgraph %zu tensor %zu: byte size overflows (more than %" PRIu64
                              " bytes)",
                              sg, ti, kMaxTensorBytes);
  }
  const auto* q = t->quantization();
  const auto* zero_point = q == nullptr ? nullptr : q->zero_point();
  if (Size(zero_point) > 0 && reinterpret_cast<uintptr_t>(zero_point->data()) % 8 != 0) {
    return TFLM_ARENA_INVALID("subgraph %zu tensor %zu: zero_point vector is not 8-byte aligned",
                              sg, ti);
  }
  if (q != nullptr && !budget->Charge(Size(q->scale()) + Size(zero_point))) {
    return budget->Exceeded();
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(t, sg, ti));
  return CheckConstantData(model, t, sg, ti, elements, elem);
}

// The options table each builtin operator we decode must carry (the
// schema's BuiltinOptions union member for that operator). A table of
// another type would be read as the wrong struct, so it is rejected, as is
// any of these types on an operator it does not belong to.
struct OptionsOwner {
  BuiltinCode code;
  fb::BuiltinOptions type;
};
constexpr OptionsOwner kOptionsOwners[] = {
    {kBuiltinAdd, fb::BuiltinOptions::AddOptions},
    {kBuiltinAveragePool2D, fb::BuiltinOptions::Pool2DOptions},
    {kBuiltinConv2D, fb::BuiltinOptions::Conv2DOptions},
    {kBuiltinDepthwiseConv2D, fb::BuiltinOptions::DepthwiseConv2DOptions},
    {kBuiltinFullyConnected, fb::BuiltinOptions::FullyConnectedOptions},
    {kBuiltinL2Pool2D, fb::BuiltinOptions::Pool2DOptions},
    {kBuiltinMaxPool2D, fb::BuiltinOptions::Pool2DOptions},
    {kBuiltinReshape, fb::BuiltinOptions::ReshapeOptions},
    {kBuiltinSoftmax, fb::BuiltinOptions::SoftmaxOptions},
    {kBuiltinIf, fb::BuiltinOptions::IfOptions},
    {kBuiltinWhile, fb::BuiltinOptions::WhileOptions},
    {kBuiltinCallOnce, fb::BuiltinOptions::CallOnceOptions},
};

const char* OptionsTypeName(fb::BuiltinOptions type) {
  const char* name = fb::EnumNameBuiltinOptions(type);
  return name != nullptr && *name != '\0' ? name : "an options type";
}

Status CheckOptionsType(const fb::Operator* op, BuiltinCode code, size_t sg, size_t oi) {
  const fb::BuiltinOptions type = op->builtin_options_type();
  if (type == fb::BuiltinOptions::NONE) return Status::Ok();
  bool type_known = false;
  for (const OptionsOwner& owner : kOptionsOwners) {
    if (owner.code == code) {
      if (owner.type == type) return Status::Ok();
      return TFLM_ARENA_INVALID(
          "subgraph %zu operator %zu: %s carries builtin options of type %d "
          "(%s); it takes %s",
          sg, oi, BuiltinCodeName(code) ? BuiltinCodeName(code) : "?", static_cast<int>(type),
          OptionsTypeName(type), OptionsTypeName(owner.type));
    }
    type_known |= owner.type == type;
  }
  if (type_known) {
    const char* name = BuiltinCodeName(code);
    return TFLM_ARENA_INVALID(
        "subgraph %zu operator %zu: %s carries %s, which belongs to another "
        "operator",
        sg, oi, name != nullptr ? name : "this operator", OptionsTypeName(type));
  }
  return Status::Ok();
}

Status CheckControlFlow(const fb::Operator* op, BuiltinCode code, size_t sg, size_t oi,
                        size_t num_subgraphs) {
  int32_t first = -1;
  int32_t second = -1;
  bool has_options = false;
  if (code == kBuiltinIf) {
    const auto* o = op->builtin_options_as_IfOptions();
    has_options = o != nullptr;
    if (o) first = o->then_subgraph_index(), second = o->else_subgraph_index();
  } else if (code == kBuiltinWhile) {
    const auto* o = op->builtin_options_as_WhileOptions();
    has_options = o != nullptr;
    if (o) first = o->cond_subgraph_index(), second = o->body_subgraph_index();
  } else if (code == kBuiltinCallOnce) {
    const auto* o = op->builtin_options_as_CallOnceOptions();
    has_options = o != nullptr;
    if (o) first = o->init_subgraph_index();
  } else {
    return Status::Ok();
  }
  const char* name = BuiltinCodeName(code);
  if (!has_options) {
    return TFLM_ARENA_INVALID("subgraph %zu operator %zu: %s without its builtin options table", sg,
                              oi, name);
  }
  const int32_t called[2] = {first, second};
  const size_t count = code == kBuiltinCallOnce ? 1 : 2;
  for (size_t k = 0; k < count; ++k) {
    if (called[k] < 0 || static_cast<size_t>(called[k]) >= num_subgraphs) {
      return TFLM_ARENA_INVALID("subgraph %zu operator %zu: %s subgraph index %" PRId32
                                " out of range (model has %zu subgraphs)",
                                sg, oi, name, called[k], num_subgraphs);
    }
  }
  return Status::Ok();
}

Status CheckBuffers(const fb::Model* model, size_t size) {
  const auto* buffers = model->buffers();
  for (size_t b = 0; b < Size(buffers); ++b) {
    const fb::Buffer* buf = buffers->Get(b);
    if (!IsExternal(buf)) continue;
    if (Size(buf->data()) > 0) {
      return TFLM_ARENA_INVALID("buffer %zu has both inline data and an external offset %" PRIu64,
                                b, buf->offset());
    }
    const uint64_t off = buf->offset();
    const uint64_t len = buf->size();
    if (off > size || len > size - off) {
      return TFLM_ARENA_INVALID("buffer %zu: external data [offset %" PRIu64 ", size %" PRIu64
                                "] lies outside the %zu-byte model (not loaded with the model?)",
                                b, off, len, size);
    }
  }
  return Status::Ok();
}

Status CheckMetadata(const fb::Model* model, size_t num_buffers) {
  const auto* metadata = model->metadata();
  for (size_t i = 0; i < Size(metadata); ++i) {
    const fb::Metadata* m = metadata->Get(i);
    if (m->buffer() >= num_buffers) {
      return TFLM_ARENA_INVALID("metadata %zu ('%.64s'): buffer index %" PRIu32
                                " out of range (model has %zu buffers)",
                                i, CStr(m->name()), m->buffer(), num_buffers);
    }
  }
  const auto* legacy = model->metadata_buffer();
  for (size_t i = 0; i < Size(legacy); ++i) {
    const int32_t b = legacy->Get(i);
    if (b < 0 || static_cast<size_t>(b) >= num_buffers) {
      return TFLM_ARENA_INVALID("metadata_buffer %zu: buffer index %" PRId32
                                " out of range (model has %zu buffers)",
                                i, b, num_buffers);
    }
  }
  return Status::Ok();
}

// SignatureDefs: the subgraph each names, and the tensors of that subgraph
// its inputs and outputs name, exist.
Status CheckSignatures(const fb::Model* model, Budget* budget) {
  const auto* sigs = model->signature_defs();
  const size_t num_subgraphs = Size(model->subgraphs());
  if (!budget->Charge(Size(sigs))) return budget->Exceeded();
  for (size_t i = 0; i < Size(sigs); ++i) {
    const fb::SignatureDef* sig = sigs->Get(i);
    const uint32_t sg = sig->subgraph_index();
    if (sg >= num_subgraphs) {
      return TFLM_ARENA_INVALID("signature %zu ('%.64s'): subgraph index %" PRIu32
                                " out of range (model has %zu subgraphs)",
                                i, CStr(sig->signature_key()), sg, num_subgraphs);
    }
    const size_t num_tensors = Size(model->subgraphs()->Get(sg)->tensors());
    for (int output = 0; output < 2; ++output) {
      const auto* maps = output ? sig->outputs() : sig->inputs();
      if (!budget->Charge(Size(maps))) return budget->Exceeded();
      for (size_t k = 0; k < Size(maps); ++k) {
        const uint32_t t = maps->Get(k)->tensor_index();
        if (t >= num_tensors) {
          return TFLM_ARENA_INVALID(
              "signature %zu ('%.64s') %s %zu ('%.64s'): tensor index %" PRIu32
              " out of range (subgraph %" PRIu32 " has %zu tensors)",
              i, CStr(sig->signature_key()), output ? "output" : "input", k,
              CStr(maps->Get(k)->name()), t, sg, num_tensors);
        }
      }
    }
  }
  return Status::Ok();
}

Status CheckSubgraph(const fb::Model* model, const fb::SubGraph* g, size_t sg, Budget* budget) {
  const size_t num_tensors = Size(g->tensors());
  const size_t num_buffers = Size(model->buffers());
  const size_t num_codes = Size(model->operator_codes());
  if (!budget->Charge(num_tensors)) return budget->Exceeded();
  for (size_t t = 0; t < num_tensors; ++t) {
    TFLM_ARENA_RETURN_IF_ERROR(
        CheckTensor(model, g->tensors()->Get(t), sg, t, num_buffers, budget));
  }
  TFLM_ARENA_RETURN_IF_ERROR(
      CheckIndexList(g->inputs(), sg, nullptr, 0, "input", num_tensors, false, budget));
  TFLM_ARENA_RETURN_IF_ERROR(
      CheckIndexList(g->outputs(), sg, nullptr, 0, "output", num_tensors, false, budget));
  const auto* ops = g->operators();
  if (!budget->Charge(Size(ops))) return budget->Exceeded();
  for (size_t o = 0; o < Size(ops); ++o) {
    const fb::Operator* op = ops->Get(o);
    if (op->opcode_index() >= num_codes) {
      return TFLM_ARENA_INVALID("subgraph %zu operator %zu: opcode index %" PRIu32
                                " out of range (model has %zu operator codes)",
                                sg, o, op->opcode_index(), num_codes);
    }
    TFLM_ARENA_RETURN_IF_ERROR(
        CheckIndexList(op->inputs(), sg, "operator", o, "input", num_tensors, true, budget));
    TFLM_ARENA_RETURN_IF_ERROR(
        CheckIndexList(op->outputs(), sg, "operator", o, "output", num_tensors, false, budget));
    TFLM_ARENA_RETURN_IF_ERROR(CheckIndexList(op->intermediates(), sg, "operator", o,
                                              "intermediate", num_tensors, false, budget));
    const BuiltinCode code = ResolveBuiltinCode(model->operator_codes()->Get(op->opcode_index()));
    TFLM_ARENA_RETURN_IF_ERROR(CheckOptionsType(op, code, sg, o));
    TFLM_ARENA_RETURN_IF_ERROR(CheckControlFlow(op, code, sg, o, Size(model->subgraphs())));
  }
  return Status::Ok();
}

}  // namespace

Status ValidateModel(const fb::Model* model, size_t size, size_t* total_tensors) {
  if (model->version() != kSchemaVersion) {
    return TFLM_ARENA_INVALID("model schema version %" PRIu32 " is not supported (expected %" PRIu32
                              ")",
                              model->version(), kSchemaVersion);
  }
  const auto* subgraphs = model->subgraphs();
  if (Size(subgraphs) == 0) return TFLM_ARENA_INVALID("model has no subgraphs");
  if (Size(subgraphs) > static_cast<size_t>(INT32_MAX)) {
    return TFLM_ARENA_INVALID("model has too many subgraphs");
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckBuffers(model, size));
  TFLM_ARENA_RETURN_IF_ERROR(CheckMetadata(model, Size(model->buffers())));
  Budget budget;
  size_t total = 0;
  for (size_t s = 0; s < Size(subgraphs); ++s) {
    if (!budget.Charge(1)) return budget.Exceeded();
    const fb::SubGraph* g = subgraphs->Get(s);
    TFLM_ARENA_RETURN_IF_ERROR(CheckSubgraph(model, g, s, &budget));
    total += Size(g->tensors());  // charged to the budget: cannot wrap
  }
  if (total > static_cast<size_t>(INT32_MAX)) {
    return TFLM_ARENA_INVALID("model has too many tensors (%zu)", total);
  }
  TFLM_ARENA_RETURN_IF_ERROR(CheckSignatures(model, &budget));
  *total_tensors = total;
  return Status::Ok();
}

}  // namespace internal
}  // namespace model
}  // namespace tflm_arena
