#include "tflm_arena/tflm/custom_kernels.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "tflm_arena/model/tensor_type.h"

namespace tflm_arena {
namespace tflm {
namespace {

constexpr char kCircularBuffer[] = "CIRCULAR_BUFFER";
constexpr char kDetectionPostProcess[] = "TFLite_Detection_PostProcess";
constexpr char kEthosU[] = "ethos-u";  // GetString_ETHOSU()
constexpr char kDecode[] = "TFLM_DECODE";

// Largest count or dimension a size below is computed for: far above any
// detection head, and every product of three stays exact in 64 bits.
constexpr int64_t kMaxCount = int64_t{1} << 20;

CustomStep Temp(bool output, int index) {
  CustomStep s;
  s.kind = CustomStep::kTemp;
  s.tensor = NodeTensorRef{output, index};
  return s;
}

CustomStep Scratch(uint64_t bytes, const char* what) {
  CustomStep s;
  s.kind = CustomStep::kScratch;
  s.bytes = bytes;
  s.what = what;
  return s;
}

Status Invalid(const char* op, size_t sg, size_t op_index, const std::string& what) {
  return Status::Error(StatusCode::kInvalidArgument,
                       "custom operator '%s' (subgraph %zu, "
                       "operator %zu): %s",
                       op, sg, op_index, what.c_str());
}

// TF_LITE_ENSURE_EQ's text: "a != b (x != y)".
std::string NotEqual(const char* a, const char* b, int64_t x, int64_t y) {
  return std::string(a) + " != " + b + " (" + std::to_string(x) + " != " + std::to_string(y) + ")";
}

Status Tensor(const model::Model& model, size_t sg, const model::OperatorInfo& op, bool output,
              int index, model::TensorInfo* t, bool* present) {
  Span<const int32_t> list = output ? op.outputs : op.inputs;
  *present = index >= 0 && static_cast<size_t>(index) < list.size() && list[index] >= 0;
  if (!*present) return Status::Ok();
  return model.tensor(sg, static_cast<size_t>(list[index]), t);
}

// CIRCULAR_BUFFER (circular_buffer.cc, circular_buffer_common.cc). Init:
// OpDataCircularBuffer {int cycles_until_run, cycles_max} (8 bytes), its
// cycles_max read from the options (not a size). Prepare: temp input 0 and
// output 0, then checks on dims 0-3 and types (int8 only). The output is a
// variable tensor (the buffer itself), allocated with every variable.
Status CircularBuffer(const model::Model& model, size_t sg, size_t op_index,
                      const model::OperatorInfo& op, CustomKernelMemory* out) {
  out->source = "circular_buffer.cc circular_buffer_common.cc";
  out->init_buffers = {8};
  out->prepare = {Temp(false, 0), Temp(true, 0)};
  out->refusal_after = out->prepare.size();
  model::TensorInfo in, o;
  bool p_in = false, p_out = false;
  TFLM_ARENA_RETURN_IF_ERROR(Tensor(model, sg, op, false, 0, &in, &p_in));
  TFLM_ARENA_RETURN_IF_ERROR(Tensor(model, sg, op, true, 0, &o, &p_out));
  if (!p_in) {
    out->refusal = "input != nullptr was not true.";
    return Status::Ok();
  }
  if (!p_out) {
    out->refusal = "output != nullptr was not true.";
    return Status::Ok();
  }
  if (in.shape.size() < 4 || o.shape.size() < 4) {
    return Invalid(kCircularBuffer, sg, op_index,
                   "input and output need 4 dimensions (TFLM's Prepare reads dims 0 to 3)");
  }
  if (in.shape[0] != o.shape[0]) {
    out->refusal =
        NotEqual("input->dims->data[0]", "output->dims->data[0]", in.shape[0], o.shape[0]);
  } else if (in.shape[1] != 1) {
    out->refusal = NotEqual("1", "input->dims->data[1]", 1, in.shape[1]);
  } else if (in.shape[2] != o.shape[2]) {
    out->refusal =
        NotEqual("input->dims->data[2]", "output->dims->data[2]", in.shape[2], o.shape[2]);
  } else if (o.shape[3] != in.shape[3]) {
    out->refusal =
        NotEqual("output->dims->data[3]", "input->dims->data[3]", o.shape[3], in.shape[3]);
  } else if (in.type != o.type) {
    out->refusal = std::string("input->type != output->type (") + model::TensorTypeName(in.type) +
                   " != " + model::TensorTypeName(o.type) + ")";
  } else if (in.type != model::TensorType::kInt8) {
    out->refusal =
        std::string("input->type != kTfLiteInt8 (") + model::TensorTypeName(in.type) + " != INT8)";
  }
  return Status::Ok();
}

// Integer option `key` of a flexbuffer map as flexbuffers' AsInt32 reads it
// (absent: 0). A present value that is not an integer is an error: TFLM
// would convert it, we do not guess how.
Status IntOption(const FlexMap& m, const char* key, size_t sg, size_t op_index, int64_t* value) {
  *value = 0;
  for (size_t i = 0; i < m.keys.size(); ++i) {
    if (m.keys[i] != key) continue;
    if (!m.is_int[i]) {
      return Invalid(kDetectionPostProcess, sg, op_index,
                     std::string("option '") + key + "' is not an integer");
    }
    *value = static_cast<int32_t>(m.ints[i]);  // AsInt32
  }
  return Status::Ok();
}

// TFLite_Detection_PostProcess (detection_postprocess.cc). Init: OpData
// {int max_detections, max_classes_per_detection, detections_per_class;
// float two thresholds; int num_classes; bool; CenterSizeEncoding (4
// floats); 11 int scratch indices; 3 TfLiteQuantizationParams (float,
// int32)} = 112 bytes on every target (no pointers). Prepare: 3 inputs;
// temp box encodings, class predictions, anchors; rank checks; 4 outputs;
// 11 scratch requests by num_boxes (box encodings dim 1), max_detections
// and num_classes (custom options).
Status DetectionPostProcess(const model::Model& model, size_t sg, size_t op_index,
                            const model::OperatorInfo& op, CustomKernelMemory* out) {
  out->source = "detection_postprocess.cc";
  out->init_buffers = {112};
  if (op.custom_options.empty()) {
    // Init reads the options' root with flexbuffers::GetRoot(buffer, 0).
    return Invalid(kDetectionPostProcess, sg, op_index,
                   "no custom options (TFLM's Init reads them as a flexbuffer map)");
  }
  FlexMap m;
  std::string error;
  if (!ParseFlexMap(op.custom_options, &m, &error).ok()) {
    return Invalid(kDetectionPostProcess, sg, op_index, error);
  }
  int64_t max_detections = 0, num_classes = 0;
  TFLM_ARENA_RETURN_IF_ERROR(IntOption(m, "max_detections", sg, op_index, &max_detections));
  TFLM_ARENA_RETURN_IF_ERROR(IntOption(m, "num_classes", sg, op_index, &num_classes));

  if (op.inputs.size() != 3) {
    out->refusal = NotEqual("NumInputs(node)", "3", static_cast<int64_t>(op.inputs.size()), 3);
    return Status::Ok();
  }
  out->prepare = {Temp(false, 0), Temp(false, 1), Temp(false, 2)};
  out->refusal_after = out->prepare.size();
  model::TensorInfo boxes, classes, anchors;
  bool p0 = false, p1 = false, p2 = false;
  TFLM_ARENA_RETURN_IF_ERROR(Tensor(model, sg, op, false, 0, &boxes, &p0));
  TFLM_ARENA_RETURN_IF_ERROR(Tensor(model, sg, op, false, 1, &classes, &p1));
  TFLM_ARENA_RETURN_IF_ERROR(Tensor(model, sg, op, false, 2, &anchors, &p2));
  if (!p0 || !p1 || !p2) {
    // TFLM dereferences the null temp tensor.
    return Invalid(kDetectionPostProcess, sg, op_index, "an input is absent (-1)");
  }
  if (boxes.shape.size() != 3) {
    out->refusal = NotEqual("NumDimensions(input_box_encodings)", "3",
                            static_cast<int64_t>(boxes.shape.size()), 3);
  } else if (classes.shape.size() != 3) {
    out->refusal = NotEqual("NumDimensions(input_class_predictions)", "3",
                            static_cast<int64_t>(classes.shape.size()), 3);
  } else if (anchors.shape.size() != 2) {
    out->refusal = NotEqual("NumDimensions(input_anchors)", "2",
                            static_cast<int64_t>(anchors.shape.size()), 2);
  } else if (op.outputs.size() != 4) {
    out->refusal = NotEqual("NumOutputs(node)", "4", static_cast<int64_t>(op.outputs.size()), 4);
  }
  if (!out->refusal.empty()) return Status::Ok();

  const int64_t boxes_n = boxes.shape[1];
  const int64_t class_elems = int64_t{classes.shape[1]} * classes.shape[2];
  if (boxes_n > kMaxCount || class_elems > kMaxCount || max_detections < 0 ||
      max_detections > kMaxCount || num_classes < 0 || num_classes > kMaxCount) {
    return Invalid(kDetectionPostProcess, sg, op_index,
                   "num_boxes " + std::to_string(boxes_n) + ", max_detections " +
                       std::to_string(max_detections) + ", num_classes " +
                       std::to_string(num_classes) + ": outside [0, " + std::to_string(kMaxCount) +
                       "]");
  }
  const uint64_t nb = static_cast<uint64_t>(boxes_n);
  const uint64_t md = static_cast<uint64_t>(max_detections);
  const uint64_t nc = static_cast<uint64_t>(num_classes);
  const uint64_t f = 4;  // sizeof(float) == sizeof(int)
  out->prepare.push_back(Scratch(nb, "active candidates"));
  out->prepare.push_back(Scratch(nb * 4 * f, "decoded boxes"));
  out->prepare.push_back(Scratch(static_cast<uint64_t>(class_elems) * f, "scores"));
  out->prepare.push_back(Scratch(nb * f, "score buffer"));
  out->prepare.push_back(Scratch(nb * f, "keep scores"));
  out->prepare.push_back(Scratch(md * nb * f, "scores after regular NMS"));
  out->prepare.push_back(Scratch(md * nb * f, "sorted values"));
  out->prepare.push_back(Scratch(nb * f, "keep indices"));
  out->prepare.push_back(Scratch(md * nb * f, "sorted indices"));
  out->prepare.push_back(Scratch(std::max(nc, md) * nb * f, "buffer"));
  out->prepare.push_back(Scratch(std::min(nb, md) * nb * f, "selected"));
  return Status::Ok();
}

// ethos-u (kernels/ethos_u/ethosu.cc). Init: OpData {int cms_data_size,
// base_addr_idx, base_addr_size_idx} (12 bytes). Prepare: at least one
// input, custom options present; two scratch requests of one uint64_t and
// one size_t per node input and output (the NPU base addresses and their
// sizes), then input 0 (the command stream) as a temp tensor. The driver is
// reached only in Eval.
Status EthosU(size_t sg, size_t op_index, const model::OperatorInfo& op, const TargetAbi& abi,
              CustomKernelMemory* out) {
  (void)sg;
  (void)op_index;
  out->source = "ethos_u/ethosu.cc";
  out->init_buffers = {12};
  if (op.inputs.empty()) {
    out->refusal = "node->inputs->size > 0 was not true.";
    return Status::Ok();
  }
  if (op.custom_options.empty()) {
    out->refusal = "node->custom_initial_data_size > 0 was not true.";
    return Status::Ok();
  }
  const uint64_t n = op.inputs.size() + op.outputs.size();
  out->prepare = {Scratch(n * 8, "NPU base addresses"),
                  Scratch(n * abi.pointer_bytes, "NPU base address sizes"), Temp(false, 0)};
  if (op.inputs[0] < 0) {
    return Invalid(kEthosU, sg, op_index, "input 0 (the command stream) is absent (-1)");
  }
  return Status::Ok();
}

CustomStep Persistent(uint64_t bytes, const char* what) {
  CustomStep s;
  s.kind = CustomStep::kPersistent;
  s.bytes = bytes;
  s.what = what;
  return s;
}

// The DECODE state object each output gets (decode_state.cc,
// CreateDecodeState*), by the ancillary data's decode type (byte 0 of its
// 16-byte DCM header): sizeof measured with g++ on x86-64 (LP64) and with
// arm-linux-gnueabihf-g++ (32-bit ARM) on TFLM's headers at 90b983c2b.
struct DecodeStateSize {
  uint8_t type;
  const char* name;
  uint32_t bytes64, bytes32;
};
constexpr DecodeStateSize kDecodeStates[] = {
    {0, "DecodeStateLut", 72, 36},
    {1, "DecodeStateHuffman", 56, 28},
    {2, "DecodeStatePrune", 80, 40},
};
constexpr uint8_t kDcmTypeCustom = 127;
constexpr size_t kDcmBytes = 16;

// TFLM_DECODE (kernels/decode.cc, decode_state_{lut,prune,huffman}.cc). No
// Init. Prepare: outputs > 0 and inputs = 2 x outputs (an encoded tensor and
// its ancillary data per output); a persistent array of one pointer per
// output; per output its three temp tensors (encoded, ancillary, output),
// both inputs constant, the DCM header's version (byte 1) 1, a state object
// by the decode type, and the state's Setup: the per-type version (byte 4)
// 1; LUT and Prune take a per-channel output along axis 0 or the last axis
// only; Prune copies per-channel zero points (one byte each) when one is
// non-zero, and refuses non-zero zero points on a non-int8 output; Huffman
// with a 16-bit table (byte 5 bit 0 clear) decodes to int8 only. The
// decoded outputs are ordinary planned tensors (no decompression memory
// regions are modelled).
Status Decode(const model::Model& model, size_t sg, size_t op_index, const model::OperatorInfo& op,
              const TargetAbi& abi, CustomKernelMemory* out) {
  out->source =
      "decode.cc decode_state.cc decode_state_lut.cc decode_state_prune.cc "
      "decode_state_huffman.cc";
  const size_t n_out = op.outputs.size();
  if (n_out == 0) {
    out->refusal = "num_outputs > 0 was not true.";
    return Status::Ok();
  }
  if (op.inputs.size() != 2 * n_out) {
    out->refusal = NotEqual("num_inputs", "num_outputs * 2", static_cast<int64_t>(op.inputs.size()),
                            static_cast<int64_t>(2 * n_out));
    return Status::Ok();
  }
  out->prepare.push_back(Persistent(uint64_t{abi.pointer_bytes} * n_out, "DecodeState* array"));
  auto refuse = [&](std::string why) {
    out->refusal = std::move(why);
    out->refusal_after = out->prepare.size();
    return Status::Ok();
  };
  for (size_t i = 0; i < n_out; ++i) {
    const int in = static_cast<int>(2 * i);
    model::TensorInfo enc, anc, o;
    bool p_enc = false, p_anc = false, p_out = false;
    TFLM_ARENA_RETURN_IF_ERROR(Tensor(model, sg, op, false, in, &enc, &p_enc));
    TFLM_ARENA_RETURN_IF_ERROR(Tensor(model, sg, op, false, in + 1, &anc, &p_anc));
    TFLM_ARENA_RETURN_IF_ERROR(Tensor(model, sg, op, true, static_cast<int>(i), &o, &p_out));
    if (!p_enc) return refuse("failed to allocate input tensor " + std::to_string(in));
    out->prepare.push_back(Temp(false, in));
    if (!p_anc) return refuse("failed to allocate ancillary tensor " + std::to_string(in + 1));
    out->prepare.push_back(Temp(false, in + 1));
    if (!p_out) return refuse("failed to allocate output tensor " + std::to_string(i));
    out->prepare.push_back(Temp(true, static_cast<int>(i)));
    out->prepare.back().whole_quantization = true;  // Setup reads the axis, Prune the zero points
    if (!enc.has_constant_data) return refuse("IsConstantTensor(input) was not true.");
    if (!anc.has_constant_data) return refuse("IsConstantTensor(ancillary) was not true.");
    Span<const uint8_t> dcm = anc.constant_data;
    if (dcm.size() < kDcmBytes) {
      return Invalid("TFLM_DECODE", sg, op_index,
                     "ancillary tensor of output " + std::to_string(i) + " holds " +
                         std::to_string(dcm.size()) +
                         " bytes, less than the 16-byte header TFLM reads");
    }
    if (dcm[1] != 1) return refuse("version " + std::to_string(dcm[1]) + " != 1");
    const DecodeStateSize* state = nullptr;
    for (const DecodeStateSize& d : kDecodeStates) {
      if (d.type == dcm[0]) state = &d;
    }
    if (state == nullptr) {
      // The wheel's TFLM prints the number for the custom type too; TFLM
      // 90b983c2b says "Custom decode type not yet supported".
      return refuse("unsupported decode type " + std::to_string(dcm[0]) +
                    (dcm[0] == kDcmTypeCustom ? " (the custom type, not yet supported)" : ""));
    }
    out->prepare.push_back(
        Persistent(abi.pointer_bytes == 8 ? state->bytes64 : state->bytes32, state->name));
    // Setup.
    if (dcm[4] != 1) return refuse("unsupported version " + std::to_string(dcm[4]));
    const bool quantized = !o.scale.empty() && !o.zero_point.empty();
    if (state->type == 1) {  // Huffman
      if ((dcm[5] & 1) == 0 && o.type != model::TensorType::kInt8) {
        return refuse(std::string("output.type != kTfLiteInt8 (") + model::TensorTypeName(o.type) +
                      " != INT8)");
      }
      continue;
    }
    if (!quantized) continue;
    const int64_t channels = static_cast<int64_t>(o.scale.size());
    const int64_t last = static_cast<int64_t>(o.shape.size()) - 1;
    if (!(o.quantized_dimension == last && channels > 1) && o.quantized_dimension != 0) {
      return refuse("unsupported quantization axis " + std::to_string(o.quantized_dimension));
    }
    if (state->type == 2) {  // Prune
      bool non_zero = false;
      for (size_t c = 0; c < o.zero_point.size() && c < o.scale.size(); ++c) {
        non_zero = non_zero || o.zero_point[c] != 0;
      }
      if (o.type != model::TensorType::kInt8 && non_zero) {
        return refuse("All zero-points must be zero");
      }
      if (channels > 1 && non_zero) {
        out->prepare.push_back(
            Persistent(static_cast<uint64_t>(channels), "DecodeStatePrune zero points"));
      }
    }
  }
  return Status::Ok();
}

}  // namespace

bool IsModelledCustomOp(const char* custom_code, bool ethos_u) {
  if (custom_code == nullptr) return false;
  return std::strcmp(custom_code, kCircularBuffer) == 0 ||
         std::strcmp(custom_code, kDetectionPostProcess) == 0 ||
         std::strcmp(custom_code, kDecode) == 0 ||
         (ethos_u && std::strcmp(custom_code, kEthosU) == 0);
}

Status CustomKernelMemoryFor(const model::Model& model, size_t sg, size_t op_index,
                             const model::OperatorInfo& op, const TargetAbi& abi,
                             CustomKernelMemory* out) {
  *out = CustomKernelMemory();
  if (std::strcmp(op.custom_code, kCircularBuffer) == 0) {
    return CircularBuffer(model, sg, op_index, op, out);
  }
  if (std::strcmp(op.custom_code, kDetectionPostProcess) == 0) {
    return DetectionPostProcess(model, sg, op_index, op, out);
  }
  if (std::strcmp(op.custom_code, kEthosU) == 0) return EthosU(sg, op_index, op, abi, out);
  if (std::strcmp(op.custom_code, kDecode) == 0) return Decode(model, sg, op_index, op, abi, out);
  return Status::Error(StatusCode::kInvalidArgument, "custom operator '%s' is not modelled here",
                       op.custom_code);
}

Status DecompressionRegionBytes(const model::Model& model, uint64_t* bytes) {
  *bytes = 0;
  for (size_t sg = 0; sg < model.num_subgraphs(); ++sg) {
    for (size_t i = 0; i < model.num_operators(sg); ++i) {
      model::OperatorInfo op;
      TFLM_ARENA_RETURN_IF_ERROR(model.op(sg, i, &op));
      if (op.builtin_code != model::kBuiltinCustom || std::strcmp(op.custom_code, kDecode) != 0) {
        continue;
      }
      uint64_t used = 0;
      for (int32_t t : op.outputs) {
        if (t < 0) continue;
        size_t b = 0;
        TFLM_ARENA_RETURN_IF_ERROR(model.tensor_bytes(sg, static_cast<size_t>(t), &b));
        used = (used + 15) / 16 * 16 + b;
      }
      *bytes = std::max(*bytes, used);
    }
  }
  return Status::Ok();
}

Status EthosUFastScratchBytes(const model::Model& model, uint64_t* bytes) {
  *bytes = 0;
  for (size_t sg = 0; sg < model.num_subgraphs(); ++sg) {
    for (size_t i = 0; i < model.num_operators(sg); ++i) {
      model::OperatorInfo op;
      TFLM_ARENA_RETURN_IF_ERROR(model.op(sg, i, &op));
      if (op.builtin_code != model::kBuiltinCustom || std::strcmp(op.custom_code, kEthosU) != 0 ||
          op.inputs.size() < 4 || op.inputs[3] < 0 || op.inputs[3] == op.inputs[2]) {
        continue;
      }
      size_t b = 0, scratch = 0;
      TFLM_ARENA_RETURN_IF_ERROR(model.tensor_bytes(sg, static_cast<size_t>(op.inputs[3]), &b));
      if (op.inputs[2] >= 0) {
        TFLM_ARENA_RETURN_IF_ERROR(
            model.tensor_bytes(sg, static_cast<size_t>(op.inputs[2]), &scratch));
      }
      if (b == scratch) continue;  // Vela before 5: a Shared_Sram model's second tensor
      *bytes = std::max<uint64_t>(*bytes, b);
    }
  }
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
