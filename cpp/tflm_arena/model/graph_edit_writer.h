// Writes a COPY of a .tflite model whose subgraph 0 runs a new list of
// operators: some of the original Operator tables (kept byte for byte) and
// new operators over original and new tensors. The graph rewrite
// (rewrite/) uses it to replace a stage of the network by tiles that reuse
// the original weight tensors, so the copy adds operator tables and small
// constants, never a copy of a weight.
//
// Same technique as offline_plan_writer.h: a prefix holds the new root
// tables (Model, operator_codes, buffers, subgraphs, subgraph 0 and its
// tensors and operators vectors, the new Tensor / Operator / Buffer tables);
// everything else points at the original file, appended unchanged.
//
// Tensor numbering in an edit: original tensors keep their indices
// 0..N-1; new tensor k is N + k. Original tensors the new operator list no
// longer uses stay in the tensors vector; list them in `emptied`.
//
// New tables: a Tensor has shape, type, buffer, name and, when `like` has
// one, a link to `like`'s QuantizationParameters table; an Operator has
// opcode_index, inputs, outputs and, when options_type is not 0, a new
// options table holding exactly the given fields. A builtin code with no
// entry in operator_codes gets one new OperatorCode (version 1,
// deprecated_builtin_code = min(code, 127)), shared by all its operators.
// Activations use buffer 0 when it is empty (else one appended empty
// buffer); each constant gets a new Buffer, its data 16-byte aligned.
//
// Checks, each failing with kInvalidArgument and a message naming the
// fault: the model verifies and has no OfflineMemoryAllocation plan (the
// new tensors would have no offset; edit first, then write a plan); `like`
// names an original tensor of subgraph 0, an explicit type is a TensorType;
// dimensions >= 0, and a constant holds exactly its elements (INT4, packed,
// is left to the model reader's check); builtin codes are >= 0 and not
// CUSTOM; tensor indices in range (-1 only as an input); option field ids
// < 64, each once, sizes 1, 2 or 4, and no fields without an options type;
// every new operator used exactly once and every original one at most
// once; and the output verifies (Model::FromBuffer: e.g. an operator whose
// options table is another operator's type).
// Host tool (standard library).
#ifndef TFLM_ARENA_MODEL_GRAPH_EDIT_WRITER_H_
#define TFLM_ARENA_MODEL_GRAPH_EDIT_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tflm_arena/core/status.h"

namespace tflm_arena {
namespace model {

struct NewTensor {
  std::vector<int32_t> shape;
  // Type and quantization come from original tensor `like` (its type, and a
  // link to its QuantizationParameters table). When `like` < 0, `type` (a
  // TensorType value) is used and the tensor has no quantization.
  int32_t like = -1;
  int32_t type = 0;
  std::string name;
  // Non-empty: a constant, stored little-endian in a new Buffer. Empty: an
  // activation (buffer 0, which must be empty; the writer appends an empty
  // buffer if it is not).
  std::vector<uint8_t> data;
};

// One field of a builtin options table: schema field id, its size in bytes
// (1, 2 or 4) and its value (truncated to the size).
struct OptionField {
  uint16_t id = 0;
  uint8_t size = 4;
  int32_t value = 0;
};

struct NewOperator {
  int32_t builtin_code = 0;      // BuiltinOperator value
  std::vector<int32_t> inputs;   // -1: an omitted optional input
  std::vector<int32_t> outputs;  // all in range (no -1)
  uint8_t options_type = 0;      // BuiltinOptions union type; 0: no options
  // Fields of the options table (ids < 64, each at most once); absent
  // fields keep the format's default. Must be empty when options_type is 0.
  std::vector<OptionField> options;
};

struct OperatorRef {
  bool is_new = false;
  int32_t index = 0;  // original operator index, or index into `operators`
};

struct GraphEdit {
  std::vector<NewTensor> tensors;
  std::vector<NewOperator> operators;
  std::vector<OperatorRef> order;  // subgraph 0's new operator list, in order
  // Original tensors the new list no longer uses, written as empty tensors
  // (shape [0], the original type, no name or quantization). TFLM gives a
  // tensor that no operator uses the lifetime -1..-1, and its greedy planner
  // stacks all such tensors on top of each other in the head
  // (micro_allocation_info.cc, greedy_memory_planner.cc); a tensor of 0
  // bytes is not planned at all. Each must be an original tensor, listed
  // once, not a subgraph input or output and not used by the new list.
  std::vector<int32_t> emptied;
};

// `model` must be 16-byte aligned (as Model::FromBuffer requires).
Status WriteGraphEdit(const uint8_t* model, size_t model_size, const GraphEdit& edit,
                      std::vector<uint8_t>* out);

}  // namespace model
}  // namespace tflm_arena

#endif  // TFLM_ARENA_MODEL_GRAPH_EDIT_WRITER_H_
