// Model::FromBuffer (identifier + Verifier + semantic checks) and the
// zero-copy accessors. Accessors may assume a validated model: every index
// they follow was range-checked by model_validate.cc.
#include "tflm_arena/model/model.h"

#include <cctype>
#include <cinttypes>

#include "tflm_arena/model/schema_access.h"
#include "tflm_arena/model/table_reader.h"

namespace tflm_arena {
namespace model {

using internal::RefField;
using internal::SpanField;
using internal::StringField;
using internal::Table;
using internal::TableAt;
using internal::TableField;
using internal::I8Field;
using internal::U32Field;
using internal::U64Field;
using internal::VectorField;
namespace fb = internal::fb;

namespace {

constexpr char kIdentifier[] = "TFL3";

Table RootTable(const void* root) { return static_cast<Table>(root); }

size_t VectorLength(Table table, unsigned vt) {
  const uint8_t* data = nullptr;
  return VectorField(table, vt, &data);
}

Table SubgraphTable(const void* root, size_t subgraph) {
  return TableField(RootTable(root), fb::Model::VT_SUBGRAPHS, subgraph);
}

void ReadOperatorCode(Table code, OperatorCodeInfo* out) {
  out->deprecated_builtin_code = I8Field(code, fb::OperatorCode::VT_DEPRECATED_BUILTIN_CODE);
  out->raw_builtin_code =
      static_cast<int32_t>(U32Field(code, fb::OperatorCode::VT_BUILTIN_CODE, 0));
  out->builtin_code =
      internal::ResolveBuiltinCode(out->deprecated_builtin_code, out->raw_builtin_code);
  out->custom_code = StringField(code, fb::OperatorCode::VT_CUSTOM_CODE);
  out->version = static_cast<int32_t>(U32Field(code, fb::OperatorCode::VT_VERSION, 1));
}

// Product of the dims (validated: >= 0, no overflow); a zero extent first,
// so that partial products of [65536, 65536, 65536, 65536, 0] cannot wrap.
// Not internal::ElementCount: validation already ran its overflow test,
// whose 64-bit division would link __aeabi_uldivmod into every program.
uint64_t ElementCount(Span<const int32_t> shape) {
  for (int32_t d : shape) {
    if (d == 0) return 0;
  }
  uint64_t n = 1;
  for (int32_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

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
  const Table root = data + internal::Load<uint32_t>(data);
  const uint8_t* subgraphs = nullptr;
  const size_t n = VectorField(root, fb::Model::VT_SUBGRAPHS, &subgraphs);
  size_t total_tensors = 0;
  for (size_t s = 0; s < n; ++s) {
    total_tensors += VectorLength(TableAt(subgraphs, s), fb::SubGraph::VT_TENSORS);
  }
  out->root_ = root;
  out->data_ = data;
  out->size_ = size;
  out->total_tensors_ = total_tensors;
  return Status::Ok();
}

// Accessors: raw field reads (table_reader.h) on the verified model.

uint32_t Model::version() const {
  return root_ ? U32Field(RootTable(root_), fb::Model::VT_VERSION, 0) : 0;
}

const char* Model::description() const {
  return root_ ? StringField(RootTable(root_), fb::Model::VT_DESCRIPTION) : "";
}

size_t Model::num_subgraphs() const {
  return root_ ? VectorLength(RootTable(root_), fb::Model::VT_SUBGRAPHS) : 0;
}

size_t Model::num_operator_codes() const {
  return root_ ? VectorLength(RootTable(root_), fb::Model::VT_OPERATOR_CODES) : 0;
}

size_t Model::num_buffers() const {
  return root_ ? VectorLength(RootTable(root_), fb::Model::VT_BUFFERS) : 0;
}

size_t Model::num_metadata() const {
  return root_ ? VectorLength(RootTable(root_), fb::Model::VT_METADATA) : 0;
}

size_t Model::num_signatures() const {
  return root_ ? VectorLength(RootTable(root_), fb::Model::VT_SIGNATURE_DEFS) : 0;
}

size_t Model::num_tensors(size_t subgraph) const {
  if (subgraph >= num_subgraphs()) return 0;
  return VectorLength(SubgraphTable(root_, subgraph), fb::SubGraph::VT_TENSORS);
}

size_t Model::num_operators(size_t subgraph) const {
  if (subgraph >= num_subgraphs()) return 0;
  return VectorLength(SubgraphTable(root_, subgraph), fb::SubGraph::VT_OPERATORS);
}

Status Model::subgraph(size_t subgraph, SubgraphInfo* out) const {
  if (subgraph >= num_subgraphs()) {
    return OutOfRange("subgraph", subgraph, num_subgraphs());
  }
  size_t first = 0;
  for (size_t s = 0; s < subgraph; ++s) first += num_tensors(s);
  const Table g = SubgraphTable(root_, subgraph);
  out->name = StringField(g, fb::SubGraph::VT_NAME);
  out->num_tensors = VectorLength(g, fb::SubGraph::VT_TENSORS);
  out->num_operators = VectorLength(g, fb::SubGraph::VT_OPERATORS);
  out->first_tensor = first;
  out->inputs = SpanField<int32_t>(g, fb::SubGraph::VT_INPUTS);
  out->outputs = SpanField<int32_t>(g, fb::SubGraph::VT_OUTPUTS);
  return Status::Ok();
}

Status Model::tensor(size_t subgraph, size_t tensor, TensorInfo* out) const {
  if (subgraph >= num_subgraphs()) {
    return OutOfRange("subgraph", subgraph, num_subgraphs());
  }
  const uint8_t* tensors = nullptr;
  const size_t count =
      VectorField(SubgraphTable(root_, subgraph), fb::SubGraph::VT_TENSORS, &tensors);
  if (tensor >= count) {
    return Status::Error(StatusCode::kOutOfRange,
                         "tensor index %zu out of range (subgraph %zu has %zu)",
                         tensor, subgraph, count);
  }
  const Table t = TableAt(tensors, tensor);
  const uint32_t buffer = U32Field(t, fb::Tensor::VT_BUFFER, 0);
  const Table b = TableField(RootTable(root_), fb::Model::VT_BUFFERS, buffer);
  // Every field is assigned (no `*out = TensorInfo()`: that temporary costs
  // a memset and a copy in flash).
  out->name = StringField(t, fb::Tensor::VT_NAME);
  out->type = static_cast<TensorType>(I8Field(t, fb::Tensor::VT_TYPE));
  out->shape = SpanField<int32_t>(t, fb::Tensor::VT_SHAPE);
  out->shape_signature = SpanField<int32_t>(t, fb::Tensor::VT_SHAPE_SIGNATURE);
  out->num_elements = ElementCount(out->shape);
  out->buffer = buffer;
  out->is_variable = I8Field(t, fb::Tensor::VT_IS_VARIABLE) != 0;
  out->has_rank = I8Field(t, fb::Tensor::VT_HAS_RANK) != 0;
  out->constant_data = SpanField<uint8_t>(b, fb::Buffer::VT_DATA);
  out->has_constant_data = !out->constant_data.empty();
  out->uses_external_buffer = internal::IsExternalOffset(U64Field(b, fb::Buffer::VT_OFFSET)) &&
                              U64Field(b, fb::Buffer::VT_SIZE) > 0;
  const Table q = RefField(t, fb::Tensor::VT_QUANTIZATION);
  if (q != nullptr) {
    out->scale = SpanField<float>(q, fb::QuantizationParameters::VT_SCALE);
    out->zero_point = SpanField<int64_t>(q, fb::QuantizationParameters::VT_ZERO_POINT);
    out->quantized_dimension = static_cast<int32_t>(
        U32Field(q, fb::QuantizationParameters::VT_QUANTIZED_DIMENSION, 0));
  } else {
    out->scale = Span<const float>();
    out->zero_point = Span<const int64_t>();
    out->quantized_dimension = 0;
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
  const uint8_t* ops = nullptr;
  const size_t count =
      VectorField(SubgraphTable(root_, subgraph), fb::SubGraph::VT_OPERATORS, &ops);
  if (op >= count) {
    return Status::Error(StatusCode::kOutOfRange,
                         "operator index %zu out of range (subgraph %zu has "
                         "%zu)",
                         op, subgraph, count);
  }
  const Table o = TableAt(ops, op);
  const uint32_t opcode_index = U32Field(o, fb::Operator::VT_OPCODE_INDEX, 0);
  OperatorCodeInfo code;  // the index was validated
  ReadOperatorCode(TableField(RootTable(root_), fb::Model::VT_OPERATOR_CODES, opcode_index),
                   &code);
  out->opcode_index = opcode_index;
  out->builtin_code = code.builtin_code;
  out->custom_code = code.custom_code;
  out->version = code.version;
  out->inputs = SpanField<int32_t>(o, fb::Operator::VT_INPUTS);
  out->outputs = SpanField<int32_t>(o, fb::Operator::VT_OUTPUTS);
  out->intermediates = SpanField<int32_t>(o, fb::Operator::VT_INTERMEDIATES);
  out->custom_options = SpanField<uint8_t>(o, fb::Operator::VT_CUSTOM_OPTIONS);
  // Control flow (IF: then/else, WHILE: cond/body, CALL_ONCE: init): validation checked each carries its options table.
  CalledSubgraphs& called = out->called;
  called = CalledSubgraphs();
  const Table options = RefField(o, fb::Operator::VT_BUILTIN_OPTIONS);
  // IfOptions (then, else) and WhileOptions (cond, body) both hold two
  // int32 subgraph indices in fields 0 and 1; CallOnceOptions one (init).
  static_assert(int{fb::IfOptions::VT_THEN_SUBGRAPH_INDEX} ==
                        int{fb::WhileOptions::VT_COND_SUBGRAPH_INDEX} &&
                    int{fb::IfOptions::VT_ELSE_SUBGRAPH_INDEX} ==
                        int{fb::WhileOptions::VT_BODY_SUBGRAPH_INDEX} &&
                    int{fb::IfOptions::VT_THEN_SUBGRAPH_INDEX} ==
                        int{fb::CallOnceOptions::VT_INIT_SUBGRAPH_INDEX},
                "control-flow options share their field layout");
  if (out->builtin_code == kBuiltinIf || out->builtin_code == kBuiltinWhile) {
    called.index[0] = static_cast<int32_t>(
        U32Field(options, fb::IfOptions::VT_THEN_SUBGRAPH_INDEX, 0));
    called.index[1] = static_cast<int32_t>(
        U32Field(options, fb::IfOptions::VT_ELSE_SUBGRAPH_INDEX, 0));
    called.count = 2;
  } else if (out->builtin_code == kBuiltinCallOnce) {
    called.index[0] = static_cast<int32_t>(
        U32Field(options, fb::CallOnceOptions::VT_INIT_SUBGRAPH_INDEX, 0));
    called.count = 1;
  }
  return Status::Ok();
}

Status Model::operator_code(size_t index, OperatorCodeInfo* out) const {
  if (index >= num_operator_codes()) {
    return OutOfRange("operator code", index, num_operator_codes());
  }
  ReadOperatorCode(TableField(RootTable(root_), fb::Model::VT_OPERATOR_CODES, index), out);
  return Status::Ok();
}

Status Model::buffer(size_t index, BufferInfo* out) const {
  if (index >= num_buffers()) return OutOfRange("buffer", index, num_buffers());
  const Table b = TableField(RootTable(root_), fb::Model::VT_BUFFERS, index);
  out->offset = U64Field(b, fb::Buffer::VT_OFFSET);
  out->size = U64Field(b, fb::Buffer::VT_SIZE);
  out->external = internal::IsExternalOffset(out->offset);
  if (out->external) {
    // FromBuffer checked offset + size <= size_.
    out->data = Span<const uint8_t>(data_ + out->offset, static_cast<size_t>(out->size));
  } else {
    out->data = SpanField<uint8_t>(b, fb::Buffer::VT_DATA);
  }
  return Status::Ok();
}

Status Model::metadata(size_t index, MetadataInfo* out) const {
  if (index >= num_metadata()) {
    return OutOfRange("metadata", index, num_metadata());
  }
  const Table m = TableField(RootTable(root_), fb::Model::VT_METADATA, index);
  // Its length too: a name may hold a NUL (a string is a uint32 length,
  // then the bytes).
  const uint8_t* name = RefField(m, fb::Metadata::VT_NAME);
  out->name = name == nullptr ? "" : reinterpret_cast<const char*>(name + 4);
  out->name_length = name == nullptr ? 0 : internal::Load<uint32_t>(name);
  out->buffer = U32Field(m, fb::Metadata::VT_BUFFER, 0);
  return Status::Ok();
}

namespace {

// A string field's characters and length ("" and 0 when absent): a string
// is a uint32 length, then the bytes.
const char* StringWithLength(Table table, unsigned vt, size_t* length) {
  const uint8_t* s = RefField(table, vt);
  *length = s == nullptr ? 0 : internal::Load<uint32_t>(s);
  return s == nullptr ? "" : reinterpret_cast<const char*>(s + 4);
}

}  // namespace

Status Model::signature(size_t index, SignatureInfo* out) const {
  if (index >= num_signatures()) {
    return OutOfRange("signature", index, num_signatures());
  }
  const Table sig = TableField(RootTable(root_), fb::Model::VT_SIGNATURE_DEFS, index);
  out->key = StringWithLength(sig, fb::SignatureDef::VT_SIGNATURE_KEY, &out->key_length);
  out->subgraph = U32Field(sig, fb::SignatureDef::VT_SUBGRAPH_INDEX, 0);
  out->num_inputs = VectorLength(sig, fb::SignatureDef::VT_INPUTS);
  out->num_outputs = VectorLength(sig, fb::SignatureDef::VT_OUTPUTS);
  return Status::Ok();
}

Status Model::signature_tensor(size_t index, bool output, size_t i,
                               SignatureTensorInfo* out) const {
  if (index >= num_signatures()) {
    return OutOfRange("signature", index, num_signatures());
  }
  const Table sig = TableField(RootTable(root_), fb::Model::VT_SIGNATURE_DEFS, index);
  const unsigned vt = output ? fb::SignatureDef::VT_OUTPUTS : fb::SignatureDef::VT_INPUTS;
  const uint8_t* maps = nullptr;
  const size_t count = VectorField(sig, vt, &maps);
  if (i >= count) {
    return Status::Error(StatusCode::kOutOfRange,
                         "signature %zu %s index %zu out of range (it has %zu)",
                         index, output ? "output" : "input", i, count);
  }
  const Table map = TableAt(maps, i);
  out->name = StringWithLength(map, fb::TensorMap::VT_NAME, &out->name_length);
  out->tensor = U32Field(map, fb::TensorMap::VT_TENSOR_INDEX, 0);
  return Status::Ok();
}

}  // namespace model
}  // namespace tflm_arena
