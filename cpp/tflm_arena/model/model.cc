// Model::FromBuffer (identifier + Verifier + semantic checks) and the
// zero-copy accessors. Accessors may assume a validated model: every index
// they follow was range-checked by model_validate.cc.
#include "tflm_arena/model/model.h"

#include <cctype>
#include <cinttypes>

#include "tflm_arena/model/schema_access.h"

namespace tflm_arena {
namespace model {

using internal::CStr;
using internal::Root;
using internal::Size;
using internal::ToSpan;
namespace fb = internal::fb;

namespace {

constexpr char kIdentifier[] = "TFL3";

Status OutOfRange(const char* what, size_t index, size_t count) {
  return Status::Error(StatusCode::kOutOfRange,
                       "%s index %zu out of range (model has %zu)", what, index,
                       count);
}

#if TFLM_ARENA_ERROR_STRINGS
// Renders the four identifier bytes for the message (non-printable as '?').
void IdentifierText(const uint8_t* data, char out[5]) {
  for (int i = 0; i < 4; ++i) {
    const int c = data[4 + i];
    out[i] = std::isprint(c) ? static_cast<char>(c) : '?';
  }
  out[4] = '\0';
}
#endif

// Checks 1 of model.h: length, pointer, alignment, identifier.
Status CheckHeader(const uint8_t* data, size_t size) {
  if (size < 8) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "model is %zu bytes, too short for a flatbuffer "
                         "header (8 bytes)",
                         size);
  }
  if (data == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "model data is null");
  }
  if (reinterpret_cast<uintptr_t>(data) % kModelDataAlignment != 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "model data is not %zu-byte aligned (copy it into an "
                         "aligned buffer)",
                         kModelDataAlignment);
  }
  // Bytes 4..7 (flatbuffers' BufferHasIdentifier), by hand: its strncmp
  // is 130 bytes of flash on Cortex-M.
  bool identified = true;
  for (int i = 0; i < 4; ++i) identified &= data[4 + i] == kIdentifier[i];
  if (!identified) {
#if TFLM_ARENA_ERROR_STRINGS
    char id[5];
    IdentifierText(data, id);
#else
    const char* id = "";
#endif
    return Status::Error(StatusCode::kInvalidArgument,
                         "not a TFLite model: file identifier is '%s', "
                         "expected 'TFL3'",
                         id);
  }
  return Status::Ok();
}

}  // namespace

Status Model::FromBuffer(const uint8_t* data, size_t size, Model* out) {
  *out = Model();
  TFLM_ARENA_RETURN_IF_ERROR(CheckHeader(data, size));
  // The flatbuffer proper is at most 2 GiB; bytes past that can only be
  // reached through external buffer offsets, checked separately.
  const size_t max_flatbuffer = FLATBUFFERS_MAX_BUFFER_SIZE - 1;
  const size_t verify_size = size < max_flatbuffer ? size : max_flatbuffer;
  flatbuffers::Verifier::Options options;
  options.max_depth = kVerifierMaxDepth;
  options.max_tables = kVerifierMaxTables;
  options.check_alignment = true;
  options.check_nested_flatbuffers = false;
  flatbuffers::Verifier verifier(data, verify_size, options);
  if (!verifier.VerifyBuffer<fb::Model>(kIdentifier)) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "flatbuffer verification failed: the %zu-byte model "
                         "is truncated or corrupt (or nests deeper than "
                         "%" PRIu32 " tables / holds more than %" PRIu32
                         " tables)",
                         size, kVerifierMaxDepth, kVerifierMaxTables);
  }
  const fb::Model* root = fb::GetModel(data);
  size_t total_tensors = 0;
  TFLM_ARENA_RETURN_IF_ERROR(
      internal::ValidateModel(root, size, &total_tensors));
  out->root_ = root;
  out->data_ = data;
  out->size_ = size;
  out->total_tensors_ = total_tensors;
  return Status::Ok();
}

Status Model::FromTrustedBuffer(const uint8_t* data, size_t size, Model* out) {
  *out = Model();
  TFLM_ARENA_RETURN_IF_ERROR(CheckHeader(data, size));
  const fb::Model* root = fb::GetModel(data);
  size_t total_tensors = 0;
  for (size_t s = 0; s < Size(root->subgraphs()); ++s) {
    total_tensors += Size(root->subgraphs()->Get(s)->tensors());
  }
  out->root_ = root;
  out->data_ = data;
  out->size_ = size;
  out->total_tensors_ = total_tensors;
  return Status::Ok();
}

uint32_t Model::version() const { return root_ ? Root(root_)->version() : 0; }

const char* Model::description() const {
  return root_ ? CStr(Root(root_)->description()) : "";
}

size_t Model::num_subgraphs() const {
  return root_ ? Size(Root(root_)->subgraphs()) : 0;
}

size_t Model::num_operator_codes() const {
  return root_ ? Size(Root(root_)->operator_codes()) : 0;
}

size_t Model::num_buffers() const {
  return root_ ? Size(Root(root_)->buffers()) : 0;
}

size_t Model::num_metadata() const {
  return root_ ? Size(Root(root_)->metadata()) : 0;
}

size_t Model::num_tensors(size_t subgraph) const {
  if (subgraph >= num_subgraphs()) return 0;
  return Size(Root(root_)->subgraphs()->Get(subgraph)->tensors());
}

size_t Model::num_operators(size_t subgraph) const {
  if (subgraph >= num_subgraphs()) return 0;
  return Size(Root(root_)->subgraphs()->Get(subgraph)->operators());
}

Status Model::subgraph(size_t subgraph, SubgraphInfo* out) const {
  if (subgraph >= num_subgraphs()) {
    return OutOfRange("subgraph", subgraph, num_subgraphs());
  }
  const auto* subgraphs = Root(root_)->subgraphs();
  size_t first = 0;
  for (size_t s = 0; s < subgraph; ++s) {
    first += Size(subgraphs->Get(s)->tensors());
  }
  const fb::SubGraph* g = subgraphs->Get(subgraph);
  *out = SubgraphInfo();
  out->name = CStr(g->name());
  out->num_tensors = Size(g->tensors());
  out->num_operators = Size(g->operators());
  out->first_tensor = first;
  out->inputs = ToSpan(g->inputs());
  out->outputs = ToSpan(g->outputs());
  return Status::Ok();
}

Status Model::tensor(size_t subgraph, size_t tensor, TensorInfo* out) const {
  if (subgraph >= num_subgraphs()) {
    return OutOfRange("subgraph", subgraph, num_subgraphs());
  }
  const fb::SubGraph* g = Root(root_)->subgraphs()->Get(subgraph);
  if (tensor >= Size(g->tensors())) {
    return Status::Error(StatusCode::kOutOfRange,
                         "tensor index %zu out of range (subgraph %zu has %zu)",
                         tensor, subgraph, Size(g->tensors()));
  }
  const fb::Tensor* t = g->tensors()->Get(tensor);
  const fb::Buffer* b = Root(root_)->buffers()->Get(t->buffer());
  *out = TensorInfo();
  out->name = CStr(t->name());
  out->type = static_cast<TensorType>(t->type());
  out->shape = ToSpan(t->shape());
  out->shape_signature = ToSpan(t->shape_signature());
  internal::ElementCount(t->shape(), &out->num_elements);  // validated
  out->buffer = t->buffer();
  out->is_variable = t->is_variable();
  out->has_rank = t->has_rank();
  out->has_constant_data = Size(b->data()) > 0;
  out->uses_external_buffer = internal::IsExternal(b) && b->size() > 0;
  if (const fb::QuantizationParameters* q = t->quantization()) {
    out->scale = ToSpan(q->scale());
    out->zero_point = ToSpan(q->zero_point());
    out->quantized_dimension = q->quantized_dimension();
  }
  return Status::Ok();
}

Status Model::tensor_bytes(size_t subgraph, size_t tensor,
                           size_t* bytes) const {
  TensorInfo info;
  TFLM_ARENA_RETURN_IF_ERROR(this->tensor(subgraph, tensor, &info));
  const size_t elem = ElementByteSize(info.type);
  if (elem == 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "subgraph %zu tensor %zu: type %s (%d) has no element "
                         "size, so its arena bytes are unknown",
                         subgraph, tensor, TensorTypeName(info.type),
                         static_cast<int>(info.type));
  }
  // FromBuffer checked num_elements * elem <= kMaxTensorBytes.
  *bytes = static_cast<size_t>(info.num_elements * elem);
  return Status::Ok();
}

Status Model::op(size_t subgraph, size_t op, OperatorInfo* out) const {
  if (subgraph >= num_subgraphs()) {
    return OutOfRange("subgraph", subgraph, num_subgraphs());
  }
  const fb::SubGraph* g = Root(root_)->subgraphs()->Get(subgraph);
  if (op >= Size(g->operators())) {
    return Status::Error(StatusCode::kOutOfRange,
                         "operator index %zu out of range (subgraph %zu has "
                         "%zu)",
                         op, subgraph, Size(g->operators()));
  }
  const fb::Operator* o = g->operators()->Get(op);
  const fb::OperatorCode* code =
      Root(root_)->operator_codes()->Get(o->opcode_index());
  *out = OperatorInfo();
  out->opcode_index = o->opcode_index();
  out->builtin_code = internal::ResolveBuiltinCode(code);
  out->custom_code = CStr(code->custom_code());
  out->version = code->version();
  out->inputs = ToSpan(o->inputs());
  out->outputs = ToSpan(o->outputs());
  out->intermediates = ToSpan(o->intermediates());
  out->custom_options = ToSpan(o->custom_options());
  CalledSubgraphs& called = out->called;
  if (out->builtin_code == kBuiltinIf) {
    const fb::IfOptions* opts = o->builtin_options_as_IfOptions();
    called.index[0] = opts->then_subgraph_index();
    called.index[1] = opts->else_subgraph_index();
    called.count = 2;
  } else if (out->builtin_code == kBuiltinWhile) {
    const fb::WhileOptions* opts = o->builtin_options_as_WhileOptions();
    called.index[0] = opts->cond_subgraph_index();
    called.index[1] = opts->body_subgraph_index();
    called.count = 2;
  } else if (out->builtin_code == kBuiltinCallOnce) {
    called.index[0] =
        o->builtin_options_as_CallOnceOptions()->init_subgraph_index();
    called.count = 1;
  }
  return Status::Ok();
}

Status Model::operator_code(size_t index, OperatorCodeInfo* out) const {
  if (index >= num_operator_codes()) {
    return OutOfRange("operator code", index, num_operator_codes());
  }
  const fb::OperatorCode* code = Root(root_)->operator_codes()->Get(index);
  *out = OperatorCodeInfo();
  out->builtin_code = internal::ResolveBuiltinCode(code);
  out->deprecated_builtin_code = code->deprecated_builtin_code();
  out->raw_builtin_code = code->builtin_code();
  out->custom_code = CStr(code->custom_code());
  out->version = code->version();
  return Status::Ok();
}

Status Model::buffer(size_t index, BufferInfo* out) const {
  if (index >= num_buffers()) return OutOfRange("buffer", index, num_buffers());
  const fb::Buffer* b = Root(root_)->buffers()->Get(index);
  *out = BufferInfo();
  out->offset = b->offset();
  out->size = b->size();
  out->external = internal::IsExternal(b);
  if (out->external) {
    // FromBuffer checked offset + size <= size_.
    out->data = Span<const uint8_t>(data_ + b->offset(),
                                    static_cast<size_t>(b->size()));
  } else {
    out->data = ToSpan(b->data());
  }
  return Status::Ok();
}

Status Model::metadata(size_t index, MetadataInfo* out) const {
  if (index >= num_metadata()) {
    return OutOfRange("metadata", index, num_metadata());
  }
  const fb::Metadata* m = Root(root_)->metadata()->Get(index);
  *out = MetadataInfo();
  out->name = CStr(m->name());
  out->name_length = m->name() == nullptr ? 0 : m->name()->size();
  out->buffer = m->buffer();
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
