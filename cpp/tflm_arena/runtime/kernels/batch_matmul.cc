// BATCH_MATMUL glue: options parsing, init / prepare / invoke over
// KernelContext (math in batch_matmul_math.cc).
#include "tflm_arena/runtime/kernels/batch_matmul.h"

#include <new>

#include "tflm_arena/runtime/kernel_api.h"
#include "tflm_arena/runtime/kernels/kernel_util.h"
#include "tflm_arena/runtime/kernels/registrations.h"
#include "tflm_arena/runtime/kernels/tensor_checks.h"

namespace tflm_arena {
namespace runtime {
namespace {

using model::TensorType;
constexpr const char* kOp = "BATCH_MATMUL";
constexpr size_t kEvalTensorBytes = 24;  // TFLM's TfLiteEvalTensor on 64-bit

// BatchMatMulOptions: adj_x 0, adj_y 1, asymmetric_quantize_inputs 2.
void ReadBatchMatMul(model::OptionsTable& table, BatchMatMulOptions& o) {
  o.adj_x = table.Bool(0, false);
  o.adj_y = table.Bool(1, false);
  o.asymmetric_quantize_inputs = table.Bool(2, false);
}

// The node's options; absent ones are the format's defaults (adj_x and
// adj_y false), as TFLM's parser makes them.
const BatchMatMulOptions& OptionsOf(const Node& node) {
  static const BatchMatMulOptions kDefaults;
  return node.builtin_data != nullptr ? node.options<BatchMatMulOptions>() : kDefaults;
}

size_t DimsBytes(size_t rank) { return 4 + 4 * rank; }  // TfLiteIntArray

// TFLM's AllocInitTransposeTensorFromTfLiteTensor: an eval tensor, its dims
// and a data buffer the size of the tensor, each persistent. Only the data
// is used here; the other two keep the persistent figures TFLM's.
Status AllocateTransposed(KernelContext& context, const model::TensorInfo& t, void** data) {
  void* unused = nullptr;
  TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(kEvalTensorBytes, &unused));
  TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(DimsBytes(t.shape.size()), &unused));
  const size_t bytes =
      static_cast<size_t>(SafeElementCount(t.shape)) * (t.type == TensorType::kFloat32 ? 4
                                                        : t.type == TensorType::kInt16 ? 2
                                                                                       : 1);
  return context.AllocatePersistentBuffer(bytes, data);
}

Status BatchMatMulPrepare(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  if (node.inputs.size() != 2 || node.outputs.size() != 1 || node.inputs[0] < 0 ||
      node.inputs[1] < 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "%s: expected 2 present inputs and 1 output, got %zu and %zu", kOp,
                         node.inputs.size(), node.outputs.size());
  }
  model::TensorInfo lhs, rhs, output;
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 0, &lhs));
  TFLM_ARENA_RETURN_IF_ERROR(context.input_info(node, 1, &rhs));
  TFLM_ARENA_RETURN_IF_ERROR(context.output_info(node, 0, &output));
  const BatchMatMulOptions& o = OptionsOf(node);
  BatchMatMulQuant quant;
  TFLM_ARENA_RETURN_IF_ERROR(PrepareBatchMatMul(o, lhs, rhs, output, &quant));
  auto* data = static_cast<BatchMatMulOpData*>(node.user_data);
  // In TFLM's order: quantization data, transposed copies, output dims.
  if (lhs.type != TensorType::kFloat32) {
    void* memory = nullptr;
    TFLM_ARENA_RETURN_IF_ERROR(context.AllocatePersistentBuffer(sizeof(BatchMatMulQuant), &memory));
    data->quant = new (memory) BatchMatMulQuant(quant);
  }
  if (o.adj_x) TFLM_ARENA_RETURN_IF_ERROR(AllocateTransposed(context, lhs, &data->lhs_transposed));
  if (!o.adj_y) TFLM_ARENA_RETURN_IF_ERROR(AllocateTransposed(context, rhs, &data->rhs_transposed));
  data->rhs_is_transposed = false;
  data->lhs_is_constant = lhs.has_constant_data;
  data->rhs_is_constant = rhs.has_constant_data;
  void* unused = nullptr;
  return context.AllocatePersistentBuffer(DimsBytes(output.shape.size()), &unused);
}

Status BatchMatMulInvoke(KernelContext& context, Node& node) {
  if (node.user_data == nullptr) return NodeNotPrepared(kOp);
  auto& data = *static_cast<BatchMatMulOpData*>(node.user_data);
  const BatchMatMulOptions& o = OptionsOf(node);
  const EvalTensor* lhs = context.input(node, 0);
  const EvalTensor* rhs = context.input(node, 1);
  EvalTensor* out = context.output(node, 0);
  if (lhs == nullptr || rhs == nullptr || out == nullptr || lhs->data == nullptr ||
      rhs->data == nullptr || out->data == nullptr || (o.adj_x && data.lhs_transposed == nullptr) ||
      (!o.adj_y && data.rhs_transposed == nullptr) ||
      (lhs->type != TensorType::kFloat32 && data.quant == nullptr)) {
    return NodeNotPrepared(kOp);
  }
  const Span<const int32_t> lhs_shape(lhs->dims, static_cast<size_t>(lhs->rank));
  const Span<const int32_t> rhs_shape(rhs->dims, static_cast<size_t>(rhs->rank));
  const size_t element = lhs->type == TensorType::kFloat32 ? 4
                         : lhs->type == TensorType::kInt16 ? 2
                                                           : 1;
  const void* l = lhs->data;
  const void* r = rhs->data;
  if (o.adj_x) {
    TransposeLastTwo(lhs_shape, element, lhs->data, data.lhs_transposed);
    l = data.lhs_transposed;
  }
  if (!o.adj_y) {
    // A constant rhs is transposed once, as TFLM does.
    if (!(data.rhs_is_constant && data.rhs_is_transposed)) {
      TransposeLastTwo(rhs_shape, element, rhs->data, data.rhs_transposed);
      data.rhs_is_transposed = true;
    }
    r = data.rhs_transposed;
  }
  const BatchMatMulDims d = MakeBatchMatMulDims(lhs_shape, rhs_shape, o.adj_x, o.adj_y);
  switch (lhs->type) {
    case TensorType::kFloat32:
      BatchMatMulFloat(d, static_cast<const float*>(l), static_cast<const float*>(r),
                       out->as<float>());
      return Status::Ok();
    case TensorType::kInt8:
      BatchMatMulInt8(d, *data.quant, static_cast<const int8_t*>(l), static_cast<const int8_t*>(r),
                      out->as<int8_t>());
      return Status::Ok();
    case TensorType::kInt16:
      BatchMatMulInt16(d, *data.quant, static_cast<const int16_t*>(l),
                       static_cast<const int16_t*>(r), out->as<int16_t>());
      return Status::Ok();
    default:
      return Status::Error(StatusCode::kUnimplemented, "%s: type %s not supported", kOp,
                           model::TensorTypeName(lhs->type));
  }
}

constexpr KernelRegistration kRegistration = MakeRegistration(
    model::kBuiltinBatchMatmul, kOp, InitOpData<BatchMatMulOpData>, BatchMatMulPrepare,
    BatchMatMulInvoke,
    OptionsReader<BatchMatMulOptions, ReadBatchMatMul>(model::kBatchMatMulOptions));

}  // namespace

const KernelRegistration& Register_BATCH_MATMUL() { return kRegistration; }

}  // namespace runtime
}  // namespace tflm_arena
