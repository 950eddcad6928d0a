// model::Model: a verified, zero-copy view of a .tflite model.
//
// Why: everything downstream (lifetimes, planners, the interpreter) indexes
// tensors, buffers and subgraphs straight from the file. FromBuffer checks
// ONCE that every such index is in range and every size is computable, so
// later code can trust the model and never reads outside the bytes.
//
// Checks, in order (each failure is kInvalidArgument naming the culprit):
//  1. the pointer is 8-byte aligned (all data we hand out as spans, up to
//     int64 zero points, is then naturally aligned), and the file carries the
//     "TFL3" identifier;
//  2. the flatbuffers Verifier over our schema subset (tflite_subset.fbs),
//     with a table depth limit of kVerifierMaxDepth and at most
//     kVerifierMaxTables tables;
//  3. semantic checks (model_validate.cc): schema version 3, at least one
//     subgraph, every tensor index (subgraph inputs/outputs, operator
//     inputs/outputs/intermediates; only operator inputs may be -1 =
//     omitted optional input), opcode index, tensor buffer index, metadata
//     buffer index and control-flow subgraph index in range; IF / WHILE /
//     CALL_ONCE carry their options table; dims >= 0 (shape_signature
//     >= -1); rank <= kMaxRank; element count x element size fits
//     kMaxTensorBytes; buffers stored outside the flatbuffer (offset > 1)
//     lie within `size`; int64 zero points are 8-byte aligned; a constant
//     buffer holds at least its tensor's bytes (INT4: packed); scales and
//     zero points have equal lengths and per-channel parameters along a
//     dimension of the shape match its extent; every SignatureDef names a
//     subgraph in range and tensors of that subgraph; an operator we decode options for carries its own options
//     type (CONV_2D: Conv2DOptions, ...) or none, and those types appear on
//     no other operator; the total
//     number of list entries visited stays under kMaxIndexVisits (a crafted
//     file can alias one huge vector many times).
//
// The Model holds only pointers into `data`: the caller keeps the bytes
// alive and unchanged. No heap, no exceptions. Files of 2 GiB and more are
// accepted: the flatbuffer itself must lie in the first 2 GiB and the rest
// is reachable through buffer offset/size.
#ifndef TFLM_ARENA_MODEL_MODEL_H_
#define TFLM_ARENA_MODEL_MODEL_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace model {

constexpr size_t kModelDataAlignment = 8;
constexpr uint32_t kSchemaVersion = 3;
constexpr uint32_t kVerifierMaxDepth = 16;
constexpr uint32_t kVerifierMaxTables = 1000000;
constexpr size_t kMaxRank = 32;
constexpr uint64_t kMaxIndexVisits = uint64_t{1} << 26;
// Largest tensor we size: fits int64 and size_t, and stays a multiple of 16
// so aligning it up to the arena alignment cannot overflow.
constexpr uint64_t kMaxTensorBytes =
    ((sizeof(size_t) < 8 ? uint64_t{SIZE_MAX} : uint64_t{INT64_MAX}) >> 4)
    << 4;

// One subgraph (subgraph 0 is the entry point).
struct SubgraphInfo {
  const char* name = "";             // never null; "" when absent
  size_t num_tensors = 0;
  size_t num_operators = 0;
  size_t first_tensor = 0;           // global index of its tensor 0 (subgraphs' tensors in order, as TFLM numbers them)
  Span<const int32_t> inputs;        // tensor indices, all in range
  Span<const int32_t> outputs;       // tensor indices, all in range
};

struct TensorInfo {
  const char* name = "";             // never null; "" when absent
  TensorType type = TensorType::kFloat32;  // raw value, may be unknown
  Span<const int32_t> shape;         // all >= 0; empty = scalar
  Span<const int32_t> shape_signature;  // empty when absent; -1 = unknown
  uint64_t num_elements = 1;         // product of shape (1 for a scalar)
  uint32_t buffer = 0;               // index into buffers, in range
  bool is_variable = false;
  bool has_rank = false;
  // TFLM's "constant" test (micro_allocator.cc, GetFlatbufferTensorBuffer): the buffer's inline data vector is
  // non-empty. Data stored outside the flatbuffer does NOT count (TFLM
  // cannot read it); see uses_external_buffer.
  bool has_constant_data = false;
  Span<const uint8_t> constant_data;  // those inline bytes; empty otherwise
  bool uses_external_buffer = false; // buffer has offset > 1 and size > 0
  Span<const float> scale;           // empty when not quantized
  Span<const int64_t> zero_point;
  int32_t quantized_dimension = 0;
};

// Subgraphs an operator runs (from its builtin options): IF then/else, WHILE cond/body,
// CALL_ONCE init. Always in range once the model is loaded.
struct CalledSubgraphs {
  int32_t index[2] = {-1, -1};
  size_t count = 0;
};

struct OperatorInfo {
  uint32_t opcode_index = 0;         // into operator codes, in range
  BuiltinCode builtin_code = 0;      // resolved, see OperatorCodeInfo
  const char* custom_code = "";      // never null; "" when absent
  int32_t version = 1;
  Span<const int32_t> inputs;        // -1 = omitted optional input
  Span<const int32_t> outputs;
  Span<const int32_t> intermediates;
  Span<const uint8_t> custom_options;  // inline custom options, may be empty
  CalledSubgraphs called;
};

struct OperatorCodeInfo {
  // max(deprecated_builtin_code, builtin_code): the format's rule for
  // reading both old (byte) and new (int32) writers.
  BuiltinCode builtin_code = 0;
  int8_t deprecated_builtin_code = 0;
  int32_t raw_builtin_code = 0;
  const char* custom_code = "";      // never null; "" when absent
  int32_t version = 1;
};

struct BufferInfo {
  // The bytes: the inline data vector, or for an external buffer the
  // resolved range [offset, offset + size) of the file. Empty otherwise.
  Span<const uint8_t> data;
  bool external = false;             // offset > 1: stored after the flatbuffer
  uint64_t offset = 0;               // raw fields, as written
  uint64_t size = 0;
};

struct MetadataInfo {
  const char* name = "";             // never null; "" when absent
  size_t name_length = 0;            // bytes (the name may hold a NUL)
  uint32_t buffer = 0;               // index into buffers, in range
};

// One SignatureDef: a named entry point into one subgraph. Its inputs and
// outputs (name -> tensor of that subgraph) are read with signature_tensor.
struct SignatureInfo {
  const char* key = "";              // never null; "" when absent
  size_t key_length = 0;             // bytes (the key may hold a NUL)
  uint32_t subgraph = 0;             // index into subgraphs, in range
  size_t num_inputs = 0;
  size_t num_outputs = 0;
};

struct SignatureTensorInfo {
  const char* name = "";             // never null; "" when absent
  size_t name_length = 0;            // bytes (the name may hold a NUL)
  uint32_t tensor = 0;               // index into the subgraph's tensors, in range
};

class Model {
 public:
  Model() = default;  // empty: num_subgraphs() == 0 until loaded

  // Verifies `data` (see the file comment) and fills `out`. On failure
  // `out` is left empty.
  static Status FromBuffer(const uint8_t* data, size_t size, Model* out);

  // Check 1 only (length, alignment, identifier), like TFLM's GetModel: for
  // a model verified before, e.g. firmware holding bytes that FromBuffer
  // (or `tflm-arena info`) accepted on the host. Links neither the Verifier
  // nor the semantic checks (6,624 bytes of Cortex-M3 flash in the release
  // configuration, benchmarks/README.md).
  // Every later step assumes checks 2 and 3 held: on bytes FromBuffer would
  // refuse, behaviour is undefined. Everything else (the interpreter's
  // arena, kernel, data-flow and plan checks) still runs.
  static Status FromTrustedBuffer(const uint8_t* data, size_t size,
                                  Model* out);

  bool loaded() const { return root_ != nullptr; }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

  uint32_t version() const TFLM_ARENA_PURE;
  const char* description() const TFLM_ARENA_PURE;  // never null
  size_t num_subgraphs() const TFLM_ARENA_PURE;
  size_t num_operator_codes() const TFLM_ARENA_PURE;
  size_t num_buffers() const TFLM_ARENA_PURE;
  size_t num_metadata() const TFLM_ARENA_PURE;
  size_t total_tensors() const { return total_tensors_; }  // all subgraphs
  // O(1) counts; 0 for a subgraph index out of range. (Pure: a call whose
  // value goes unused, e.g. into a stripped message, is dropped.)
  size_t num_tensors(size_t subgraph) const TFLM_ARENA_PURE;
  size_t num_operators(size_t subgraph) const TFLM_ARENA_PURE;

  // Index arguments out of range return kOutOfRange. subgraph() is
  // O(subgraph): it sums the earlier subgraphs' tensor counts.
  Status subgraph(size_t subgraph, SubgraphInfo* out) const;
  Status tensor(size_t subgraph, size_t tensor, TensorInfo* out) const;
  // Arena bytes of a tensor (elements x ElementByteSize, as TFLM's memory_helpers.cc). Types without
  // an element size (string, variant, ...) give kInvalidArgument.
  Status tensor_bytes(size_t subgraph, size_t tensor, size_t* bytes) const;
  Status op(size_t subgraph, size_t op, OperatorInfo* out) const;
  Status operator_code(size_t index, OperatorCodeInfo* out) const;
  Status buffer(size_t index, BufferInfo* out) const;
  Status metadata(size_t index, MetadataInfo* out) const;
  // SignatureDefs (Model.signature_defs). TFLM itself does not read them;
  // FromBuffer checks their subgraph and tensor indices like all others.
  size_t num_signatures() const TFLM_ARENA_PURE;
  Status signature(size_t index, SignatureInfo* out) const;
  // Input (output = false) or output `i` of signature `index`.
  Status signature_tensor(size_t index, bool output, size_t i,
                          SignatureTensorInfo* out) const;
  // An operator's builtin options table, undecoded (builtin_options.h: each
  // kernel decodes its own); absent (present() == false) when it has none.
  Status builtin_options(size_t subgraph, size_t op, OptionsTable* out) const;

 private:
  const void* root_ = nullptr;  // the schema's Model table
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  size_t total_tensors_ = 0;
};

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_MODEL_H_
