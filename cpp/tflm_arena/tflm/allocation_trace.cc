#include "tflm_arena/tflm/allocation_trace.h"

#include <cstring>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "tflm_arena/model/builtin_ops.h"
#include "tflm_arena/model/builtin_options.h"
#include "tflm_arena/model/lifetimes.h"
#include "tflm_arena/model/offline_plan.h"
#include "tflm_arena/model/tensor_type.h"
#include "tflm_arena/plan/plan.h"
#include "tflm_arena/tflm/custom_kernels.h"
#include "tflm_arena/tflm/registered_ops.h"
#include "tflm_arena/tflm/signal_kernels.h"
#include "tflm_arena/tflm/stack_versions.h"

namespace tflm_arena {
namespace tflm {
namespace {

// Fills *refusal and returns its status (kernel_refusals.h).
Status Refuse(std::string reason, std::string source, std::string op_name, size_t sg,
              size_t op_index, Refusal* refusal) {
  refusal->refused = true;
  refusal->reason = std::move(reason);
  refusal->source = std::move(source);
  refusal->op_name = std::move(op_name);
  refusal->subgraph = sg;
  refusal->op_index = op_index;
  return RefusalStatus(*refusal);
}

constexpr uint32_t kArenaAlignment = 16;  // MicroArenaBufferAlignment()

// VAR_HANDLE's VarHandleOptions as TFLM's ParseVarHandle reads them:
// container (field 0) and shared_name (field 1), each absent -> null. A
// missing shared_name is an error: TFLM's FindId would strcmp a null
// string.
Status VarHandleNames(const model::Model& model, size_t sg, size_t op_index, bool* has_container,
                      std::string* container, std::string* shared_name) {
  model::OptionsTable table;
  TFLM_ARENA_RETURN_IF_ERROR(model.builtin_options(sg, op_index, &table));
  if (table.present() && table.type() != model::kVarHandleOptions) table = model::OptionsTable();
  Span<const char> c, n;
  *has_container = table.String(0, &c);
  const bool has_name = table.String(1, &n);
  if (!table.ok()) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "VAR_HANDLE operator %zu (subgraph %zu): malformed options", op_index, sg);
  }
  if (!has_name) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "VAR_HANDLE operator %zu (subgraph %zu): no shared_name in its options "
                         "(TFLM would compare a null string)",
                         op_index, sg);
  }
  container->assign(c.data(), c.size());
  shared_name->assign(n.data(), n.size());
  return Status::Ok();
}
constexpr uint64_t kMaxScratchBuffersPerOp = 12;
constexpr uint64_t kInt16LutEntries = 513;  // LUTSize<int16_t>()
// QuantizationOpDataBatchMatmul: seven int32 (TFLM's kernels/batch_matmul.h).
constexpr uint64_t kBatchMatMulQuantizationBytes = uint64_t{7} * 4;
constexpr size_t kLinearPlannerMaxBuffers = 1024;
constexpr char kCompressionMetadataName[] = "COMPRESSION_METADATA";

struct Builder {
  const model::Model& model;
  const TargetAbi& abi;
  Trace* out;
  std::vector<model::ScratchRequest> scratch;
  const KernelLibrary& library;
  EspNnVersion esp_nn_version;
  // MicroResourceVariables: the count created, each id's names, whether
  // its buffer exists, and the id each VAR_HANDLE output tensor holds.
  struct Variable {
    bool has_container = false;
    std::string container, shared_name;
    bool allocated = false;
  };
  uint32_t max_variables = 0;
  std::vector<Variable> variables;
  std::map<std::pair<size_t, int32_t>, int32_t> resource_ids;  // (subgraph, tensor) -> id

  void Tail(SizeAlign s, Category c, const char* what, int32_t op = -1, uint32_t count = 1) {
    TailBytes(s.size, s.align, c, what, op, count);
  }
  void TailBytes(uint64_t size, uint32_t align, Category c, const char* what, int32_t op = -1,
                 uint32_t count = 1) {
    Event e;
    e.kind = EventKind::kTail;
    e.size = size;
    e.align = align;
    e.category = c;
    e.count = count;
    e.what = what;
    e.op = op;
    out->events.push_back(e);
  }
  void Temp(uint64_t size, uint32_t align, const char* what, int32_t op,
            uint64_t protect = UINT64_MAX) {
    Event e;
    e.kind = EventKind::kTemp;
    e.size = size;
    e.align = align;
    e.what = what;
    e.op = op;
    e.protect = protect < size ? protect : size;
    out->events.push_back(e);
  }
  void Simple(EventKind kind, uint64_t size, const char* what, int32_t op = -1) {
    Event e;
    e.kind = kind;
    e.size = size;
    e.what = what;
    e.op = op;
    out->events.push_back(e);
  }

  // TfLiteIntArray of n ints: TfLiteIntArrayGetSizeInBytes, alignof 4.
  static uint64_t IntArrayBytes(uint64_t n) { return 4 + 4 * n; }

  static bool Quantized(const model::TensorInfo& t) {
    return !t.scale.empty() && !t.zero_point.empty();
  }

  // AllocateTempTfLiteTensor (temp) or AllocatePersistentTfLiteTensor.
  // `whole_quantization`: the kernel reads the temp tensor's whole
  // TfLiteAffineQuantization and its zero points after later allocations
  // (DECODE's Setup reads quantized_dimension and the zero points), not
  // only the scale and zero-point pointers.
  void TfLiteTensorFor(const model::TensorInfo& t, bool temp, int32_t op,
                       bool whole_quantization = false) {
    if (temp) {
      Temp(abi.tflite_tensor.size, abi.tflite_tensor.align, "temp TfLiteTensor", op);
      if (Quantized(t)) {
        Temp(abi.affine_quantization.size, abi.affine_quantization.align,
             "temp TfLiteAffineQuantization", op,
             /*protect=*/
             whole_quantization ? UINT64_MAX
                                : 2 * uint64_t{abi.pointer_bytes});  // scale, zero_point
        Temp(IntArrayBytes(t.scale.size()), 4, "temp zero-point array", op,
             /*protect=*/whole_quantization ? UINT64_MAX : 0);
      }
      return;
    }
    Tail(abi.tflite_tensor, Category::kPersistentTensorData,
         "persistent TfLiteTensor (model input/output)");
    if (Quantized(t)) {
      Tail(abi.affine_quantization, Category::kPersistentQuantizationData,
           "persistent TfLiteAffineQuantization (model input/output)");
      TailBytes(IntArrayBytes(t.scale.size()), 4, Category::kPersistentQuantizationData,
                "persistent zero-point array (model input/output)");
    }
  }

  Status NodeTensor(size_t sg, const model::OperatorInfo& op, bool output, int index,
                    model::TensorInfo* t, bool* present) {
    Span<const int32_t> list = output ? op.outputs : op.inputs;
    *present = index >= 0 && static_cast<size_t>(index) < list.size() && list[index] >= 0;
    if (!*present) return Status::Ok();
    return model.tensor(sg, static_cast<size_t>(list[index]), t);
  }

  void Request(uint64_t bytes, size_t sg, size_t op_index) {
    model::ScratchRequest r;
    r.bytes = static_cast<size_t>(bytes);
    r.node_idx = static_cast<int32_t>(op_index);
    r.subgraph_idx = static_cast<int32_t>(sg);
    scratch.push_back(r);
  }

  Status ScratchFor(ScratchRule rule, int a, size_t sg, size_t op_index,
                    const model::OperatorInfo& op) {
    model::TensorInfo t0, t1, t2, t3, out0;
    bool p0, p1, p2, p3, po;
    switch (rule) {
      case ScratchRule::kNone:
        return Status::Ok();
      case ScratchRule::kInt4Filter:
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, a, &t0, &p0));
        if (p0 && t0.type == model::TensorType::kInt4) Request(t0.num_elements, sg, op_index);
        return Status::Ok();
      case ScratchRule::kSvdf: {
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 0, &t0, &p0));
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 1, &t1, &p1));
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, true, 0, &out0, &po));
        if (!p0 || !p1 || !po || t0.shape.empty() || t1.shape.empty() || out0.shape.size() < 2) {
          return Status::Error(StatusCode::kInvalidArgument,
                               "SVDF operator %zu: unexpected tensor shapes", op_index);
        }
        const uint64_t batch = static_cast<uint64_t>(t0.shape[0]);
        const uint64_t filters = static_cast<uint64_t>(t1.shape[0]);
        const uint64_t units = static_cast<uint64_t>(out0.shape[1]);
        Request(batch * filters * 4, sg, op_index);
        if (t0.type == model::TensorType::kInt8) Request(batch * units * 4, sg, op_index);
        return Status::Ok();
      }
      case ScratchRule::kTransposeConv: {
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 2, &t2, &p2));
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 3, &t3, &p3));
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, true, 0, &out0, &po));
        if (!p2 || !po) {
          return Status::Error(StatusCode::kInvalidArgument,
                               "TRANSPOSE_CONV operator %zu: missing input or output", op_index);
        }
        if (t2.type == model::TensorType::kInt8) Request(out0.num_elements * 4, sg, op_index);
        if (t2.type == model::TensorType::kInt16) {
          Request(out0.num_elements * 8, sg, op_index);
          // CalculateOpData: a 64-bit copy of a 16-bit bias.
          if (p3 && t3.type == model::TensorType::kInt16) {
            Request(t3.num_elements * 8, sg, op_index);
          }
        }
        return Status::Ok();
      }
      case ScratchRule::kMeanOrSumAccumulatorOnly:
        // The input iterator and resolved axes were stack arrays then.
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 0, &t0, &p0));
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, true, 0, &out0, &po));
        if (!p0 || !po) {
          return Status::Error(StatusCode::kInvalidArgument,
                               "reduction operator %zu: missing input or output", op_index);
        }
        if (t0.type == model::TensorType::kInt8 || t0.type == model::TensorType::kInt16) {
          Request(out0.num_elements * 4, sg, op_index);
        }
        return Status::Ok();
      case ScratchRule::kMeanOrSum:
      case ScratchRule::kReduceMinMax: {
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 0, &t0, &p0));
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 1, &t1, &p1));
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, true, 0, &out0, &po));
        if (!p0 || !p1 || !po) {
          return Status::Error(StatusCode::kInvalidArgument,
                               "reduction operator %zu: missing input, axis or output", op_index);
        }
        if (rule == ScratchRule::kMeanOrSum &&
            (t0.type == model::TensorType::kInt8 || t0.type == model::TensorType::kInt16)) {
          Request(out0.num_elements * 4, sg, op_index);
        }
        Request(t0.shape.size() * 4, sg, op_index);
        Request(t1.num_elements * 4, sg, op_index);
        return Status::Ok();
      }
      case ScratchRule::kMirrorPad:
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 0, &t0, &p0));
        if (!p0) {
          return Status::Error(StatusCode::kInvalidArgument,
                               "MIRROR_PAD operator %zu: missing input", op_index);
        }
        Request(t0.shape.size() * 4, sg, op_index);
        Request(t0.shape.size() * 4, sg, op_index);
        return Status::Ok();
      case ScratchRule::kPointerPerInput:
        Request(uint64_t{abi.pointer_bytes} * op.inputs.size(), sg, op_index);
        return Status::Ok();
      case ScratchRule::kLstm: {
        // Hidden (output) state is input 18 {batch, state}; cell state is 19.
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 18, &t0, &p0));
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 19, &t1, &p1));
        if (!p0 || !p1) {
          return Status::Error(StatusCode::kInvalidArgument,
                               "UNIDIRECTIONAL_SEQUENCE_LSTM operator %zu: missing state "
                               "tensors",
                               op_index);
        }
        const uint64_t bytes = t0.num_elements * model::ElementByteSize(t1.type);
        for (int i = 0; i < 4; ++i) Request(bytes, sg, op_index);
        return Status::Ok();
      }
    }
    return Status::Ok();
  }

  Status PrepareNode(const KernelRow& row, size_t sg, size_t op_index,
                     const model::OperatorInfo& op, int32_t global_op) {
    const size_t requests_before = scratch.size();
    for (const Step& s : row.prepare) {
      if (s.kind == StepKind::kEnd) break;
      if (s.cond == StepCond::kInputNotFloat32) {
        model::TensorInfo c;
        bool present;
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, s.cond_input, &c, &present));
        if (!present) continue;
        if (s.cond == StepCond::kInputNotFloat32 && c.type == model::TensorType::kFloat32) continue;
      }
      if (s.cond == StepCond::kInputIsInt8) {
        model::TensorInfo c;
        bool present;
        TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, s.cond_input, &c, &present));
        if (!present || c.type != model::TensorType::kInt8) continue;
      }
      model::TensorInfo t;
      bool present = false;
      switch (s.kind) {
        case StepKind::kEnd:
          break;
        case StepKind::kTempInput:
        case StepKind::kTempOutput:
          TFLM_ARENA_RETURN_IF_ERROR(
              NodeTensor(sg, op, s.kind == StepKind::kTempOutput, s.a, &t, &present));
          if (present) TfLiteTensorFor(t, /*temp=*/true, global_op);
          break;
        case StepKind::kTempInputRange:
          for (int i = s.a; i <= s.b && static_cast<size_t>(i) < op.inputs.size(); ++i) {
            TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, i, &t, &present));
            if (present) TfLiteTensorFor(t, /*temp=*/true, global_op);
          }
          break;
        case StepKind::kPerChannelArrays: {
          TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, s.a, &t, &present));
          if (!present || static_cast<size_t>(s.b) >= t.shape.size()) {
            return Status::Error(StatusCode::kInvalidArgument,
                                 "%s operator %zu: input %d has no dimension %d", row.op, op_index,
                                 s.a, s.b);
          }
          const uint64_t bytes = 4 * static_cast<uint64_t>(t.shape[s.b]);
          TailBytes(bytes, kArenaAlignment, Category::kPersistentBufferData,
                    "per-channel multipliers", global_op);
          TailBytes(bytes, kArenaAlignment, Category::kPersistentBufferData, "per-channel shifts",
                    global_op);
          break;
        }
        case StepKind::kPerChannelArraysIfMultiScale:
          TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, s.a, &t, &present));
          if (present && t.scale.size() > 1) {
            const uint64_t bytes = 4 * static_cast<uint64_t>(t.scale.size());
            TailBytes(bytes, kArenaAlignment, Category::kPersistentBufferData,
                      "per-channel multipliers", global_op);
            TailBytes(bytes, kArenaAlignment, Category::kPersistentBufferData, "per-channel shifts",
                      global_op);
          }
          break;
        case StepKind::kInt16Luts:
          TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 0, &t, &present));
          if (present && t.type == model::TensorType::kInt16) {
            for (int i = 0; i < 2; ++i) {
              TailBytes(2 * kInt16LutEntries, kArenaAlignment, Category::kPersistentBufferData,
                        "int16 LUT", global_op);
            }
          }
          break;
        case StepKind::kScratch:
          TFLM_ARENA_RETURN_IF_ERROR(ScratchFor(s.rule, s.a, sg, op_index, op));
          break;
        case StepKind::kCmsisNn:
          TFLM_ARENA_RETURN_IF_ERROR(CmsisNnStep(row, s.a, sg, op_index, op, global_op));
          break;
        case StepKind::kEspNn: {
          const EspNnChip* chip = std::get_if<EspNnChip>(&library);
          if (chip == nullptr) return WrongLibrary("ESP-NN", row);
          std::vector<uint64_t> requests;
          TFLM_ARENA_RETURN_IF_ERROR(EspNnPrepare(static_cast<EspNnRule>(s.a), *chip,
                                                  esp_nn_version, model, sg, op_index, op,
                                                  &requests));
          for (uint64_t bytes : requests) Request(bytes, sg, op_index);
          break;
        }
        case StepKind::kVarHandle:
          TFLM_ARENA_RETURN_IF_ERROR(VarHandle(row, sg, op_index, op));
          break;
        case StepKind::kAssignVariable:
          TFLM_ARENA_RETURN_IF_ERROR(AssignVariable(row, sg, op_index, op, global_op));
          break;
        case StepKind::kPersistent:
          TailBytes(static_cast<uint8_t>(abi.id == AbiId::kX86_64Wheel ? s.a : s.b),
                    kArenaAlignment, Category::kPersistentBufferData, "Prepare's OpData",
                    global_op);
          break;
        case StepKind::kWritableDims:
          TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, true, s.a, &t, &present));
          if (present) {
            TailBytes(IntArrayBytes(t.shape.size()), kArenaAlignment,
                      Category::kPersistentBufferData, "writable output dims", global_op);
          }
          break;
        case StepKind::kBatchMatMulTemporaries:
          TFLM_ARENA_RETURN_IF_ERROR(BatchMatMulTemporaries(sg, op_index, op, global_op));
          break;
        case StepKind::kPersistentPerInput:
          TailBytes(static_cast<uint64_t>(s.a) * op.inputs.size(), kArenaAlignment,
                    Category::kPersistentBufferData, "Prepare's per-input array", global_op);
          break;
      }
    }
    return FinishNode(row.op, op_index, requests_before, global_op);
  }

  // VAR_HANDLE's Prepare (var_handle.cc): the id of its (container,
  // shared_name), found or created (MicroResourceVariables::FindId,
  // CreateIdIfNoneFound), held by its output tensor.
  Status VarHandle(const KernelRow& row, size_t sg, size_t op_index,
                   const model::OperatorInfo& op) {
    const std::string source = std::string(row.source) + ", Prepare";
    if (max_variables == 0) {
      return Refuse(
          "VAR_HANDLE requires resource variables. Please create ResourceVariables and pass it "
          "to the interpreter.",
          source, row.op, sg, op_index, &out->refusal);
    }
    Variable v;
    TFLM_ARENA_RETURN_IF_ERROR(
        VarHandleNames(model, sg, op_index, &v.has_container, &v.container, &v.shared_name));
    int32_t id = -1;
    for (size_t i = 0; i < variables.size() && id < 0; ++i) {
      // FindId: a null container matches any; strcmp otherwise (a stored
      // null container against a named one would be read by TFLM as a
      // null string: no match here).
      const Variable& w = variables[i];
      const bool container_ok = !v.has_container || (w.has_container && w.container == v.container);
      if (container_ok && w.shared_name == v.shared_name) id = static_cast<int32_t>(i);
    }
    if (id < 0) {
      if (variables.size() >= max_variables) {
        return Refuse("Failed to allocate resource variable. Maximum resource variable count (" +
                          std::to_string(max_variables) + ") reached.",
                      "micro_resource_variable.cc, CreateIdIfNoneFound", row.op, sg, op_index,
                      &out->refusal);
      }
      id = static_cast<int32_t>(variables.size());
      variables.push_back(v);
    }
    if (!op.outputs.empty() && op.outputs[0] >= 0) resource_ids[{sg, op.outputs[0]}] = id;
    return Status::Ok();
  }

  // ASSIGN_VARIABLE's Prepare (assign_variable.cc) after its temp value
  // tensor: its checks, then the variable's buffer the first time
  // (MicroResourceVariables::Allocate: the value's bytes, 16-aligned).
  Status AssignVariable(const KernelRow& row, size_t sg, size_t op_index,
                        const model::OperatorInfo& op, int32_t global_op) {
    const std::string source = std::string(row.source) + ", Prepare";
    if (op.inputs.size() != 2) {
      return Refuse("NumInputs(node) != 2 (" + std::to_string(op.inputs.size()) + " != 2)", source,
                    row.op, sg, op_index, &out->refusal);
    }
    if (!op.outputs.empty()) {
      return Refuse("NumOutputs(node) != 0 (" + std::to_string(op.outputs.size()) + " != 0)",
                    source, row.op, sg, op_index, &out->refusal);
    }
    model::TensorInfo id_tensor, value;
    bool present = false, value_present = false;
    TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 0, &id_tensor, &present));
    TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 1, &value, &value_present));
    if (!present || !value_present) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "ASSIGN_VARIABLE operator %zu (subgraph %zu): an input is omitted (-1)",
                           op_index, sg);
    }
    if (id_tensor.type != model::TensorType::kResource &&
        id_tensor.type != model::TensorType::kInt32) {
      return Refuse(
          "(input_resource_id_tensor->type == kTfLiteResource || "
          "input_resource_id_tensor->type == kTfLiteInt32) was not true.",
          source, row.op, sg, op_index, &out->refusal);
    }
    if (id_tensor.num_elements != 1) {
      return Refuse("NumElements(input_resource_id_tensor->dims) != 1 (" +
                        std::to_string(id_tensor.num_elements) + " != 1)",
                    source, row.op, sg, op_index, &out->refusal);
    }
    // The id: held by the output of a VAR_HANDLE of this subgraph prepared
    // earlier, or an int32 constant. Otherwise the eval tensor has no data
    // yet (planned later) and Prepare allocates nothing.
    int32_t id = 0;
    const auto found = resource_ids.find({sg, op.inputs[0]});
    if (found != resource_ids.end()) {
      id = found->second;
    } else if (id_tensor.type == model::TensorType::kInt32 && id_tensor.has_constant_data &&
               id_tensor.constant_data.size() >= 4) {
      std::memcpy(&id, id_tensor.constant_data.data(), sizeof(id));
    } else {
      return Status::Ok();
    }
    if (id < 0 || static_cast<size_t>(id) >= variables.size()) {
      return Refuse("Attempting to read non-existent resource variable " + std::to_string(id),
                    "micro_resource_variable.cc, Allocate", row.op, sg, op_index, &out->refusal);
    }
    Variable& v = variables[static_cast<size_t>(id)];
    if (!v.allocated) {
      size_t bytes = 0;
      TFLM_ARENA_RETURN_IF_ERROR(model.tensor_bytes(sg, static_cast<size_t>(op.inputs[1]), &bytes));
      TailBytes(bytes, kArenaAlignment, Category::kPersistentBufferData, "resource variable buffer",
                global_op);
      v.allocated = true;
    }
    return Status::Ok();
  }

  // BATCH_MATMUL's InitializeTemporaries (batch_matmul.cc): the
  // quantization data for an int8/int16 lhs, then a transposed copy of lhs
  // (adj_x) and of rhs (!adj_y), each AllocInitTransposeTensorFromTfLiteTensor:
  // a TfLiteEvalTensor, its dims, its data, all AllocatePersistentBuffer.
  Status BatchMatMulTemporaries(size_t sg, size_t op_index, const model::OperatorInfo& op,
                                int32_t global_op) {
    model::TensorInfo lhs, rhs;
    bool p_lhs = false, p_rhs = false;
    TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 0, &lhs, &p_lhs));
    TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 1, &rhs, &p_rhs));
    if (!p_lhs || !p_rhs) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "BATCH_MATMUL operator %zu (subgraph %zu): an input is omitted (-1)",
                           op_index, sg);
    }
    model::OptionsTable table;
    TFLM_ARENA_RETURN_IF_ERROR(model.builtin_options(sg, op_index, &table));
    if (table.present() && table.type() != model::kBatchMatMulOptions)
      table = model::OptionsTable();
    const bool adj_x = table.Bool(0, false);
    const bool adj_y = table.Bool(1, false);
    if (!table.ok()) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "BATCH_MATMUL operator %zu (subgraph %zu): malformed options", op_index,
                           sg);
    }
    if (lhs.type == model::TensorType::kInt8 || lhs.type == model::TensorType::kInt16) {
      TailBytes(kBatchMatMulQuantizationBytes, kArenaAlignment, Category::kPersistentBufferData,
                "BATCH_MATMUL quantization data", global_op);
    }
    const model::TensorInfo* copies[2] = {adj_x ? &lhs : nullptr, adj_y ? nullptr : &rhs};
    for (const model::TensorInfo* t : copies) {
      if (t == nullptr) continue;
      TailBytes(abi.eval_tensor.size, kArenaAlignment, Category::kPersistentBufferData,
                "BATCH_MATMUL transposed TfLiteEvalTensor", global_op);
      TailBytes(IntArrayBytes(t->shape.size()), kArenaAlignment, Category::kPersistentBufferData,
                "BATCH_MATMUL transposed dims", global_op);
      TailBytes(t->num_elements * model::ElementByteSize(t->type), kArenaAlignment,
                Category::kPersistentBufferData, "BATCH_MATMUL transposed data", global_op);
    }
    return Status::Ok();
  }

  // A kernel table row of one library in a trace built for another.
  static Status WrongLibrary(const char* library, const KernelRow& row) {
    return Status::Error(StatusCode::kInternal, "%s: a %s kernel row in a build without %s (%s)",
                         row.op, library, library, row.source);
  }

  // A cmsis_nn kernel's own allocations (cmsis_nn_kernels.h), in order.
  Status CmsisNnStep(const KernelRow& row, int rule, size_t sg, size_t op_index,
                     const model::OperatorInfo& op, int32_t global_op) {
    const CmsisNnBackend* backend = std::get_if<CmsisNnBackend>(&library);
    if (backend == nullptr) return WrongLibrary("CMSIS-NN", row);
    std::vector<CmsisNnAllocation> allocs;
    std::string reason;
    TFLM_ARENA_RETURN_IF_ERROR(CmsisNnPrepare(static_cast<CmsisNnRule>(rule), *backend, model, sg,
                                              op_index, op, &allocs, &reason));
    if (!reason.empty()) {
      return Refuse(reason, std::string(row.source) + ", Prepare", row.op, sg, op_index,
                    &out->refusal);
    }
    for (const CmsisNnAllocation& a : allocs) {
      if (a.persistent) {
        TailBytes(a.bytes, kArenaAlignment, Category::kPersistentBufferData, a.what, global_op);
      } else {
        Request(a.bytes, sg, op_index);
      }
    }
    return Status::Ok();
  }

  Status FinishNode(const char* name, size_t op_index, size_t requests_before, int32_t global_op) {
    if (scratch.size() - requests_before > kMaxScratchBuffersPerOp) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "%s operator %zu: more than %d scratch requests", name, op_index,
                           static_cast<int>(kMaxScratchBuffersPerOp));
    }
    // FinishPrepareNodeAllocations: temp reset, head request buffer grown.
    Simple(EventKind::kResetTemp, 0, "reset temp", global_op);
    Simple(EventKind::kResizeHead,
           uint64_t{abi.scratch_buffer_request.size} * (scratch.size() + kMaxScratchBuffersPerOp),
           "scratch-request head buffer", global_op);
    return Status::Ok();
  }

  // A custom operator's Prepare (custom_kernels.h).
  Status PrepareCustomNode(const char* name, const CustomKernelMemory& mem, size_t sg,
                           size_t op_index, const model::OperatorInfo& op, int32_t global_op) {
    const size_t requests_before = scratch.size();
    for (size_t s = 0; s < mem.prepare.size(); ++s) {
      if (!mem.refusal.empty() && s == mem.refusal_after) break;
      const CustomStep& step = mem.prepare[s];
      if (step.kind == CustomStep::kTemp) {
        model::TensorInfo t;
        bool present = false;
        TFLM_ARENA_RETURN_IF_ERROR(
            NodeTensor(sg, op, step.tensor.output, step.tensor.index, &t, &present));
        if (present) TfLiteTensorFor(t, /*temp=*/true, global_op, step.whole_quantization);
      } else if (step.kind == CustomStep::kPersistent) {
        TailBytes(step.bytes, kArenaAlignment, Category::kPersistentBufferData, step.what,
                  global_op);
      } else {
        Request(step.bytes, sg, op_index);
      }
    }
    if (!mem.refusal.empty()) {
      return Refuse(mem.refusal, std::string(mem.source) + ", Prepare", name, sg, op_index,
                    &out->refusal);
    }
    return FinishNode(name, op_index, requests_before, global_op);
  }

  // A Signal operator's Prepare (signal_kernels.h).
  Status PrepareSignalNode(const char* name, const SignalOpMemory& mem, size_t sg, size_t op_index,
                           const model::OperatorInfo& op, int32_t global_op) {
    const size_t requests_before = scratch.size();
    for (const NodeTensorRef& r : mem.temps) {
      model::TensorInfo t;
      bool present = false;
      TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, r.output, r.index, &t, &present));
      if (!present) {
        // TFLM's Prepare stops at TF_LITE_ENSURE(tensor != nullptr).
        return Status::Error(StatusCode::kInvalidArgument,
                             "custom operator '%s' (subgraph %zu, operator %zu): %s %d "
                             "missing",
                             name, sg, op_index, r.output ? "output" : "input", r.index);
      }
      TfLiteTensorFor(t, /*temp=*/true, global_op);
    }
    if (mem.prepare != SignalPrepareRule::kNone) {
      // Persistent buffers sized by input 0's shape, taken while the temp
      // tensors are live.
      model::TensorInfo in;
      bool present = false;
      TFLM_ARENA_RETURN_IF_ERROR(NodeTensor(sg, op, false, 0, &in, &present));
      std::vector<uint64_t> buffers;
      std::string reason;
      const Status s = SignalPrepareBuffers(name, mem, in.shape, abi, &buffers, &reason);
      if (!s.ok()) {
        return Status::Error(s.code(), "%s (subgraph %zu, operator %zu)", s.message(), sg,
                             op_index);
      }
      if (!reason.empty()) {
        return Refuse(reason, std::string(mem.source) + ", Prepare", name, sg, op_index,
                      &out->refusal);
      }
      for (uint64_t bytes : buffers) {
        TailBytes(bytes, kArenaAlignment, Category::kPersistentBufferData,
                  "Signal operator Prepare buffer", global_op);
      }
    }
    for (uint64_t bytes : mem.scratch) Request(bytes, sg, op_index);
    return FinishNode(name, op_index, requests_before, global_op);
  }
};

bool HasCompressionMetadata(const model::Model& m) {
  for (size_t i = 0; i < m.num_metadata(); ++i) {
    model::MetadataInfo md;
    if (!m.metadata(i, &md).ok()) continue;
    if (md.name_length == std::strlen(kCompressionMetadataName) &&
        std::memcmp(md.name, kCompressionMetadataName, md.name_length) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace

Status CountResourceVariables(const model::Model& model, uint32_t* count) {
  std::set<std::string> names;
  for (size_t sg = 0; sg < model.num_subgraphs(); ++sg) {
    for (size_t i = 0; i < model.num_operators(sg); ++i) {
      model::OperatorInfo op;
      TFLM_ARENA_RETURN_IF_ERROR(model.op(sg, i, &op));
      if (op.builtin_code != model::kBuiltinVarHandle) continue;
      bool has_container = false;
      std::string container, shared_name;
      TFLM_ARENA_RETURN_IF_ERROR(
          VarHandleNames(model, sg, i, &has_container, &container, &shared_name));
      names.insert(shared_name);
    }
  }
  *count = static_cast<uint32_t>(names.size());
  return Status::Ok();
}

Status BuildTrace(const model::Model& model, const TraceOptions& options, Trace* out) {
  if (options.target == nullptr) {
    return Status::Error(StatusCode::kInvalidArgument, "no target given");
  }
  if (!model.loaded()) {
    return Status::Error(StatusCode::kInvalidArgument, "model not loaded");
  }
  *out = Trace();
  const TargetAbi& abi = *options.target;
  const size_t abi_col = static_cast<size_t>(abi.id);
  Builder b{model, abi, out, {}, options.library, options.esp_nn_version, 0, {}, {}};
  out->planner = options.planner;

  if (HasCompressionMetadata(model)) {
    return Status::Error(StatusCode::kUnimplemented,
                         "model carries COMPRESSION_METADATA: compressed tensors are not "
                         "modelled");
  }

  // Construction: allocator, planner, MicroAllocator objects in the tail.
  const bool linear = options.planner == PlannerKind::kLinear;
  b.Tail(options.recording ? abi.recording_single_arena_allocator : abi.single_arena_allocator,
         Category::kOther, "SingleArenaBufferAllocator");
  b.Tail(linear ? abi.linear_planner : abi.greedy_planner, Category::kOther, "memory planner");
  b.Tail(options.recording ? abi.recording_micro_allocator : abi.micro_allocator, Category::kOther,
         "MicroAllocator");
  out->allocator_events = out->events.size();

  // The application's MicroResourceVariables::Create, before the
  // interpreter (the tflite-micro wheel's interpreter_wrapper.cc).
  uint32_t variables = 0;
  if (options.resource_variables >= 0) {
    variables = static_cast<uint32_t>(options.resource_variables);
  } else {
    TFLM_ARENA_RETURN_IF_ERROR(CountResourceVariables(model, &variables));
  }
  out->resource_variables = variables;
  out->resource_variables_in_arena = options.resource_variables_in_arena;
  b.max_variables = variables;
  if (variables > 0 && options.resource_variables_in_arena) {
    b.TailBytes(abi.resource_variables.size, kArenaAlignment, Category::kPersistentBufferData,
                "MicroResourceVariables");
    b.TailBytes(uint64_t{abi.resource_variable.size} * variables, kArenaAlignment,
                Category::kPersistentBufferData, "MicroResourceVariable array");
  }

  // StartModelAllocation (TFLM's micro_allocator.cc).
  const size_t num_sg = model.num_subgraphs();
  b.Tail(abi.builtin_data_allocator, Category::kOther, "MicroBuiltinDataAllocator");
  b.Simple(EventKind::kResizeHead,
           uint64_t{abi.scratch_buffer_request.size} * kMaxScratchBuffersPerOp,
           "scratch-request head buffer");
  b.TailBytes(uint64_t{abi.subgraph_allocations.size} * num_sg, abi.subgraph_allocations.align,
              Category::kOther, "SubgraphAllocations");
  for (size_t sg = 0; sg < num_sg; ++sg) {
    const size_t n = model.num_tensors(sg);
    b.TailBytes(uint64_t{abi.eval_tensor.size} * n, abi.eval_tensor.align,
                Category::kEvalTensorData, "TfLiteEvalTensor array", -1, static_cast<uint32_t>(n));
  }
  for (size_t sg = 0; sg < num_sg; ++sg) {
    const size_t n = model.num_operators(sg);
    b.TailBytes(uint64_t{abi.node_and_registration.size} * n, abi.node_and_registration.align,
                Category::kNodeAndRegistration, "NodeAndRegistration array", -1,
                static_cast<uint32_t>(n));
  }

  // Every operator's kernel row (missing: clear error, never a guess).
  // TFLM resolves every operator's registration first
  // (PrepareNodeAndRegistrationDataFromFlatbuffer), so an unregistered one
  // refuses the model before any kernel runs.
  std::vector<const KernelRow*> rows;          // nullptr for a custom operator
  std::vector<SignalOpMemory> signal_ops;      // per operator (empty unless Signal)
  std::vector<CustomKernelMemory> custom_ops;  // per operator (empty unless custom_kernels.h)
  std::vector<bool> is_signal;
  for (size_t sg = 0; sg < num_sg; ++sg) {
    for (size_t i = 0; i < model.num_operators(sg); ++i) {
      model::OperatorInfo op;
      TFLM_ARENA_RETURN_IF_ERROR(model.op(sg, i, &op));
      signal_ops.emplace_back();
      custom_ops.emplace_back();
      is_signal.push_back(false);
      if (op.builtin_code == model::kBuiltinCustom &&
          IsUnregisteredAt(options.unregistered, op.custom_code)) {
        // A kernel this TFLM release does not have yet (stack_versions.h).
        return Refuse("Failed to get registration from op code CUSTOM",
                      "micro_op_resolver.cc, GetRegistrationFromOpCode; this TFLM release has "
                      "no kernel for this code",
                      std::string("custom operator '") + op.custom_code + "'", sg, i,
                      &out->refusal);
      }
      if (op.builtin_code == model::kBuiltinCustom && IsModelledSignalOp(op.custom_code)) {
        const Status s = SignalMemory(op.custom_code, op.custom_options, abi, &signal_ops.back());
        if (!s.ok()) {
          return Status::Error(s.code(), "%s (subgraph %zu, operator %zu)", s.message(), sg, i);
        }
        rows.push_back(nullptr);
        is_signal.back() = true;
        out->op_names.push_back(op.custom_code);
        continue;
      }
      if (op.builtin_code == model::kBuiltinCustom &&
          IsModelledCustomOp(op.custom_code, options.ethos_u)) {
        TFLM_ARENA_RETURN_IF_ERROR(
            CustomKernelMemoryFor(model, sg, i, op, abi, &custom_ops.back()));
        rows.push_back(nullptr);
        out->op_names.push_back(op.custom_code);
        continue;
      }
      if (op.builtin_code == model::kBuiltinCustom) {
        // Not registered: FindOp finds nothing, and TFLM's interpreter says
        // which code failed by the builtin enum's name (micro_interpreter.cc).
        return Refuse(
            op.custom_code[0] == '\0' ? "Operator with CUSTOM builtin_code has no custom_code."
                                      : "Failed to get registration from op code CUSTOM",
            "micro_op_resolver.cc, GetRegistrationFromOpCode; no kernel TFLM ships "
            "has this code, and one the application adds with AddCustom is not "
            "modelled",
            std::string("custom operator '") + op.custom_code + "'", sg, i, &out->refusal);
      }
      const char* name = model::BuiltinCodeName(op.builtin_code);
      if (name == nullptr) {
        // A code outside the schema's BuiltinOperator enum (the model
        // reader keeps such codes: a newer schema may define them). TFLM's
        // GetRegistrationFromOpCode (micro_op_resolver.cc) refuses it before
        // any operator is prepared, whatever the arena: a code above the
        // enum's last value with the message the tflite-micro wheel prints;
        // a negative one (max(deprecated_builtin_code, builtin_code) < 0)
        // is looked up, not found, and named by the enum's empty name.
        const std::string code = std::to_string(op.builtin_code);
        return Refuse(op.builtin_code < 0 ? "Didn't find op for builtin opcode ''"
                                          : "Op builtin_code out of range: " + code + ".",
                      "micro_op_resolver.cc, GetRegistrationFromOpCode", "builtin code " + code, sg,
                      i, &out->refusal);
      }
      const KernelRow* row = FindKernel(options.kernels, name);
      if (IsUnregisteredAt(options.unregistered, name) ||
          (row == nullptr && !IsTflmRegisteredBuiltin(name))) {
        // An operator TFLM has no kernel for (TILE, ...): FindOp fails.
        return Refuse(std::string("Didn't find op for builtin opcode '") + name + "'",
                      "micro_op_resolver.cc, GetRegistrationFromOpCode", name, sg, i,
                      &out->refusal);
      }
      if (row == nullptr) {
        return Status::Error(StatusCode::kUnimplemented,
                             "operator %s (subgraph %zu, operator %zu): its memory behaviour "
                             "in TFLM's kernels is not modelled",
                             name, sg, i);
      }
      rows.push_back(row);
      out->op_names.push_back(row->op);
    }
  }

  // Builtin options parsed into the tail, then every kernel's Init, then
  // Prepare node by node (TFLM's micro_interpreter_graph.cc, InitSubgraphs
  // and PrepareSubgraphs).
  for (size_t k = 0; k < rows.size(); ++k) {
    if (rows[k] == nullptr) continue;  // custom operators: no builtin options
    const SizeAlign p = rows[k]->params[abi_col];
    if (p.size > 0) {
      b.Tail(p, Category::kOther, "builtin options", static_cast<int32_t>(k));
    }
  }
  for (size_t k = 0; k < rows.size(); ++k) {
    if (rows[k] == nullptr) {
      const std::vector<uint64_t>& init =
          is_signal[k] ? signal_ops[k].init_buffers : custom_ops[k].init_buffers;
      for (uint64_t bytes : init) {
        b.TailBytes(bytes, kArenaAlignment, Category::kPersistentBufferData,
                    is_signal[k] ? "Signal operator Init buffer" : "custom operator Init buffer",
                    static_cast<int32_t>(k));
      }
      continue;
    }
    const uint32_t bytes = rows[k]->opdata[abi_col];
    if (bytes > 0) {
      b.TailBytes(bytes, kArenaAlignment, Category::kPersistentBufferData, "OpData",
                  static_cast<int32_t>(k));
    }
  }
  {
    size_t k = 0;
    for (size_t sg = 0; sg < num_sg; ++sg) {
      for (size_t i = 0; i < model.num_operators(sg); ++i, ++k) {
        model::OperatorInfo op;
        TFLM_ARENA_RETURN_IF_ERROR(model.op(sg, i, &op));
        if (rows[k] == nullptr && is_signal[k]) {
          TFLM_ARENA_RETURN_IF_ERROR(b.PrepareSignalNode(out->op_names[k], signal_ops[k], sg, i, op,
                                                         static_cast<int32_t>(k)));
          continue;
        }
        if (rows[k] == nullptr) {
          TFLM_ARENA_RETURN_IF_ERROR(b.PrepareCustomNode(out->op_names[k], custom_ops[k], sg, i, op,
                                                         static_cast<int32_t>(k)));
          continue;
        }
        TFLM_ARENA_RETURN_IF_ERROR(
            CheckKernelTypes(rows[k]->types, rows[k]->op, model, sg, i, op, &out->refusal));
        if (out->refusal.refused) return RefusalStatus(out->refusal);
        TFLM_ARENA_RETURN_IF_ERROR(b.PrepareNode(*rows[k], sg, i, op, static_cast<int32_t>(k)));
      }
    }
  }
  out->scratch_requests = b.scratch.size();
  out->scratch = b.scratch;

  // FinishModelAllocation: scratch handles, then CommitStaticMemoryPlan
  // (docs/tflm_behaviour.md, section "Temp during planning").
  if (!b.scratch.empty()) {
    b.TailBytes(uint64_t{abi.scratch_buffer_handle.size} * b.scratch.size(),
                abi.scratch_buffer_handle.align, Category::kOther, "ScratchBufferHandle array");
  }
  b.Temp(uint64_t{abi.pointer_bytes} * num_sg, abi.pointer_bytes, "subgraph offsets", -1);
  b.Temp(uint64_t{abi.allocation_info.size} * (model.total_tensors() + b.scratch.size()),
         abi.allocation_info.align, "AllocationInfo array", -1);

  model::OfflinePlanView offline;
  bool has_offline = false;
  TFLM_ARENA_RETURN_IF_ERROR(model::DecodeOfflinePlan(model, &offline, &has_offline));
  if (has_offline && linear) {
    return Status::Error(StatusCode::kUnimplemented,
                         "the model has an offline plan, which TFLM's linear planner "
                         "rejects (AddBuffer with an offset fails)");
  }
  for (size_t sg = 0; sg < num_sg; ++sg) {
    for (size_t t = 0; t < model.num_tensors(sg); ++t) {
      model::TensorInfo info;
      TFLM_ARENA_RETURN_IF_ERROR(model.tensor(sg, t, &info));
      if (!info.is_variable) continue;
      // TFLM indexes the offline offsets with the subgraph-local index
      // (TFLM's micro_allocator.cc, AllocateVariables); we do the same so the figures match.
      if (has_offline && offline.offset(t) != model::kOfflinePlanOnline) continue;
      size_t bytes = 0;
      TFLM_ARENA_RETURN_IF_ERROR(model.tensor_bytes(sg, t, &bytes));
      b.TailBytes(bytes, kArenaAlignment, Category::kVariableBufferData, "variable tensor buffer");
    }
  }

  // The plan itself (identical to TFLM's, plan/).
  std::vector<model::AllocationEntry> entries(model::AllocationInfoCount(model, b.scratch.size()));
  TFLM_ARENA_RETURN_IF_ERROR(model::ComputeModelAllocationInfo(
      model, Span<const model::ScratchRequest>(b.scratch.data(), b.scratch.size()),
      Span<model::AllocationEntry>(entries.data(), entries.size())));
  const size_t planned =
      model::PlannedBufferCount(Span<const model::AllocationEntry>(entries.data(), entries.size()));
  std::vector<UsageRecord> records(planned);
  size_t written = 0;
  TFLM_ARENA_RETURN_IF_ERROR(model::BuildUsageRecords(
      Span<const model::AllocationEntry>(entries.data(), entries.size()),
      Span<UsageRecord>(records.data(), records.size()), Span<uint32_t>(), &written));
  records.resize(written);
  out->planned_buffers = written;
  if (linear && written > kLinearPlannerMaxBuffers) {
    return Status::Error(StatusCode::kUnimplemented,
                         "%zu planned buffers: TFLM's linear planner holds at most %zu", written,
                         kLinearPlannerMaxBuffers);
  }
  PlanResult plan;
  const Span<const UsageRecord> rec(records.data(), records.size());
  TFLM_ARENA_RETURN_IF_ERROR(linear ? PlanLinear(rec, &plan) : PlanTflmGreedy(rec, &plan));
  out->head_usage = plan.arena_bytes;

  b.Simple(EventKind::kPlannerScratch, written, "memory planner scratch");
  b.Simple(EventKind::kResetTemp, 0, "reset temp");
  b.Simple(EventKind::kResizeHead, 0, "release scratch-request buffer");
  out->head_plan_event = out->events.size();
  b.Simple(EventKind::kResizeHead, static_cast<uint64_t>(plan.arena_bytes),
           "head (activation plan)");

  // AllocateTensors: input/output pointer arrays and persistent tensors
  // (TFLM's micro_interpreter.cc, AllocateTensors).
  model::SubgraphInfo sg0;
  TFLM_ARENA_RETURN_IF_ERROR(model.subgraph(0, &sg0));
  for (int io = 0; io < 2; ++io) {
    Span<const int32_t> list = io == 0 ? sg0.inputs : sg0.outputs;
    b.TailBytes(uint64_t{abi.pointer_bytes} * list.size(), kArenaAlignment,
                Category::kPersistentBufferData,
                io == 0 ? "input tensor pointers" : "output tensor pointers");
    for (size_t i = 0; i < list.size(); ++i) {
      model::TensorInfo t;
      TFLM_ARENA_RETURN_IF_ERROR(model.tensor(0, static_cast<size_t>(list[i]), &t));
      b.TfLiteTensorFor(t, /*temp=*/false, -1);
    }
  }
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
