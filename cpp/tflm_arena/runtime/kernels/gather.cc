// GATHER glue: options parsing, prepare / invoke over KernelContext (math in
// gather_math.cc). No init, as TFLM: invoke recomputes the geometry from
// the tensors and the options.
#include "tflm_arena/runtime/kernels/gather.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "GATHER";
constexpr TensorType kTypes[] = {TensorType::kFloat32, TensorType::kInt8};

// GatherOptions: axis 0, batch_dims 1.
void ReadGather(model::OptionsTable& table, GatherOptions& o) {
  o.axis = table.Int32(0, 0);
  o.batch_dims = table.Int32(1, 0);
}

GatherOptions Options(const Node& node) {
  return node.builtin_data != nullptr ? node.options<GatherOptions>() : GatherOptions();
}

Status GatherPrepare(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 2, 2, 1, 2));
  model::TensorInfo in, coords, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, &coords));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
  if (coords.type != TensorType::kInt32) {
    return Status::Error(StatusCode::kUnimplemented, "%s: positions of type %s not supported", kOp,
                         model::TensorTypeName(coords.type));
  }
  TFLM_ARENA_RETURN_IF_ERROR(RequireType(kOp, "input", in.type, kTypes, 2));
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(kOp, "input", in, "output", out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireMaxRank(kOp, "input", in, kGatherMaxRank));
  TFLM_ARENA_RETURN_IF_ERROR(RequireMaxRank(kOp, "positions", coords, kGatherMaxRank));
  GatherGeometry g;
  TFLM_ARENA_RETURN_IF_ERROR(PrepareGather(Options(node), in.shape.data(),
                                           static_cast<int>(in.shape.size()), coords.shape.data(),
                                           static_cast<int>(coords.shape.size()), out.shape.data(),
                                           static_cast<int>(out.shape.size()), &g));
  if (coords.has_constant_data) {
    const EvalTensor* c = context.input(node, 1);
    if (c == nullptr || (coords.num_elements > 0 && c->data == nullptr)) {
      return NodeNotPrepared(kOp);
    }
    TFLM_ARENA_RETURN_IF_ERROR(CheckGatherPositions(g, c->as<const int32_t>()));
  }
  // TFLM copies the output dims into persistent memory here; the same
  // request keeps the arena figures equal. Our dims stay in the model, so
  // the buffer's first int says instead whether the positions are constant
  // and were checked above (invoke then skips the check).
  void* memory = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(
      context.AllocatePersistentBuffer(sizeof(int32_t) * (1 + out.shape.size()), &memory));
  static_cast<int32_t*>(memory)[0] = coords.has_constant_data ? 1 : 0;
  node.user_data = memory;
  return Status::Ok();
}

Status GatherInvoke(KernelContext& context, Node& node) {
  const EvalTensor* in = context.input(node, 0);
  const EvalTensor* coords = context.input(node, 1);
  EvalTensor* out = context.output(node, 0);
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, in));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, coords));
  TFLM_ARENA_RETURN_IF_ERROR(RequireData(kOp, out));
  if (in->rank > kGatherMaxRank || coords->rank > kGatherMaxRank) return NodeNotPrepared(kOp);
  GatherGeometry g;
  Status s = PrepareGather(Options(node), in->dims, in->rank, coords->dims, coords->rank, out->dims,
                           out->rank, &g);
  if (!s.ok()) return NodeNotPrepared(kOp);
  // Positions that are an activation are checked on every invoke.
  const bool checked =
      node.user_data != nullptr && static_cast<const int32_t*>(node.user_data)[0] == 1;
  if (!checked) TFLM_ARENA_RETURN_IF_ERROR(CheckGatherPositions(g, coords->as<const int32_t>()));
  GatherCopy(g, model::ElementByteSize(in->type), in->data, coords->as<const int32_t>(), out->data);
  return Status::Ok();
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinGather, kOp, nullptr, GatherPrepare, GatherInvoke,
                     OptionsReader<GatherOptions, ReadGather>(model::kGatherOptions));

}  // namespace

const KernelRegistration& Register_GATHER() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
