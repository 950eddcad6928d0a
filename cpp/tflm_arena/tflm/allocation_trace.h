// Stock TFLM's allocation sequence for one model, as a list of allocator
// events (docs/tflm_behaviour.md, sections "Allocation order", "Temp during
// Prepare" and "Temp during planning"): what MicroInterpreter +
// (Recording)MicroAllocator ask of SingleArenaBufferAllocator, in order,
// from construction through AllocateTensors. The sequence does not depend
// on the arena size, so it is built once and replayed per size
// (arena_replay.h).
#ifndef TFLM_ARENA_TFLM_ALLOCATION_TRACE_H_
#define TFLM_ARENA_TFLM_ALLOCATION_TRACE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "tflm_arena/core/allocation_category.h"
#include "tflm_arena/core/span.h"
#include "tflm_arena/core/status.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/model.h"
#include "tflm_arena/tflm/cmsis_nn_kernels.h"
#include "tflm_arena/tflm/esp_nn_kernels.h"
#include "tflm_arena/tflm/kernel_library.h"
#include "tflm_arena/tflm/kernel_refusals.h"
#include "tflm_arena/tflm/kernel_table.h"
#include "tflm_arena/tflm/target_abi.h"

namespace tflm_arena {
namespace tflm {

// Tail allocations carry one of the shared categories
// (core/allocation_category.h): TFLM's RecordingMicroAllocator categories,
// and kOther for tail bytes TFLM attributes to none.
using Category = AllocationCategory;
// TFLM's categories, the ones the recording allocator prints.
constexpr size_t kNumCategories = kRecordedCategoryCount;

enum class PlannerKind : uint8_t { kGreedy = 0, kLinear };

enum class EventKind : uint8_t {
  kTail,            // AllocatePersistentBuffer(size, align)
  kTemp,            // AllocateTemp(size, align)
  kResetTemp,       // ResetTempAllocations()
  kResizeHead,      // ResizeBuffer of the head buffer to `size`
  kPlannerScratch,  // AllocateTemp(GetAvailableMemory(16), 16) + planner Init
};

struct Event {
  EventKind kind = EventKind::kTail;
  uint64_t size = 0;
  uint32_t align = 1;
  Category category = Category::kOther;
  uint32_t count = 1;  // added to the category's allocation count
  // kTemp: leading bytes TFLM still reads after later tail allocations (a
  // tail allocation must not cover them; see arena_replay.h). All of them
  // unless noted: a temp tensor's TfLiteAffineQuantization is only read
  // through its scale and zero_point pointers, its zero-point array not at
  // all, once the kernel allocates persistent data.
  uint64_t protect = UINT64_MAX;
  const char* what = "";  // static text for messages ("OpData", ...)
  int32_t op = -1;        // operator index (subgraph 0 first), or -1
};

struct Trace {
  std::vector<Event> events;
  std::vector<const char*> op_names;  // per operator, for messages
  PlannerKind planner = PlannerKind::kGreedy;
  size_t planned_buffers = 0;  // planner AddBuffer calls
  size_t scratch_requests = 0;
  // The kernels' RequestScratchBufferInArena calls, in Prepare order (what
  // TFLM appends to the planner after the tensors; plan them with the
  // tensors to write an offline plan TFLM can keep, see tflm_plan.py).
  std::vector<model::ScratchRequest> scratch;
  int64_t head_usage = 0;  // planner's GetMaximumMemorySize()
  // The first `allocator_events` events are the objects one MicroAllocator
  // creates once (its buffer allocator, the planner, itself); a second
  // interpreter on the same allocator starts after them.
  size_t allocator_events = 0;
  // The kResizeHead event that reserves the activation plan
  // (ReserveNonPersistentOverlayMemory in CommitStaticMemoryPlan).
  size_t head_plan_event = 0;
  // Set when BuildTrace returns kFailedPrecondition: stock TFLM refuses the
  // model at every arena size (kernel_refusals.h).
  Refusal refusal;
  // MicroResourceVariables the application created (0: none), and whether
  // its object and array are in this arena (TraceOptions).
  uint32_t resource_variables = 0;
  bool resource_variables_in_arena = true;
};

struct TraceOptions {
  const TargetAbi* target = nullptr;  // required
  Span<const KernelRow> kernels;      // e.g. ReferenceKernels()
  // The library whose Prepare-time allocations the kCmsisNn and kEspNn
  // steps size (its backend or size set); a step of another library than
  // this one is an internal error.
  KernelLibrary library = ReferenceLibrary{};
  // The esp-nn release whose size formulas the kEspNn steps use.
  EspNnVersion esp_nn_version = EspNnVersion::kV1_2_3;
  // Builtin names and custom codes the build's resolver cannot register
  // (an older TFLM release, stack_versions.h): refused at registration.
  Span<const char* const> unregistered;
  bool recording = false;  // RecordingMicroAllocator
  PlannerKind planner = PlannerKind::kGreedy;
  // MicroResourceVariables::Create(allocator, n) as the application calls
  // it before the interpreter: n variables (-1: the tflite-micro wheel's
  // rule, one per distinct VAR_HANDLE shared_name of the model, none when
  // it has no VAR_HANDLE), their object and array in this arena's tail
  // (false: in another arena, as ESPHome's micro_wake_word creates 20 in a
  // 1 KiB arena of their own; the variables' buffers are always this
  // arena's, allocated by ASSIGN_VARIABLE's Prepare).
  int32_t resource_variables = -1;
  bool resource_variables_in_arena = true;
  // TFLM built with the Ethos-U kernel (kernels/ethos_u/): the custom
  // operator "ethos-u" is registered (custom_kernels.h). Otherwise TFLM's
  // Register_ETHOSU is null and a Vela model is refused at registration.
  bool ethos_u = false;
};

// The wheel's count of resource variables: distinct VAR_HANDLE shared_name
// strings over every subgraph (its runtime.py, count_resource_variables).
// kInvalidArgument for a VAR_HANDLE whose options cannot be read.
Status CountResourceVariables(const model::Model& model, uint32_t* count);

// kFailedPrecondition with out->refusal set when TFLM refuses the model
// whatever the arena: an operator it has no registration for (a builtin
// outside registered_ops.h, a custom code none of its kernels has), or a
// kernel's Prepare check (the first such operator in Prepare order);
// kUnimplemented naming the operator when a registered operator's memory is
// not modelled (DECODE), for compression metadata and offline plans under
// the linear planner; model errors as the lifetime code reports them.
Status BuildTrace(const model::Model& model, const TraceOptions& options, Trace* out);

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_ALLOCATION_TRACE_H_
