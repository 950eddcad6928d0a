#include "tflm_arena/tflm/stack_versions.h"

#include <cstddef>
#include <cstring>

#include "tflm_arena/tflm/cmsis_nn_kernels.h"

namespace tflm_arena {
namespace tflm {
namespace {

// Zephyr v4.1's TFLM (upstream ef645912, 2025-02-07) before the reduce
// kernels' scratch buffers (upstream 0efdd51, 2026-01-16): MEAN and SUM
// request only the int8/int16 accumulator, their OpDataReduce has no
// input-iterator index (40 bytes, not 44). Every other reference row and
// every struct the arena holds is 90b983c's.
using steps::IfInt8;
using steps::In;
using steps::Out;
using steps::Scratch;
constexpr KernelRow kZephyr41Rows[] = {
    {"MEAN",
     "reduce.cc reduce_common.cc at ef645912",
     {{1, 1}, {1, 1}},
     {40, 40},
     {In(0), Out(0), In(1), Scratch(ScratchRule::kMeanOrSumAccumulatorOnly), In(0), In(1),
      IfInt8(Out(0), 0)}},
    {"SUM",
     "reduce.cc reduce_common.cc at ef645912",
     {{1, 1}, {1, 1}},
     {40, 40},
     {In(0), Out(0), In(1), Scratch(ScratchRule::kMeanOrSumAccumulatorOnly), In(0), In(1),
      IfInt8(Out(0), 0)}},
};
// The Arduino library (tensorflow/tflite-micro-arduino-examples 7948b85,
// TFLM synced from upstream 4e62ea7 of 2023-02-26) where its reference
// kernels differ from 90b983c's. The cortex-m column is the library's
// (compiled without TF_LITE_STATIC_MEMORY); params and OpData sizes are
// sizeof on its headers with arm-linux-gnueabihf-g++. The x86-64 column
// repeats the base row's (the library runs on Arm boards only).
//  - TfLiteConvParams 24, TfLiteFullyConnectedParams 12,
//    TfLiteStridedSliceParams 20, TfLiteTransposeConvParams 16: no
//    quantized_bias_type (and no offset for strided slice) yet;
//  - FULLY_CONNECTED: OpDataFullyConnected 36, no per-channel arrays;
//  - CONCATENATION: int8 keeps its inputs' scales and zero points in two
//    persistent arrays allocated in Prepare (float and int32 per input);
//  - MEAN, SUM: only the accumulator scratch (as Zephyr v4.1's);
//  - RELU6: Relu6OpData 2 bytes; SELECT_V2: OpDataSelect 2 bytes;
//  - TRANSPOSE_CONV: an int16 one without a bias crashes Prepare.
// 2023's CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and TRANSPOSE_CONV
// check hybrid type combinations only in Eval; these rows keep 90b983c's
// Prepare-time refusal of them (a model that cannot run either way).
using steps::CmsisNn;
using steps::IfQuantized;
using steps::InRange;
using steps::kAllInputs;
using steps::PerChannel;
using steps::PersistentPerInput;
constexpr KernelRow kArduinoRows[] = {
    {"CONV_2D",
     "conv.cc (upstream 4e62ea7) conv_common.cpp",
     {{28, 4}, {24, 4}},
     {80, 56},
     {Out(0), In(0), In(1), PerChannel(1, 0), In(0), In(1), In(2), Out(0),  // CalculateOpDataConv
      Scratch(ScratchRule::kInt4Filter, 1)},
     TypeRule::kConv},
    {"FULLY_CONNECTED",
     "fully_connected.cc (upstream 4e62ea7) fully_connected_common.cpp",
     {{32, 8}, {12, 4}},
     {72, 36},
     {In(0), In(1), In(2), Out(0), Scratch(ScratchRule::kInt4Filter, 1)},
     TypeRule::kFullyConnected},
    {"STRIDED_SLICE",
     "strided_slice.cpp",
     {{24, 4}, {20, 4}},
     {84, 84},
     {In(0), In(1), In(2), In(3), Out(0)}},
    {"TRANSPOSE_CONV",
     "transpose_conv.cpp",
     {{20, 4}, {16, 4}},
     {88, 72},
     {Out(0), In(2), In(1), PerChannel(1, 0), Scratch(ScratchRule::kTransposeConv),
      IfQuantized(In(2), 2), IfQuantized(In(1), 2),  // CalculateOpData
      IfQuantized(In(3), 2), IfQuantized(Out(0), 2)},
     TypeRule::kTransposeConvArduino},
    {"CONCATENATION",
     "concatenation.cpp",
     {{8, 4}, {8, 4}},
     {80, 24},
     {In(0), Out(0), InRange(0, kAllInputs), Out(0), IfInt8(PersistentPerInput(4), 0),
      IfInt8(PersistentPerInput(4), 0), IfInt8(InRange(0, kAllInputs), 0)}},
    kZephyr41Rows[0],
    kZephyr41Rows[1],
    {"RELU6", "activations.cpp activations_common.cpp", {{0, 1}, {0, 1}}, {8, 2}, {In(0)}},
    {"SELECT_V2", "select.cpp", {{0, 1}, {0, 1}}, {1, 2}, {In(0), In(1), In(2), Out(0)}},
};
// Its CMSIS-NN kernels (kernels/cmsis_nn/*.cpp with CMSIS-NN e98ee09)
// where they differ from 90b983c's. CONV_2D, DEPTHWISE_CONV_2D: OpData 60,
// the int4 filter scratch, no bias lookup among the outputs; SVDF is the
// reference OpDataSvdf and PrepareSvdf (no kernel sums yet).
constexpr KernelRow kArduinoCmsisNnRows[] = {
    {"CONV_2D",
     "cmsis_nn/conv.cpp conv_common.cpp",
     {{28, 4}, {24, 4}},
     {60, 60},
     {In(0), In(1), Out(0), Scratch(ScratchRule::kInt4Filter, 1), IfQuantized(PerChannel(1, 0), 0),
      In(0), In(1), In(2), Out(0),  // CalculateOpDataConv
      CmsisNn(static_cast<uint8_t>(CmsisNnRule::kConvE98ee09))},
     TypeRule::kConv},
    {"DEPTHWISE_CONV_2D",
     "cmsis_nn/depthwise_conv.cpp depthwise_conv_common.cpp",
     {{28, 4}, {28, 4}},
     {60, 60},
     {In(0), In(1), Out(0), IfQuantized(PerChannel(1, 3), 0), Scratch(ScratchRule::kInt4Filter, 1),
      In(0), In(1), In(2), Out(0),  // CalculateOpDataDepthwiseConv
      CmsisNn(static_cast<uint8_t>(CmsisNnRule::kDepthwiseConvE98ee09))},
     TypeRule::kDepthwiseConv},
    {"FULLY_CONNECTED",
     "cmsis_nn/fully_connected.cpp fully_connected_common.cpp",
     {{32, 8}, {12, 4}},
     {60, 60},
     {In(0), In(1), In(2), Out(0),
      CmsisNn(static_cast<uint8_t>(CmsisNnRule::kFullyConnectedE98ee09)),
      Scratch(ScratchRule::kInt4Filter, 1)},
     TypeRule::kFullyConnected},
    {"SVDF",
     "cmsis_nn/svdf.cpp svdf_common.cpp",
     {{12, 4}, {12, 4}},
     {36, 36},
     {InRange(0, 4), Out(0), Scratch(ScratchRule::kSvdf)},
     TypeRule::kSvdf},
};
// The operators the library has a cmsis_nn kernel for; the others (PAD,
// TRANSPOSE, MAXIMUM, MINIMUM, TRANSPOSE_CONV, LSTM got theirs later) run
// its reference kernels.
constexpr const char* kArduinoCmsisNnOps[] = {
    "ADD", "AVERAGE_POOL_2D", "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "MAX_POOL_2D",
    "MUL", "SOFTMAX",         "SVDF"};

// The Add* functions ef645912's MicroMutableOpResolver does not have yet.
constexpr const char* kZephyr41Unregistered[] = {"TFLM_DECODE", "DYNAMIC_UPDATE_SLICE",
                                                 "REDUCE_ALL", "REDUCE_MIN", "REVERSE_V2"};

// The Arduino library (tensorflow/tflite-micro-arduino-examples 7948b85,
// last synced 2023-02-27 from upstream TFLM 4e62ea7): the Add* functions
// its MicroMutableOpResolver does not have, and none of the Signal
// library's custom kernels (it does not ship that library).
constexpr const char* kArduinoUnregistered[] = {
    "BATCH_MATMUL", "TFLM_DECODE", "DYNAMIC_UPDATE_SLICE", "EMBEDDING_LOOKUP",
    "REDUCE_ALL",   "REDUCE_MIN",  "REVERSE_V2",           "Signal*"};

template <typename T, size_t N>
constexpr Span<const T> SpanOf(const T (&a)[N]) {
  return Span<const T>(a, N);
}

constexpr char kEspTfliteMicro140[] =
    "esp-tflite-micro 1.4.0 (99f49e1 = upstream TFLM 0965635, 2026-07-13)";

// Row makers, one per family.
constexpr StackVersion Wheel(const char* name, const char* tflm) {
  StackVersion v;
  v.name = name;
  v.family = StackFamily::kWheel;
  v.tflm = tflm;
  return v;
}
constexpr StackVersion Upstream(const char* name, const char* tflm, const char* cmsis_nn,
                                Span<const KernelRow> reference_rows,
                                Span<const KernelRow> cmsis_nn_rows,
                                Span<const char* const> unregistered, bool ethos_u) {
  StackVersion v;
  v.name = name;
  v.family = StackFamily::kUpstream;
  v.tflm = tflm;
  v.cmsis_nn = cmsis_nn;
  v.reference_rows = reference_rows;
  v.cmsis_nn_rows = cmsis_nn_rows;
  v.unregistered = unregistered;
  v.ethos_u = ethos_u;
  return v;
}
constexpr StackVersion Arduino(const char* name, const char* tflm, const char* cmsis_nn,
                               Span<const KernelRow> reference_rows,
                               Span<const KernelRow> cmsis_nn_rows,
                               Span<const char* const> unregistered) {
  StackVersion v = Upstream(name, tflm, cmsis_nn, reference_rows, cmsis_nn_rows, unregistered,
                            /*ethos_u=*/false);
  v.abi = "cortex-m-arduino";
  v.cmsis_nn_ops = SpanOf(kArduinoCmsisNnOps);
  // The library runs on Arduino's mbed boards (Cortex-M4F, M7): checked
  // with CMSIS-NN's DSP paths only.
  v.cmsis_nn_dsp_only = true;
  return v;
}
constexpr StackVersion EspNn(const char* name, const char* release, EspNnVersion version) {
  StackVersion v;
  v.name = name;
  v.family = StackFamily::kEspNn;
  v.tflm = kEspTfliteMicro140;
  v.esp_nn_release = release;
  v.esp_nn = version;
  return v;
}

// One version a row, newest first within each family.
constexpr StackVersion kVersions[] = {
    // The tflite-micro wheel pinned by this project (.ci/requirements.txt).
    Wheel("0.dev20261023182759",
          "tflite-micro PyPI wheel 0.dev20261023182759 (upstream TFLM 8f6596d, 2026-10-23)"),
    Upstream("90b983c", "upstream TFLM 90b983c (2026-08-20)",
             "CMSIS-NN 4ab83cc (as TFLM's cmsis_nn_download.sh pins it)", {}, {}, {},
             /*ethos_u=*/true),
    // Zephyr's tflite-micro module. v4.4: the allocation code, kernels'
    // Init/Prepare and resolver of 90b983c (only Eval code differs).
    Upstream("zephyr-v4.4", "Zephyr v4.4's module: upstream TFLM f2b2b3f5 (2026-02-12)", nullptr,
             {}, {}, {}, /*ethos_u=*/false),
    Upstream("zephyr-v4.1", "Zephyr v4.1's module: upstream TFLM ef645912 (2025-02-07)", nullptr,
             Span<const KernelRow>(kZephyr41Rows, sizeof(kZephyr41Rows) / sizeof(kZephyr41Rows[0])),
             {},
             Span<const char* const>(kZephyr41Unregistered, sizeof(kZephyr41Unregistered) /
                                                                sizeof(kZephyr41Unregistered[0])),
             /*ethos_u=*/false),
    // The Arduino library, compiled as the Arduino IDE does (no
    // TF_LITE_STATIC_MEMORY: its own struct layout), with its bundled
    // CMSIS-NN on CMSIS-NN targets.
    Arduino("arduino",
            "Arduino library tflite-micro-arduino-examples 7948b85 (upstream TFLM 4e62ea7, "
            "2023-02-26)",
            "CMSIS-NN e98ee09 (bundled in the library's src/third_party/cmsis_nn)",
            SpanOf(kArduinoRows), SpanOf(kArduinoCmsisNnRows), SpanOf(kArduinoUnregistered)),
    // esp-tflite-micro 1.4.0 (99f49e1) is upstream TFLM 0965635 with
    // Espressif's directories; its idf_component.yml accepts esp-nn >= 1.1.1,
    // so the esp-nn release is whatever the application's lock file holds.
    EspNn("1.2.3", "esp-nn 1.2.3 (5f0a807)", EspNnVersion::kV1_2_3),
    EspNn("1.2.2", "esp-nn 1.2.2 (def4d7a)", EspNnVersion::kV1_2_2),
    EspNn("1.2.1", "esp-nn 1.2.1 (79d59ae)", EspNnVersion::kV1_2_1),
    EspNn("1.2.0", "esp-nn 1.2.0 (tag v1.2.0)", EspNnVersion::kV1_2_0),
    EspNn("1.1.2", "esp-nn 1.1.2 (tag v1.1.2)", EspNnVersion::kV1_1_2),
};

}  // namespace

Span<const StackVersion> StackVersions() {
  return Span<const StackVersion>(kVersions, sizeof(kVersions) / sizeof(kVersions[0]));
}

const StackVersion& DefaultStackVersion(StackFamily family) {
  for (const StackVersion& v : kVersions) {
    if (v.family == family) return v;
  }
  return kVersions[0];  // every family has a row (tests_cpp check it)
}

const StackVersion* FindStackVersion(StackFamily family, const char* name) {
  if (name == nullptr) return nullptr;
  for (const StackVersion& v : kVersions) {
    if (v.family == family && std::strcmp(v.name, name) == 0) return &v;
  }
  return nullptr;
}

std::string StackVersionNames(StackFamily family) {
  std::string s;
  for (const StackVersion& v : kVersions) {
    if (v.family != family) continue;
    if (!s.empty()) s += ", ";
    s += v.name;
  }
  return s;
}

bool IsUnregisteredAt(Span<const char* const> unregistered, const char* name) {
  if (name == nullptr) return false;
  for (const char* n : unregistered) {
    const size_t len = std::strlen(n);
    if (len > 0 && n[len - 1] == '*') {
      if (std::strncmp(n, name, len - 1) == 0) return true;
    } else if (std::strcmp(n, name) == 0) {
      return true;
    }
  }
  return false;
}

}  // namespace tflm
}  // namespace tflm_arena
