// The contract between the interpreter and its kernels (our equivalent of
// TFLM's TfLiteContext / TfLiteNode / TFLMRegistration).
//
// Phases, as in TFLM: init (once per node, may allocate persistent memory),
// prepare (once per node; may allocate persistent memory, request scratch
// buffers planned together with the activations, and use temp memory that is
// released after the node's prepare), invoke (every inference; may fetch its
// scratch buffers). Kernels never touch the heap and never throw: every byte
// comes from the arena through KernelContext, every error is a Status.
#ifndef TFLM_ARENA_RUNTIME_KERNEL_API_H_
#define TFLM_ARENA_RUNTIME_KERNEL_API_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace runtime {

// Per-tensor runtime state (TFLM's TfLiteEvalTensor; 24 bytes on 64-bit).
struct EvalTensor {
  // Constants: into the model. Activations: the arena head (after planning).
  // Variables: the arena tail. Preallocated tensors: the application's buffer.
  // Null until planned.
  uint8_t* data = nullptr;
  const int32_t* dims = nullptr;  // the model's shape vector (zero-copy)
  int32_t rank = 0;
  model::TensorType type = model::TensorType::kFloat32;
  // Interpreter bookkeeping in what would be padding (the struct stays 24
  // bytes on 64-bit, 16 on 32-bit; kernels ignore it): `written` while
  // checking that no operator reads a tensor before something writes it;
  // `variable` for the model's is_variable and `preallocated` for an
  // application buffer (so allocation and Reset() need not look them up).
  uint8_t written = 0;
  uint8_t variable = 0;
  uint8_t preallocated = 0;

  template <typename T>
  T* as() const {
    return reinterpret_cast<T*>(data);
  }
  int32_t dim(int i) const { return dims[i]; }
  // The model reader bounds every tensor's product; a zero extent is looked
  // for first so that partial products of [65536, 65536, 65536, 65536, 0]
  // cannot overflow.
  int64_t num_elements() const {
    for (int32_t i = 0; i < rank; ++i) {
      if (dims[i] == 0) return 0;
    }
    int64_t n = 1;
    for (int32_t i = 0; i < rank; ++i) n *= dims[i];
    return n;
  }
};

static_assert(sizeof(void*) != 4 || sizeof(EvalTensor) == 16,
              "EvalTensor is 16 bytes on 32-bit targets (arena sizes depend on it)");
static_assert(sizeof(void*) != 8 || sizeof(EvalTensor) == 24,
              "EvalTensor must stay TFLM's 24 bytes on 64-bit hosts");

struct KernelRegistration;

// One operator instance (TFLM's TfLiteNode + registration pointer).
struct Node {
  Span<const int32_t> inputs;  // subgraph-local tensor indices, -1 = omitted
  Span<const int32_t> outputs;
  Span<const int32_t> intermediates;
  // This operator's builtin options as its kernel decoded them
  // (KernelRegistration::options: ConvOptions, PoolOptions, ...), stored in
  // the arena tail; null when the operator carries no options table or its
  // kernel reads none. Cast with options<T>().
  const void* builtin_data = nullptr;
  void* user_data = nullptr;  // the kernel's OpData (persistent), set in init
  const KernelRegistration* registration = nullptr;
  uint32_t subgraph = 0;
  uint32_t index = 0;  // operator index within its subgraph

  template <typename T>
  const T& options() const {
    return *static_cast<const T*>(builtin_data);
  }
};

class Interpreter;

// What a kernel may ask of the interpreter. Implemented in kernel_context.cc.
class KernelContext {
 public:
  explicit KernelContext(Interpreter* interpreter) : interpreter_(interpreter) {}

  // --- any phase ---
  // Tensor of the node's subgraph by local index; nullptr for -1 or out of range.
  EvalTensor* tensor(int32_t index) const;
  // The node's i-th input / output; nullptr when omitted (-1) or i too large.
  EvalTensor* input(const Node& node, size_t i) const;
  EvalTensor* output(const Node& node, size_t i) const;
  // Static facts about a tensor from the model: name, shape, type,
  // quantization (scale / zero_point spans, quantized_dimension).
  Status tensor_info(const Node& node, int32_t index, model::TensorInfo* out) const;
  Status input_info(const Node& node, size_t i, model::TensorInfo* out) const;
  Status output_info(const Node& node, size_t i, model::TensorInfo* out) const;
  // The node's inline custom options (a custom operator's flexbuffer; empty
  // when it has none), pointing into the model.
  Status custom_options(const Node& node, Span<const uint8_t>* out) const;

  // --- init and prepare ---
  // Persistent memory in the arena tail, 16-aligned, recorded as
  // 'Persistent buffer data'. Lives as long as the interpreter.
  Status AllocatePersistentBuffer(size_t bytes, void** out);

  // --- prepare only ---
  // Scratch memory in the arena head, planned with the activations for the
  // lifetime of this node only; fetch it in invoke with GetScratchBuffer.
  // At most 12 requests per node (TFLM's kMaxScratchBuffersPerOp).
  Status RequestScratchBufferInArena(size_t bytes, int* buffer_index);
  // Temporary memory, released automatically after this node's prepare.
  Status AllocateTempBuffer(size_t bytes, size_t alignment, uint8_t** out);

  // --- invoke only ---
  void* GetScratchBuffer(int buffer_index) const;
  // Runs subgraph `index`'s operators (TFLM's MicroGraph::InvokeSubgraph,
  // for CALL_ONCE); kInvalidArgument for a subgraph that does not exist or
  // nesting deeper than 8.
  Status InvokeSubgraph(size_t index);

  // --- any phase ---
  // The interpreter's slot for the resource-variable table the
  // VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE kernels share (TFLM's
  // MicroResourceVariables); null until a kernel sets it.
  void** resource_variables();

  Interpreter* interpreter() const { return interpreter_; }

 private:
  Interpreter* interpreter_;
};

// How a kernel decodes its operator's builtin options table into its own
// options struct (TFLM's ParseX functions, e.g. ParseConv2D). The
// interpreter allocates `bytes` (aligned to `align`) in the arena tail when
// the operator carries a table, checks the table's type and calls `parse`
// on that memory; it knows no operator's options itself.
struct OptionsParser {
  model::OptionsType table_type = 0;  // the union member decoded (format value)
  const char* table_name = "";        // e.g. "Conv2DOptions", for messages
  size_t bytes = 0;
  size_t align = 1;
  // Decodes `table` into `out` (placement-new of the struct). Reads are
  // bounds-checked; the interpreter rejects the table when !table.ok().
  Status (*parse)(model::OptionsTable& table, void* out) = nullptr;
};

// The OptionsParser of options struct T (trivially destructible: the arena
// never runs destructors) for union member `table_type` (a constant of
// builtin_options.h, e.g. model::kConv2DOptions), named as the schema names it.
template <typename T>
constexpr OptionsParser MakeOptionsParser(model::OptionsType table_type,
                                          Status (*parse)(model::OptionsTable&, void*)) {
  return OptionsParser{table_type, model::OptionsTypeName(table_type), sizeof(T), alignof(T),
                       parse};
}

// The same with a name given by the caller, for tables outside the format's
// union (test kernels).
template <typename T>
constexpr OptionsParser MakeOptionsParser(model::OptionsType table_type, const char* table_name,
                                          Status (*parse)(model::OptionsTable&, void*)) {
  return OptionsParser{table_type, table_name, sizeof(T), alignof(T), parse};
}

// A kernel: plain function pointers, no virtual calls, no RTTI. A custom
// operator's kernel has builtin_code CUSTOM and `name` its custom code (the
// string the model's operator code carries, e.g. "SignalWindow").
struct KernelRegistration {
  model::BuiltinCode builtin_code = 0;
  const char* name = "";
  Status (*init)(KernelContext& context, Node& node) = nullptr;     // optional
  Status (*prepare)(KernelContext& context, Node& node) = nullptr;  // optional
  Status (*invoke)(KernelContext& context, Node& node) = nullptr;   // required
  void (*reset)(KernelContext& context, Node& node) = nullptr;      // optional
  OptionsParser options;  // parse == nullptr: reads no builtin options
};

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_KERNEL_API_H_
