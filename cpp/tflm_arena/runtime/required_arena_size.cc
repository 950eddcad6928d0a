#include "tflm_arena/runtime/required_arena_size.h"

#include <algorithm>
#include <memory>
#include <new>
#include <vector>

#include "tflm_arena/core/align.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr size_t kSlackBytes = size_t{64} * 1024;
constexpr size_t kBytesPerTensorOrOperator = 512;
constexpr size_t kGenerousCapBytes = size_t{64} << 20;
constexpr size_t kMaxArenaBytes = size_t{1} << (sizeof(size_t) >= 8 ? 40 : 30);

// A heap block whose usable part starts 16-aligned.
class AlignedBlock {
 public:
  explicit AlignedBlock(size_t bytes)
      : storage_(new (std::nothrow) uint8_t[bytes + kArenaAlignment]), size_(bytes) {}
  bool ok() const { return storage_ != nullptr; }
  uint8_t* data() const { return AlignPointerUp(storage_.get(), kArenaAlignment); }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<uint8_t[]> storage_;
  size_t size_;
};

// An arena that fits every model seen so far in one run: room for every
// tensor twice (activations, misaligned constants copied to the tail,
// kernel data sized like their weights), the per-tensor and per-operator
// records, and slack for scratch and planning temp. A model that needs more
// is retried larger (RequiredArenaSize).
// Capped so that a huge model does not ask the heap for a block it may not
// have; it grows from there.
size_t GenerousArenaBytes(const model::Model& model) {
  size_t bytes = kSlackBytes;
  for (size_t sg = 0; sg < model.num_subgraphs() && bytes < kGenerousCapBytes; ++sg) {
    const size_t tensors = model.num_tensors(sg);
    bytes += kBytesPerTensorOrOperator * (tensors + model.num_operators(sg));
    for (size_t t = 0; t < tensors && bytes < kGenerousCapBytes; ++t) {
      size_t tensor_bytes = 0;
      // A tensor without a size (string, ...) is the run's to report.
      if (!model.tensor_bytes(sg, t, &tensor_bytes).ok()) continue;
      bytes += 2 * std::min(AlignSizeUp(tensor_bytes, kArenaAlignment), kGenerousCapBytes);
    }
  }
  return std::min(bytes, kGenerousCapBytes);
}

// One AllocateTensors() run in an arena of `arena_bytes`.
Status TryAllocate(const model::Model& model, const OpResolver& resolver,
                   const InterpreterOptions& options,
                   const std::vector<Preallocation>& preallocations, size_t arena_bytes,
                   size_t* required) {
  AlignedBlock arena(arena_bytes);
  if (!arena.ok()) {
    return Status::Error(StatusCode::kInternal,
                         "RequiredArenaSize: cannot get %zu bytes from the heap", arena_bytes);
  }
  Interpreter interpreter(model, resolver, arena.data(), arena.size(), options);
  for (const Preallocation& p : preallocations) {
    TFLM_ARENA_RETURN_IF_ERROR(
        interpreter.RegisterPreallocatedTensor(p.tensor_index, p.buffer, p.bytes));
  }
  TFLM_ARENA_RETURN_IF_ERROR(interpreter.AllocateTensors());
  *required = interpreter.required_arena_bytes();
  return Status::Ok();
}

}  // namespace

Status RequiredArenaSize(const model::Model& model, const OpResolver& resolver,
                         const InterpreterOptions& options,
                         Span<const Preallocation> preallocations, size_t* bytes) {
  if (bytes == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "RequiredArenaSize: null output");
  }
  *bytes = 0;
  // Stand-ins for preallocations given without a buffer.
  std::vector<std::unique_ptr<AlignedBlock>> stand_ins;
  std::vector<Preallocation> prealloc(preallocations.begin(), preallocations.end());
  for (Preallocation& p : prealloc) {
    if (p.buffer != nullptr) continue;
    stand_ins.push_back(std::make_unique<AlignedBlock>(std::max<size_t>(p.bytes, 1)));
    if (!stand_ins.back()->ok()) {
      return Status::Error(StatusCode::kInternal,
                           "RequiredArenaSize: cannot get %zu bytes from the heap", p.bytes);
    }
    p.buffer = stand_ins.back()->data();
  }

  // One measuring run in an arena large enough for (almost) any model:
  // the allocation sequence does not depend on the arena size, so the peak
  // it records is exactly what the smallest arena needs. Untouched pages of
  // the generous block cost nothing. Only a model whose kernels ask for more
  // than the estimate needs a second (larger) run.
  size_t size = GenerousArenaBytes(model);
  size_t required = 0;
  for (;;) {
    Status s = TryAllocate(model, resolver, options, prealloc, size, &required);
    if (s.ok()) break;
    if (s.code() != StatusCode::kArenaTooSmall) return s;
    if (size >= kMaxArenaBytes) {
      return Status::Error(StatusCode::kArenaTooSmall,
                           "RequiredArenaSize: no arena up to %zu bytes is "
                           "enough: %s",
                           size, s.message());
    }
    // needed_bytes() is a lower bound for the step that failed; later steps
    // may need more, so at least double.
    size = std::min(kMaxArenaBytes, std::max(size * 2, AlignSizeUp(s.needed_bytes(), 1024) + 1024));
  }
  *bytes = required;
  return Status::Ok();
}

}  // namespace runtime
}  // namespace tflm_arena
