// SQUEEZE glue: options parsing, prepare / invoke over KernelContext. No
// init and no OpData, as TFLM.
#include "tflm_arena/runtime/kernels/squeeze.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/reshape.h"
#include "tflm_arena/runtime/kernels/shape_glue.h"

namespace tflm_arena {
namespace runtime {
namespace {

constexpr const char* kOp = "SQUEEZE";

// SqueezeOptions: squeeze_dims 0 ([int], at most 8 entries like TFLM's
// parser).
Status ParseSqueeze(model::OptionsTable& table, void* out) {
  SqueezeOptions o;
  Span<const int32_t> dims;
  if (table.Int32Vector(0, &dims)) {
    if (dims.size() > static_cast<size_t>(kSqueezeMaxDims)) {
      return Status::Error(StatusCode::kInvalidArgument, "SQUEEZE: %zu squeeze_dims, at most %d",
                           dims.size(), kSqueezeMaxDims);
    }
    for (size_t i = 0; i < dims.size(); ++i) o.squeeze_dims[i] = dims[i];
    o.num_squeeze_dims = static_cast<int32_t>(dims.size());
  }
  new (out) SqueezeOptions(o);
  return Status::Ok();
}

Status SqueezePrepare(KernelContext& context, Node& node) {
  TFLM_ARENA_RETURN_IF_ERROR(CheckArity(node, kOp, 1, 1, 1, 1));
  model::TensorInfo in, out;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &in));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireWritableOutput(kOp, out));
  TFLM_ARENA_RETURN_IF_ERROR(RequireSameType(kOp, "input", in, "output", out));
  if (model::ElementByteSize(in.type) == 0 || in.type == model::TensorType::kString) {
    return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                         model::TensorTypeName(in.type));
  }
  const SqueezeOptions options =
      node.builtin_data != nullptr ? node.options<SqueezeOptions>() : SqueezeOptions();
  TFLM_ARENA_RETURN_IF_ERROR(
      CheckSqueezeDims(options, in.shape.data(), static_cast<int>(in.shape.size())));
  if (in.num_elements != out.num_elements) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: input has %llu elements but output has %llu", kOp,
                         static_cast<unsigned long long>(in.num_elements),
                         static_cast<unsigned long long>(out.num_elements));
  }
  return Status::Ok();
}

Status SqueezeInvoke(KernelContext& context, Node& node) {
  return InvokeCopyReshaped(context, node, kOp);
}

constexpr KernelRegistration kRegistration =
    MakeRegistration(model::kBuiltinSqueeze, kOp, nullptr, SqueezePrepare, SqueezeInvoke,
                     MakeOptionsParser<SqueezeOptions>(model::kSqueezeOptions, ParseSqueeze));

}  // namespace

const KernelRegistration& Register_SQUEEZE() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
