// StartModelAllocation: kernel lookup, the scratch-request records in the
// head, and the per-subgraph tensor and node arrays plus the operators'
// decoded options in the tail (TFLM's MicroAllocator::StartModelAllocation
// and node setup in TFLM's micro_allocator.cc).
#include <cinttypes>
#include <new>

#include "tflm_arena/core/align.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/runtime_util.h"

namespace tflm_arena {
namespace runtime {
namespace {

using internal::Annotate;
using internal::OpName;
using internal::TensorName;

}  // namespace

// Every operator needs a kernel; checked before anything is allocated, and
// every missing one is named at once. Without error strings there are no
// names to list: AllocateNodes' own lookup refuses the first missing one
// (one walk over the operators instead of two in the smallest build).
Status Interpreter::CheckKernels() const {
#if TFLM_ARENA_ERROR_STRINGS
  return CheckResolverHasKernels(model_, resolver_);
#else
  return Status::Ok();
#endif
}

Status Interpreter::StartModelAllocation() {
  // Head: records for the first node's scratch requests (TFLM: 12 x 16 B).
  Status s =
      arena_.ResizeHead(kMaxScratchBuffersPerNode * sizeof(model::ScratchRequest), kArenaAlignment);
  if (!s.ok()) {
    return Annotate(s, "arena too small for the scratch-request records (head)");
  }
  // Tail: the per-subgraph table (TFLM's SubgraphAllocations).
  uint8_t* p = nullptr;
  s = arena_.AllocatePersistent(num_subgraphs_ * sizeof(SubgraphArrays), alignof(SubgraphArrays),
                                AllocationCategory::kOther, &p);
  if (!s.ok()) {
    return Annotate(s, "arena too small for the subgraph table (tail)");
  }
  subgraphs_ = reinterpret_cast<SubgraphArrays*>(p);
  for (size_t sg = 0; sg < num_subgraphs_; ++sg) new (subgraphs_ + sg) SubgraphArrays();

  for (size_t sg = 0; sg < num_subgraphs_; ++sg) {
    TFLM_ARENA_RETURN_IF_ERROR(AllocateSubgraphArrays(sg));
  }
  for (size_t sg = 0; sg < num_subgraphs_; ++sg) {
    TFLM_ARENA_RETURN_IF_ERROR(AllocateNodes(sg));
  }
  for (size_t sg = 0; sg < num_subgraphs_; ++sg) {
    for (size_t i = 0; i < model_.num_operators(sg); ++i) {
      TFLM_ARENA_RETURN_IF_ERROR(AllocateBuiltinData(sg, i, &subgraphs_[sg].nodes[i]));
    }
  }
  // Preallocated tensors get their buffers now, so planning skips them.
  for (size_t k = 0; k < preallocated_count_; ++k) {
    EvalTensor& t = subgraphs_[0].tensors[preallocated_[k].tensor];
    t.data = preallocated_[k].buffer;
    t.written = 1;
    t.preallocated = 1;
  }
  return Status::Ok();
}

// EvalTensor[tensors]: dims into the model, constants' data into the model.
Status Interpreter::AllocateSubgraphArrays(size_t sg) {
  const size_t n = model_.num_tensors(sg);
  if (n == 0) return Status::Ok();
  uint8_t* p = nullptr;
  Status s = arena_.AllocatePersistent(n * sizeof(EvalTensor), alignof(EvalTensor),
                                       AllocationCategory::kEvalTensorData, &p, n);
  if (!s.ok()) {
    return Annotate(s, "arena too small for the %zu tensors of subgraph %zu (tail)", n, sg);
  }
  EvalTensor* tensors = reinterpret_cast<EvalTensor*>(p);
  subgraphs_[sg].tensors = tensors;
  for (size_t t = 0; t < n; ++t) {
    EvalTensor* e = new (tensors + t) EvalTensor();
    model::TensorInfo info;
    TFLM_ARENA_RETURN_IF_ERROR(model_.tensor(sg, t, &info));
    e->dims = info.shape.data();
    e->rank = static_cast<int32_t>(info.shape.size());
    e->type = info.type;
    e->variable = info.is_variable ? 1 : 0;
    // Available before any operator runs (CheckDataFlow).
    e->written = info.is_variable || info.has_constant_data ? 1 : 0;
    if (info.has_constant_data) {
      // Kernels only read constants; the model bytes stay untouched.
      e->data = const_cast<uint8_t*>(info.constant_data.data());
      TFLM_ARENA_RETURN_IF_ERROR(AlignConstant(sg, t, info, e));
    }
  }
  return Status::Ok();
}

// A constant whose bytes are not aligned for its element type (converters
// write int64 biases at odd offsets; TFLM reads them misaligned, which is
// undefined behaviour) is copied once into an aligned tail buffer, so no
// kernel ever reads a misaligned element. Costs arena bytes TFLM does not
// spend, only for such models.
Status Interpreter::AlignConstant(size_t sg, size_t t, const model::TensorInfo& info,
                                  EvalTensor* e) {
  size_t align = model::ElementByteSize(info.type);
  if (align > 8) align = 8;
  if (align <= 1 || reinterpret_cast<uintptr_t>(e->data) % align == 0) {
    return Status::Ok();
  }
  size_t bytes = 0;
  TFLM_ARENA_RETURN_IF_ERROR(model_.tensor_bytes(sg, t, &bytes));
  uint8_t* p = nullptr;
  Status s = arena_.AllocatePersistent(bytes, kArenaAlignment, AllocationCategory::kOther, &p);
  if (!s.ok()) {
    return Annotate(s,
                    "arena too small for an aligned copy of misaligned "
                    "constant tensor %zu of subgraph %zu (%zu bytes, tail)",
                    t, sg, bytes);
  }
  // A byte loop, not memcpy: this one copy would otherwise link memcpy
  // (236 bytes of Cortex-M flash) into every program.
  const uint8_t* from = static_cast<const uint8_t*>(e->data);
  for (size_t i = 0; i < bytes; ++i) p[i] = from[i];
  e->data = p;
  return Status::Ok();
}

// TFLM would run a model that reads memory nothing wrote (an output no
// operator produces, an input read before its producer runs) and return
// whatever the arena held. Refuse it, naming the tensor and the operator.
// Available from the start (EvalTensor::written, set by
// StartModelAllocation): subgraph inputs, constants, variables and tensors
// the application preallocated.
Status Interpreter::CheckDataFlow() {
  for (size_t sg = 0; sg < num_subgraphs_; ++sg) {
    EvalTensor* tensors = subgraphs_[sg].tensors;
    model::SubgraphInfo g;
    TFLM_ARENA_RETURN_IF_ERROR(model_.subgraph(sg, &g));
    for (int32_t t : g.inputs) tensors[t].written = 1;
    for (size_t i = 0; i < model_.num_operators(sg); ++i) {
      const Node& node = subgraphs_[sg].nodes[i];
      for (int32_t t : node.inputs) {
        if (t < 0 || tensors[t].written) continue;
        return Status::Error(StatusCode::kInvalidArgument,
                             "operator %zu (%s, subgraph %zu) reads tensor %d ('%.64s') before "
                             "any operator writes it (it is not an input, constant or "
                             "variable): its bytes would be uninitialized arena memory",
                             i, OpName(node.registration->builtin_code), sg, static_cast<int>(t),
                             TensorName(model_, sg, t));
      }
      for (int32_t t : node.outputs) tensors[t].written = 1;
    }
    for (size_t k = 0; k < g.outputs.size(); ++k) {
      const int32_t t = g.outputs[k];
      if (tensors[t].written) continue;
      return Status::Error(StatusCode::kInvalidArgument,
                           "output %zu of subgraph %zu (tensor %d, '%.64s') is written by no "
                           "operator and is not an input, constant or variable: it would hold "
                           "uninitialized arena memory",
                           k, sg, static_cast<int>(t), TensorName(model_, sg, t));
    }
  }
  return Status::Ok();
}

// Node[operators]: index lists point into the model (zero-copy).
Status Interpreter::AllocateNodes(size_t sg) {
  const size_t n = model_.num_operators(sg);
  if (n == 0) return Status::Ok();
  uint8_t* p = nullptr;
  Status s = arena_.AllocatePersistent(n * sizeof(Node), alignof(Node),
                                       AllocationCategory::kNodeAndRegistration, &p, n);
  if (!s.ok()) {
    return Annotate(s, "arena too small for the %zu operators of subgraph %zu (tail)", n, sg);
  }
  Node* nodes = reinterpret_cast<Node*>(p);
  subgraphs_[sg].nodes = nodes;
  for (size_t i = 0; i < n; ++i) {
    Node* node = new (nodes + i) Node();
    model::OperatorInfo op;
    TFLM_ARENA_RETURN_IF_ERROR(model_.op(sg, i, &op));
    node->inputs = op.inputs;
    node->outputs = op.outputs;
    node->intermediates = op.intermediates;
    node->registration = resolver_.Find(op);  // CheckKernels named every missing one
    if (node->registration == nullptr) {
      return Status::Error(StatusCode::kUnimplemented, "no kernel for operator %zu of subgraph %zu",
                           i, sg);
    }
    node->subgraph = static_cast<uint32_t>(sg);
    node->index = static_cast<uint32_t>(i);
  }
  return Status::Ok();
}

// The operator's kernel decodes its own options (KernelRegistration::options)
// into a struct in the tail; uncategorised, as in TFLM's RecordingMicroAllocator (option structs
// are in no category). Nothing is allocated when the operator carries no table or the kernel reads
// none.
Status Interpreter::AllocateBuiltinData(size_t sg, size_t op, Node* node) {
  node->builtin_data = nullptr;
  const OptionsParser& parser = node->registration->options;
  model::OptionsTable table;
  TFLM_ARENA_RETURN_IF_ERROR(model_.builtin_options(sg, op, &table));
  if (parser.parse == nullptr || !table.present()) return Status::Ok();
  const char* name = OpName(node->registration->builtin_code);
  // The reader rejects a wrong table on the operators it knows; this covers
  // every other kernel, which would otherwise read a foreign table.
  if (table.type() != parser.table_type) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "subgraph %zu operator %zu: %s carries builtin options of "
                         "type %d; it takes %s",
                         sg, op, name, static_cast<int>(table.type()), parser.table_name);
  }
  uint8_t* p = nullptr;
  Status s = arena_.AllocatePersistent(parser.bytes, parser.align, AllocationCategory::kOther, &p);
  if (!s.ok()) {
    return Annotate(s,
                    "arena too small for the options of operator %zu (%s, "
                    "subgraph %zu) (tail)",
                    op, name, sg);
  }
  s = parser.parse(table, p);
  if (s.ok() && !table.ok()) {
    s = Status::Error(StatusCode::kInvalidArgument, "%s lies outside the model buffer",
                      parser.table_name);
  }
  if (!s.ok()) {
    return Annotate(s, "subgraph %zu operator %zu (%s)", sg, op, name);
  }
  node->builtin_data = p;
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena
