#include "tflm_arena/tflm/kernel_refusals.h"

#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace tflm {
namespace {

using model::TensorType;

constexpr char kHybrid[] = "Hybrid models are not supported on TFLite Micro.";

struct Tensors {
  const model::Model& model;
  size_t sg;
  const model::OperatorInfo& op;

  // Type of input/output `index`; *present false when absent (-1 or short list).
  Status Type(bool output, int index, TensorType* type, bool* present) const {
    Span<const int32_t> list = output ? op.outputs : op.inputs;
    *present = index >= 0 && static_cast<size_t>(index) < list.size() && list[index] >= 0;
    if (!*present) return Status::Ok();
    model::TensorInfo t;
    TFLM_ARENA_RETURN_IF_ERROR(model.tensor(sg, static_cast<size_t>(list[index]), &t));
    *type = t.type;
    return Status::Ok();
  }
};

std::string Name(TensorType t) { return model::TensorTypeName(t); }

// TF_LITE_ENSURE_TYPES_EQ's text: "a != b (X != Y)".
std::string NotEqual(const char* a, const char* b, TensorType x, TensorType y) {
  return std::string(a) + " != " + b + " (" + Name(x) + " != " + Name(y) + ")";
}

bool IsInt8Or4(TensorType t) { return t == TensorType::kInt8 || t == TensorType::kInt4; }

// Sets *reason (non-empty) when the kernel refuses.
Status Check(TypeRule rule, const Tensors& n, std::string* reason, const char** source) {
  TensorType in = TensorType::kFloat32, filter = TensorType::kFloat32, out = TensorType::kFloat32;
  bool p_in = false, p_filter = false, p_out = false;
  switch (rule) {
    case TypeRule::kNone:
      return Status::Ok();
    case TypeRule::kConv:
      *source = "conv_common.cc, ConvPrepare";
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 0, &in, &p_in));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 1, &filter, &p_filter));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(true, 0, &out, &p_out));
      if (!p_in || !p_filter || !p_out) return Status::Ok();  // shape checks elsewhere
      if (in != out) {
        *reason = NotEqual("input->type", "output->type", in, out);
      } else if (!((in == TensorType::kFloat32 && filter == TensorType::kFloat32) ||
                   (in == TensorType::kInt16 && filter == TensorType::kInt8) ||
                   (in == TensorType::kInt8 && IsInt8Or4(filter)))) {
        *reason = kHybrid;
      }
      return Status::Ok();
    case TypeRule::kDepthwiseConv:
      *source = "depthwise_conv_common.cc, DepthwiseConvPrepare";
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 0, &in, &p_in));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 1, &filter, &p_filter));
      if (!p_in || !p_filter) return Status::Ok();
      if (!(in == filter || (in == TensorType::kInt8 && IsInt8Or4(filter)) ||
            (in == TensorType::kInt16 && filter == TensorType::kInt8))) {
        *reason = kHybrid;
      }
      return Status::Ok();
    case TypeRule::kTransposeConv:
      // Inputs: 0 output shape, 1 filter, 2 input.
      *source = "transpose_conv.cc, TransposeConvPrepare";
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 2, &in, &p_in));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 1, &filter, &p_filter));
      if (!p_in || !p_filter) return Status::Ok();
      if (!(in == filter || (in == TensorType::kInt16 && filter == TensorType::kInt8))) {
        *reason = kHybrid;
      }
      return Status::Ok();
    case TypeRule::kTransposeConvArduino: {
      // CalculateOpData tests bias->type for int16 inputs before checking
      // that the optional bias (input 3) exists (fixed upstream later).
      *source = "transpose_conv.cpp of the Arduino library, CalculateOpData";
      TensorType bias = TensorType::kFloat32;
      bool p_bias = false;
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 2, &in, &p_in));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 3, &bias, &p_bias));
      if (p_in && in == TensorType::kInt16 && !p_bias) {
        *reason =
            "it crashes: an int16 TRANSPOSE_CONV without a bias makes Prepare read the absent "
            "bias's type through a null pointer";
      }
      return Status::Ok();
    }
    case TypeRule::kFullyConnected:
      *source = "fully_connected.cc, FullyConnectedPrepare";
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 0, &in, &p_in));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 1, &filter, &p_filter));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(true, 0, &out, &p_out));
      if (!p_in || !p_filter || !p_out) return Status::Ok();
      if (in != out) {
        *reason = NotEqual("input->type", "output->type", in, out);
      } else if ((in == TensorType::kFloat32 && filter != TensorType::kFloat32) ||
                 (in == TensorType::kInt8 && !IsInt8Or4(filter)) ||
                 (in == TensorType::kInt16 && filter != TensorType::kInt8)) {
        *reason =
            "Input type: " + Name(in) + " with filter type: " + Name(filter) + " not supported.";
      }
      return Status::Ok();
    case TypeRule::kBatchMatMul: {
      // Inputs: 0 lhs, 1 rhs; the rank checks after these are not modelled.
      *source = "batch_matmul.cc, BatchMatMulPrepare";
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 0, &in, &p_in));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 1, &filter, &p_filter));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(true, 0, &out, &p_out));
      if (!p_in || !p_filter || !p_out) return Status::Ok();
      auto supported = [](TensorType t) {
        return t == TensorType::kFloat32 || t == TensorType::kInt8 || t == TensorType::kInt16;
      };
      if (!supported(in)) {
        *reason =
            "lhs_data->type == kTfLiteFloat32 || lhs_data->type == kTfLiteInt8 || "
            "lhs_data->type == kTfLiteInt16 was not true.";
      } else if (!supported(filter)) {
        *reason =
            "rhs_data->type == kTfLiteFloat32 || rhs_data->type == kTfLiteInt8 || "
            "rhs_data->type == kTfLiteInt16 was not true.";
      } else if (in != filter) {
        *reason = "lhs_data->type == rhs_data->type was not true.";
      } else if (in != out) {
        *reason = "lhs_data->type == output->type was not true.";
      }
      return Status::Ok();
    }
    case TypeRule::kSvdf: {
      // Inputs: 0 input, 1 weights_feature, 2 weights_time, 3 bias
      // (optional), 4 activation_state. The shape checks before these are
      // the scratch rule's.
      *source = "svdf_common.cc, PrepareSvdf";
      TensorType wf = TensorType::kFloat32, wt = TensorType::kFloat32, bias = TensorType::kFloat32,
                 state = TensorType::kFloat32;
      bool p_wf, p_wt, p_bias, p_state;
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 0, &in, &p_in));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 1, &wf, &p_wf));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 2, &wt, &p_wt));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 3, &bias, &p_bias));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(false, 4, &state, &p_state));
      TFLM_ARENA_RETURN_IF_ERROR(n.Type(true, 0, &out, &p_out));
      if (!p_in || !p_wf || !p_wt || !p_state || !p_out) return Status::Ok();
      if (in != TensorType::kFloat32 && in != TensorType::kInt8) {
        *reason = "input->type == kTfLiteFloat32 || input->type == kTfLiteInt8 was not true.";
      } else if (in == TensorType::kInt8) {
        if (wf != TensorType::kInt8) {
          *reason = NotEqual("weights_feature->type", "kTfLiteInt8", wf, TensorType::kInt8);
        } else if (wt != TensorType::kInt16 && wt != TensorType::kInt8) {
          *reason =
              "(weights_time->type == kTfLiteInt16) || (weights_time->type == "
              "kTfLiteInt8) was not true.";
        } else if (state != TensorType::kInt16 && state != TensorType::kInt8) {
          *reason =
              "(activation_state->type == kTfLiteInt16) || (activation_state->type == "
              "kTfLiteInt8) was not true.";
        } else if (p_bias && bias != TensorType::kInt32) {
          *reason = NotEqual("bias->type", "kTfLiteInt32", bias, TensorType::kInt32);
        } else if (out != TensorType::kInt8) {
          *reason = NotEqual("output->type", "kTfLiteInt8", out, TensorType::kInt8);
        }
      } else {
        if (wf != TensorType::kFloat32) {
          *reason = NotEqual("weights_feature->type", "kTfLiteFloat32", wf, TensorType::kFloat32);
        } else if (wt != TensorType::kFloat32) {
          *reason = NotEqual("weights_time->type", "kTfLiteFloat32", wt, TensorType::kFloat32);
        } else if (state != TensorType::kFloat32) {
          *reason =
              NotEqual("activation_state->type", "kTfLiteFloat32", state, TensorType::kFloat32);
        } else if (p_bias && bias != TensorType::kFloat32) {
          *reason = NotEqual("bias->type", "kTfLiteFloat32", bias, TensorType::kFloat32);
        } else if (out != TensorType::kFloat32) {
          *reason = NotEqual("output->type", "kTfLiteFloat32", out, TensorType::kFloat32);
        }
      }
      return Status::Ok();
    }
  }
  return Status::Ok();
}

}  // namespace

Status RefusalStatus(const Refusal& r) {
  return Status::Error(StatusCode::kFailedPrecondition,
                       "stock TFLM refuses the model at every arena size: %s (subgraph %zu, "
                       "operator %zu): %s (TFLM's %s)",
                       r.op_name.c_str(), r.subgraph, r.op_index, r.reason.c_str(),
                       r.source.c_str());
}

Status CheckKernelTypes(TypeRule rule, const char* op_name, const model::Model& model, size_t sg,
                        size_t op_index, const model::OperatorInfo& op, Refusal* refusal) {
  std::string reason;
  const char* source = "";
  TFLM_ARENA_RETURN_IF_ERROR(Check(rule, Tensors{model, sg, op}, &reason, &source));
  if (reason.empty()) return Status::Ok();
  refusal->refused = true;
  refusal->reason = reason;
  refusal->source = source;
  refusal->op_name = op_name;
  refusal->subgraph = sg;
  refusal->op_index = op_index;
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
