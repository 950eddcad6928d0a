// Interpreter: runs a model with every byte taken from one caller-provided
// arena, following TFLM's MicroInterpreter / MicroAllocator flow (facts 4.3).
//
// AllocateTensors():
//  1. Resolve a kernel for every operator of every subgraph (before any
//     allocation, so a missing kernel is reported whatever the arena size).
//  2. StartModelAllocation (model_allocation.cc):
//       head <- scratch-request records (12 x ScratchRequest, like TFLM)
//       tail <- subgraph table, then per subgraph EvalTensor[tensors]
//               ('TfLiteEvalTensor data'), then per subgraph Node[operators]
//               ('NodeAndRegistration struct'), then per operator that
//               carries an options table the struct its kernel decodes
//               (KernelRegistration::options: ConvOptions, ...).
//     Constants point into the model; registered preallocated tensors point
//     at the application's buffers; everything else stays null until planned.
//  3. Kernel init for every node, then kernel prepare for every node (all
//     subgraphs, in order). After each prepare: temp is reset, the node's
//     scratch requests are stamped with its index (<= 12 per node) and the
//     head request buffer is resized to 16 x (requests + 12); outputs with a
//     dynamic shape are rejected.
//  4. FinishModelAllocation (memory_planning.cc):
//       tail <- scratch handles (if any requests)
//       temp <- AllocationEntry[tensors + requests]
//       tail <- online variable tensors ('TfLiteTensor variable buffer data')
//       lifetimes (model::ComputeAllocationInfo, the model's offline plan);
//       tensors whose data is already set (preallocated) are not planned
//       tail <- plan records (only with InterpreterOptions::keep_plan)
//       temp <- planner scratch: exactly n x scratch_bytes_per_buffer()
//               (40 B greedy, 4 B linear)
//       plan, commit pointers (head start + offset), release temp,
//       head <- the plan size.
//  5. Subgraph-0 inputs/outputs are read from the model (no arena bytes),
//     then Reset().
//
// Differences from TFLM, on purpose:
//  - The allocator and planner objects live inside this object (the default
//    planner only during planning, on the stack; a planner passed in
//    InterpreterOptions is the caller's), not in the arena tail; TFLM puts
//    ~216 B of allocator objects plus the planner (72 B greedy, 8216 B linear)
//    in the tail. We also create no persistent TfLiteTensor structs for the
//    inputs/outputs, no input/output pointer arrays and no builtin-data
//    allocator: kernels use EvalTensor + KernelContext::tensor_info().
//  - Our Node (80 B on 64-bit) is larger than TFLM's NodeAndRegistration
//    (64 B): its input/output lists are spans (pointer + size) into the model.
//  - The planner gets exactly the scratch it needs, not all free memory, and
//    no allocation can overwrite another (in TFLM a tail allocation is checked against the head
//    only, not temp, so variables can overwrite the planning arrays; that cannot happen here).
//  - The arena's usable size is rounded DOWN to a multiple of 16 (as TFLM does
//    for the persistent arena in two-arena mode). With a 16-aligned start the
//    allocation sequence is then identical for every arena size, so
//    required_arena_bytes() is exact: that many bytes succeed, one less fails.
//  - A missing kernel is reported before any allocation, every missing
//    operator type at once.
//  - A model that would read uninitialized arena memory (an operator input
//    or a subgraph output that nothing writes first) is refused, naming the
//    tensor and operator; so is an offline plan that aliases live tensors.
//  - A constant stored misaligned for its element type is copied to an
//    aligned tail buffer (TFLM reads it misaligned).
//  - Variable tensors of subgraphs > 0 read their own offline offsets (TFLM
//    indexes the offline plan with the subgraph-local index in AllocateVariables).
//
// Failure is sticky: after an error AllocateTensors() and Invoke() return
// that same error, and the tensor accessors return nullptr. Build a new
// Interpreter (on the same or a larger arena) to retry.
//
// No heap, no exceptions, no RTTI. Not thread-safe. The model, the resolver
// and the arena must outlive the interpreter.
#ifndef TFLM_ARENA_RUNTIME_INTERPRETER_H_
#define TFLM_ARENA_RUNTIME_INTERPRETER_H_

#include <cstddef>
#include <cstdint>

#include "tflm_arena/arena/allocation_category.h"
#include "tflm_arena/arena/recording_allocator.h"
#include "tflm_arena/arena/single_arena_allocator.h"
#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/op_resolver.h"

namespace tflm_arena {

class MemoryPlanner;  // plan/memory_planner.h

namespace runtime {

struct InterpreterOptions {
  // The planner AllocateTensors() uses, as TFLM's MicroAllocator::Create
  // takes one: nullptr = a GreedyPlanner of the interpreter's own (TFLM's
  // GreedyMemoryPlanner; honours offline plans). Any other MemoryPlanner,
  // e.g. a LinearPlanner (TFLM's LinearMemoryPlanner: no reuse, rejects
  // offline plans), must outlive AllocateTensors(); it gets its working
  // memory from the arena's temp section. Only the planners a program
  // names are linked into it.
  MemoryPlanner* planner = nullptr;
  // Count tail allocations per category (recorded(), PrintAllocations()).
  // Costs no arena bytes.
  bool recording = false;
  // Keep one 28-byte record per planned buffer in the tail so that
  // planned_buffer() can describe the memory plan after allocation.
  bool keep_plan = false;
};

// One buffer of the memory plan (a planned tensor or a scratch buffer).
struct PlannedBuffer {
  int32_t subgraph = 0;
  int32_t tensor = -1;         // tensor index in its subgraph, or -1
  int32_t scratch_index = -1;  // scratch request index, or -1
  int64_t offset = 0;          // from the start of the arena head
  int64_t size = 0;            // bytes, aligned up to 16
  int32_t first = -1;          // lifetime, inclusive (TFLM's scopes)
  int32_t last = -1;
};

class Interpreter {
 public:
  // TFLM's kMaxScratchBuffersPerOp.
  static constexpr size_t kMaxScratchBuffersPerNode = 12;
  // Capacity of the preallocated-tensor table inside this object.
  static constexpr size_t kMaxPreallocatedTensors = 16;

  // Never fails; problems (model not loaded, ...) surface in
  // AllocateTensors(). `arena` may be null only with arena_size 0.
  Interpreter(const model::Model& model, const OpResolver& resolver, uint8_t* arena,
              size_t arena_size, const InterpreterOptions& options = InterpreterOptions());
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  // Hands the interpreter an application buffer for subgraph-0 tensor
  // `tensor_index` (the RFC's RegisterPreallocatedTensor); the tensor then
  // takes no arena bytes. Only before AllocateTensors(). The buffer must be
  // 16-aligned and hold the tensor's bytes; the tensor may not be a constant,
  // be offline-planned, or be registered twice.
  Status RegisterPreallocatedTensor(int tensor_index, uint8_t* buffer, size_t bytes);

  // See the file comment. Idempotent once it succeeded.
  Status AllocateTensors();
  // Runs subgraph 0's operators in order (AllocateTensors() first if needed);
  // a kernel may run another subgraph (CALL_ONCE, KernelContext).
  Status Invoke();
  // Kernel reset callbacks, then every variable tensor refilled with 0 (int8
  // tensors with a zero point: the zero point). Only after allocation.
  Status Reset();

  bool allocated() const { return state_ == State::kReady; }
  // OK before and after a successful allocation; the sticky error otherwise.
  const Status& status() const { return error_; }

  const model::Model& model() const { return model_; }
  const InterpreterOptions& options() const { return options_; }

  // Subgraph 0's inputs and outputs (counts are known from construction).
  size_t inputs_size() const { return inputs_.size(); }
  size_t outputs_size() const { return outputs_.size(); }
  // nullptr out of range or unless allocated().
  EvalTensor* input(size_t i) const;
  EvalTensor* output(size_t i) const;
  // Subgraph-0 tensor index of input / output i; -1 out of range.
  int32_t input_tensor_index(size_t i) const;
  int32_t output_tensor_index(size_t i) const;
  // Any tensor; nullptr out of range or unless allocated().
  EvalTensor* tensor(size_t subgraph, size_t index) const;

  // ---- Arena accounting ----
  // Usable bytes: the arena after aligning its start up and its size down
  // to 16.
  size_t arena_capacity() const { return arena_.capacity(); }
  // Non-persistent (head) bytes in use: the plan size after allocation.
  size_t head_bytes() const { return arena_.GetNonPersistentUsedBytes(); }
  size_t tail_bytes() const { return arena_.GetPersistentUsedBytes(); }
  size_t used_bytes() const { return arena_.GetUsedBytes(); }
  // The exact arena size (for a 16-aligned arena start) this run needed:
  // the peak of head + temp + tail, rounded up to 16. An unaligned start
  // needs up to 15 bytes more. 0 unless allocated().
  size_t required_arena_bytes() const;

  // ---- Memory plan ----
  // Buffers the planner placed (tensors + scratch); 0 before allocation.
  size_t planned_buffer_count() const { return planned_count_; }
  // kFailedPrecondition unless allocated with keep_plan; kOutOfRange for i.
  Status planned_buffer(size_t i, PlannedBuffer* out) const;
  size_t scratch_buffer_count() const { return request_count_; }

  // ---- Recording (InterpreterOptions::recording) ----
  // Zeros when not recording.
  RecordedAllocation recorded(AllocationCategory category) const;
  // This runtime's allocation summary (recording_allocator.h; not stock
  // TFLM's figures), one "\n"-terminated line each; snprintf contract. -1
  // when not recording.
  int PrintAllocations(char* out, size_t out_size) const;

 private:
  friend class KernelContext;

  enum class State : uint8_t { kCreated, kAllocating, kReady, kFailed };
  enum class Phase : uint8_t { kNone, kInit, kPrepare, kInvoke, kReset };

  // Per-subgraph arrays in the tail (TFLM's SubgraphAllocations).
  struct SubgraphArrays {
    EvalTensor* tensors = nullptr;
    Node* nodes = nullptr;
  };
  // Compact form of PlannedBuffer kept in the tail (keep_plan).
  struct PlanRecord {
    int32_t subgraph;
    int32_t tensor;
    int32_t scratch_index;
    int32_t offset;
    int32_t size;
    int32_t first;
    int32_t last;
  };
  struct Preallocated {
    int32_t tensor = -1;
    uint8_t* buffer = nullptr;
  };

  // interpreter.cc
  Status RunAllocation();
  Status Fail(const Status& error);
  Status ForEachNode(Phase phase, Status (*step)(Interpreter*, Node&));
  Status InitNodes();
  Status PrepareNodes();
  Status FinishPrepareNode(const Node& node);
  Status CheckDynamicOutputs(const Node& node) const;
  void ResetVariables();
  Status RunSubgraph(size_t sg);
  Status InvokeSubgraph(size_t sg);  // for kernels, via KernelContext
  static constexpr size_t kMaxSubgraphDepth = 8;
  // model_allocation.cc
  Status CheckKernels() const;
  Status StartModelAllocation();
  Status AllocateSubgraphArrays(size_t sg);
  Status AlignConstant(size_t sg, size_t t, const model::TensorInfo& info, EvalTensor* e);
  Status CheckDataFlow();
  Status AllocateNodes(size_t sg);
  Status AllocateBuiltinData(size_t sg, size_t op, Node* node);
  // memory_planning.cc
  Status FinishModelAllocation();
  Status AllocateVariables(const model::OfflinePlanView* offline);
  Status CheckOfflineAliases(Span<const model::AllocationEntry> entries) const;
  Status PlanAndCommit(Span<model::AllocationEntry> entries, size_t* head_size);
  Status AddToPlanner(MemoryPlanner* planner, Span<const model::AllocationEntry> entries);
  Status Commit(MemoryPlanner* planner, Span<const model::AllocationEntry> entries);
  // kernel_context.cc helpers
  EvalTensor* LocalTensor(uint32_t subgraph, int32_t index) const;
  model::ScratchRequest* requests() const;

  const model::Model& model_;
  const OpResolver& resolver_;
  InterpreterOptions options_;
  SingleArenaAllocator arena_;
  AllocationRecorder recorder_;
  KernelContext context_;

  State state_ = State::kCreated;
  Phase phase_ = Phase::kNone;
  Status error_;

  size_t num_subgraphs_ = 0;
  SubgraphArrays* subgraphs_ = nullptr;  // tail
  Span<const int32_t> inputs_;           // subgraph 0, into the model
  Span<const int32_t> outputs_;

  const Node* current_node_ = nullptr;  // during init / prepare / invoke
  uint32_t current_subgraph_ = 0;
  uint32_t subgraph_depth_ = 0;  // InvokeSubgraph nesting
  // Kernels' shared resource-variable table (resource_variables.h), created
  // by the first VAR_HANDLE's init in the tail; null when the model has none.
  void* resource_variables_ = nullptr;

  size_t request_count_ = 0;             // scratch requests so far (head records)
  size_t node_request_start_ = 0;        // first request of the node in prepare
  uint8_t** scratch_handles_ = nullptr;  // tail, request_count_ entries

  size_t planned_count_ = 0;
  PlanRecord* plan_records_ = nullptr;  // tail, keep_plan only

  Preallocated preallocated_[kMaxPreallocatedTensors];
  size_t preallocated_count_ = 0;
};

}  // namespace runtime
}  // namespace tflm_arena

#endif  // TFLM_ARENA_RUNTIME_INTERPRETER_H_
