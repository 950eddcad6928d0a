// MEAN glue: options parsing, init / prepare / invoke over KernelContext
// (math in mean_math.cc).
#include "tflm_arena/runtime/kernels/mean.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "MEAN";
constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kInt8, TensorType::kInt16};

// ReducerOptions: keep_dims 0.
void ReadReducer(model::OptionsTable& table, ReducerOptions& o) {
  o.keep_dims = table.Bool(0, false);
}

// The kept extents' product for these axes, after checking them.
Status KeptCount(const int32_t* shape, int rank, const int32_t* axis, int num_axis, bool* reduced,
                 uint64_t* count) {
  TFLM_ARENA_RETURN_IF_ERROR(ResolveMeanAxes(axis, num_axis, rank, reduced));
  uint64_t n = 1;
  for (int d = 0; d < rank; ++d) {
    if (!reduced[d]) n *= static_cast<uint64_t>(shape[d]);
  }
  *count = n;
  return Status::Ok();
}

Status MeanPrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 2, 2, 1, 2));
  model::TensorInfo in, axis, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, &axis));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireType(kOp, "input", in.type, kTypes, 3));
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(kOp, "input", in, "output", out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireMaxRank(kOp, "input", in, kMeanMaxRank));
  if (axis.type != TensorType::kInt32) {
    return Status::Error(StatusCode::kInvalidArgument, "%s: axis tensor is %s, needs INT32", kOp,
                         model::TensorTypeName(axis.type));
  }
  const int rank = static_cast<int>(in.shape.size());
  auto* data = static_cast<MeanOpData*>(node.user_data);
  data->num_axis = static_cast<int32_t>(axis.num_elements);
  data->num_output_elements = static_cast<int32_t>(out.num_elements);
  if (axis.has_constant_data) {
    const EvalTensor* a = context.input(node, 1);
    if (a == nullptr || (axis.num_elements > 0 && a->data == nullptr)) return NodeNotPrepared(kOp);
    bool reduced[kMeanMaxRank];
    uint64_t count = 0;
    TFLM_ARENA_RETURN_IF_ERROR(
        KeptCount(in.shape.data(), rank, a->as<const int32_t>(), data->num_axis, reduced, &count));
    if (count != out.num_elements) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s: output has %llu elements, the reduction %llu", kOp,
                           static_cast<unsigned long long>(out.num_elements),
                           static_cast<unsigned long long>(count));
    }
  }
  const bool quantized = in.type != TensorType::kFloat32;
  if (quantized) {
    TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "input", in));
    TFLM_ARENA_RETURN_IF_ERROR(CheckQuantization(kOp, "output", out));
    data->input_zp = TensorZeroPoint(in);
    data->input_scale = TensorScale(in);
    data->output_zp = TensorZeroPoint(out);
    data->output_scale = TensorScale(out);
    int shift = 0;
    TFLM_ARENA_RETURN_IF_ERROR(CheckedQuantizeMultiplier(
        kOp, "input/output scale",
        static_cast<double>(data->input_scale) / static_cast<double>(data->output_scale),
        &data->multiplier, &shift));
    data->shift = shift;
    int index = -1;
    TFLM_ARENA_RETURN_IF_ERROR(
        context.RequestScratchBufferInArena(sizeof(int32_t) * out.num_elements, &index));
    data->scratch_accumulator_idx = index;
  }
  // TFLM asks for these two whatever the type (our walk keeps its indices
  // on the stack; the requests keep the arena figures equal).
  int index = -1;
  TFLM_ARENA_RETURN_IF_ERROR(
      context.RequestScratchBufferInArena(sizeof(int) * static_cast<size_t>(rank), &index));
  data->scratch_input_iter_idx = index;
  TFLM_ARENA_RETURN_IF_ERROR(context.RequestScratchBufferInArena(
      sizeof(int) * static_cast<size_t>(data->num_axis), &index));
  data->scratch_resolved_axis_idx = index;
  return Status::Ok();
}

Status MeanInvoke(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  const auto& data = *static_cast<const MeanOpData*>(node.user_data);
  const EvalTensor* in = context.input(node, 0);
  const EvalTensor* axis = context.input(node, 1);
  EvalTensor* out = context.output(node, 0);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, in));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, axis));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, out));
  if (in->rank > kMeanMaxRank || axis->num_elements() != data.num_axis) {
    return NodeNotPrepared(kOp);
  }
  // The axes may be an activation: resolved and checked every time.
  bool reduced[kMeanMaxRank];
  uint64_t count = 0;
  TFLM_ARENA_RETURN_IF_ERROR(
      KeptCount(in->dims, in->rank, axis->as<const int32_t>(), data.num_axis, reduced, &count));
  if (count != static_cast<uint64_t>(out->num_elements())) {
    return Status::Error(
        StatusCode::kInvalidArgument, "%s: output has %lld elements, the reduction %llu", kOp,
        static_cast<long long>(out->num_elements()), static_cast<unsigned long long>(count));
  }
  const size_t n = static_cast<size_t>(count);
  switch (in->type) {
    case TensorType::kFloat32:
      MeanFloat(in->as<const float>(), in->dims, in->rank, reduced, n, out->as<float>());
      return Status::Ok();
    case TensorType::kInt8:
    case TensorType::kInt16: {
      auto* sum = static_cast<int32_t*>(context.GetScratchBuffer(data.scratch_accumulator_idx));
      if (sum == nullptr && n > 0) return NodeNotPrepared(kOp);
      if (in->type == TensorType::kInt8) {
        MeanInt8(data, in->as<const int8_t>(), in->dims, in->rank, reduced, n, sum,
                 out->as<int8_t>());
      } else {
        MeanInt16(data, in->as<const int16_t>(), in->dims, in->rank, reduced, n, sum,
                  out->as<int16_t>());
      }
      return Status::Ok();
    }
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                           model::TensorTypeName(in->type));
  }
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinMean, kOp, InitOpData<MeanOpData>, MeanPrepare, MeanInvoke,
                     OptionsReader<ReducerOptions, ReadReducer>(model::kReducerOptions));

}  // namespace

const KernelRegistration& Register_MEAN() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
