// STRIDED_SLICE glue: options parsing, init / prepare / invoke over
// KernelContext (math in strided_slice_math.cc).
#include "tflm_arena/runtime/kernels/strided_slice.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "STRIDED_SLICE";
constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kInt8, TensorType::kInt16,
                                 TensorType::kInt32, TensorType::kBool};

// StridedSliceOptions: begin_mask 0, end_mask 1, ellipsis_mask 2,
// new_axis_mask 3, shrink_axis_mask 4, offset 5.
void ReadStridedSlice(model::OptionsTable& table, StridedSliceOptions& o) {
  o.begin_mask = table.Int32(0, 0);
  o.end_mask = table.Int32(1, 0);
  o.ellipsis_mask = table.Int32(2, 0);
  o.new_axis_mask = table.Int32(3, 0);
  o.shrink_axis_mask = table.Int32(4, 0);
  o.offset = table.Bool(5, false);
}

Status StridedSlicePrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 4, 4, 1, 4));
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireType(kOp, "input", in.type, kTypes, 5));
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(kOp, "input", in, "output", out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireMaxRank(kOp, "input", in, kStridedSliceMaxInputRank));
  const int rank = static_cast<int>(in.shape.size());
  const char* roles[3] = {"begin", "end", "strides"};
  const int32_t* index[3] = {};
  for (size_t i = 0; i < 3; ++i) {
    size_t count = 0;
    TFLM_ARENA_RETURN_IF_ERROR(
        ConstInt32Input(context, node, i + 1, kOp, roles[i], &index[i], &count));
    if (count != static_cast<size_t>(rank)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: %s has %zu entries, the input rank is %d", kOp, roles[i], count,
                           rank);
    }
  }
  const StridedSliceOptions options =
      node.builtin_data != nullptr ? node.options<StridedSliceOptions>() : StridedSliceOptions();
  return PrepareStridedSlice(in.shape.data(), rank, index[0], index[1], index[2], options,
                             out.shape.data(), static_cast<int>(out.shape.size()), out.num_elements,
                             static_cast<StridedSliceOpData*>(node.user_data));
}

Status StridedSliceInvoke(KernelContext& context, Node& node) {
  const EvalTensor* in = context.input(node, 0);
  EvalTensor* out = context.output(node, 0);
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, in));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, out));
  const auto& data = *static_cast<const StridedSliceOpData*>(node.user_data);
  if (data.start_indices_count != in->rank) return NodeNotPrepared(kOp);
  StridedSliceCopy(data, in->dims, in->rank, model::ElementByteSize(in->type), in->data, out->data);
  return Status::Ok();
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinStridedSlice, kOp, InitOpData<StridedSliceOpData>, StridedSlicePrepare,
    StridedSliceInvoke,
    OptionsReader<StridedSliceOptions, ReadStridedSlice>(model::kStridedSliceOptions));

}  // namespace

const KernelRegistration& Register_STRIDED_SLICE() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
