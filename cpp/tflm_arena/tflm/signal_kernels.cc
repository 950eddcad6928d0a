#include "tflm_arena/tflm/signal_kernels.h"

#include <cstring>

// flexbuffers.h pulls in flatbuffers' string-to-number helpers, whose
// locale-independent variant needs a locale object defined in flatbuffers'
// util.cpp, which we do not build (headers only). Nothing here converts
// text to numbers, so the plain variant is used.
#define FLATBUFFERS_LOCALE_INDEPENDENT 0
#include "flatbuffers/flexbuffers.h"

namespace tflm_arena {
namespace tflm {
namespace {

// Schema TensorType values SignalRfft's "T" option takes.
constexpr int64_t kTypeFloat32 = 0;
constexpr int64_t kTypeInt32 = 2;
constexpr int64_t kTypeInt16 = 7;

// Largest fft_length / num_channels accepted: far above any audio front
// end, low enough that every size below stays exact in 64 bits.
constexpr int64_t kMaxCount = int64_t{1} << 28;

bool Is64(const TargetAbi& abi) { return abi.pointer_bytes == 8; }

// Option `key`, element `index` of the map (as TFLM's FlexbufferWrapper
// reads it: by position among the sorted keys).
Status Option(const char* op, const FlexMap& m, size_t index, const char* key,
              int64_t* value) {
  if (index >= m.keys.size() || m.keys[index] != key) {
    // Say what is there instead, so a misspelt or extra key is obvious.
    std::string have;
    for (const std::string& k : m.keys) have += (have.empty() ? "" : ", ") + k;
    return Status::Error(StatusCode::kInvalidArgument,
                         "custom operator '%s': option '%s' missing from its custom options "
                         "(TFLM reads it as element %zu of the sorted keys; keys: %s)",
                         op, key, index, have.empty() ? "none" : have.c_str());
  }
  if (!m.is_int[index]) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "custom operator '%s': option '%s' is not an integer", op, key);
  }
  *value = m.ints[index];
  return Status::Ok();
}

// Option by key (SignalRfft's "T", which TFLM looks up by name).
Status OptionByKey(const char* op, const FlexMap& m, const char* key, int64_t* value) {
  for (size_t i = 0; i < m.keys.size(); ++i) {
    if (m.keys[i] == key) return Option(op, m, i, key, value);
  }
  return Status::Error(StatusCode::kInvalidArgument,
                       "custom operator '%s': option '%s' missing from its custom options",
                       op, key);
}

Status Count(const char* op, const char* key, int64_t v, int64_t min) {
  if (v < min || v > kMaxCount) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "custom operator '%s': option %s = %lld outside [%lld, %lld]", op, key,
                         static_cast<long long>(v), static_cast<long long>(min),
                         static_cast<long long>(kMaxCount));
  }
  return Status::Ok();
}

NodeTensorRef In(int i) { return NodeTensorRef{false, i}; }
NodeTensorRef Out(int i) { return NodeTensorRef{true, i}; }

// kiss_fftr_alloc's memory need (kissfft v130, tools/kiss_fftr.c and
// kiss_fft.c, the version TFLM builds the Signal library with):
//   sizeof(kiss_fftr_state) + kiss_fft_alloc(nfft/2) + cpx * (nfft/2 * 3/2)
//   kiss_fft_alloc(n) = sizeof(kiss_fft_state) + cpx * (n - 1)
// kiss_fft_state = {int nfft; int inverse; int factors[2 * 32];
// kiss_fft_cpx twiddles[1]} = 264 + cpx; kiss_fftr_state = three pointers.
// cpx (a complex of two scalars) is 4 bytes for int16, 8 for int32/float.
uint64_t KissFftrBytes(int64_t fft_length, uint64_t cpx, const TargetAbi& abi) {
  const uint64_t n = static_cast<uint64_t>(fft_length) / 2;
  const uint64_t fft_state = 264 + cpx;
  const uint64_t sub = fft_state + cpx * (n - 1);
  return 3 * uint64_t{abi.pointer_bytes} + sub + cpx * (n * 3 / 2);
}

}  // namespace

Status ParseFlexMap(Span<const uint8_t> options, FlexMap* out, std::string* error) {
  *out = FlexMap();
  // A copy: flexbuffers reads scalars in place, and the copy's start is
  // aligned as the writer assumed.
  std::vector<uint8_t> buf(options.begin(), options.end());
  if (buf.empty()) {
    *error = "no custom options";
    return Status::Error(StatusCode::kInvalidArgument, "no custom options");
  }
  if (!flexbuffers::VerifyBuffer(buf.data(), buf.size())) {
    *error = "custom options are not a valid flexbuffer";
    return Status::Error(StatusCode::kInvalidArgument, "%s", error->c_str());
  }
  const flexbuffers::Reference root = flexbuffers::GetRoot(buf.data(), buf.size());
  if (!root.IsMap()) {
    *error = "custom options are not a flexbuffer map";
    return Status::Error(StatusCode::kInvalidArgument, "%s", error->c_str());
  }
  const flexbuffers::Map map = root.AsMap();
  const flexbuffers::TypedVector keys = map.Keys();
  const flexbuffers::Vector values = map.Values();
  if (keys.size() != values.size()) {
    *error = "custom options map has keys and values of different counts";
    return Status::Error(StatusCode::kInvalidArgument, "%s", error->c_str());
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    const flexbuffers::Reference k = keys[i];
    const flexbuffers::Reference v = values[i];
    out->keys.push_back(k.IsKey() ? std::string(k.AsKey()) : std::string());
    const bool is_int = v.IsInt() || v.IsUInt() || v.IsBool();
    out->is_int.push_back(is_int);
    out->ints.push_back(!is_int ? 0 : v.IsBool() ? (v.AsBool() ? 1 : 0)
                        : v.IsUInt() ? static_cast<int64_t>(v.AsUInt64() > INT64_MAX
                                                                ? INT64_MAX
                                                                : v.AsUInt64())
                                     : v.AsInt64());
  }
  return Status::Ok();
}

bool IsModelledSignalOp(const char* c) {
  static const char* const kOps[] = {
      "SignalWindow", "SignalFftAutoScale", "SignalRfft", "SignalEnergy",
      "SignalFilterBank", "SignalFilterBankSquareRoot",
      "SignalFilterBankSpectralSubtraction", "SignalPCAN", "SignalFilterBankLog"};
  for (const char* op : kOps) {
    if (std::strcmp(op, c) == 0) return true;
  }
  return false;
}

Status SignalMemory(const char* op, Span<const uint8_t> options, const TargetAbi& abi,
                    SignalOpMemory* out) {
  *out = SignalOpMemory();
  if (!IsModelledSignalOp(op)) {
    return Status::Error(StatusCode::kUnimplemented,
                         "custom operator '%s': its memory behaviour in TFLM is not modelled",
                         op);
  }
  const bool lp64 = Is64(abi);
  // Operators without Init read no options.
  if (std::strcmp(op, "SignalFftAutoScale") == 0) {
    // fft_auto_scale_kernel.cc: no Init; fft_auto_scale_common.cc Prepare.
    out->source = "fft_auto_scale_kernel.cc fft_auto_scale_common.cc";
    out->temps = {In(0), Out(0), Out(1)};
    return Status::Ok();
  }
  if (std::strcmp(op, "SignalFilterBankSquareRoot") == 0) {
    out->source = "filter_bank_square_root.cc filter_bank_square_root_common.cc";
    out->temps = {In(0), In(1), Out(0)};
    return Status::Ok();
  }
  FlexMap m;
  std::string error;
  if (!ParseFlexMap(options, &m, &error).ok()) {
    return Status::Error(StatusCode::kInvalidArgument, "custom operator '%s': %s", op,
                         error.c_str());
  }
  int64_t v = 0;
  if (std::strcmp(op, "SignalWindow") == 0) {
    out->source = "window.cc";
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 0, "shift", &v));
    out->init_buffers = {8};  // TFLMSignalWindowParams {int32 shift, input_size}
    out->temps = {In(0), In(1), Out(0)};
  } else if (std::strcmp(op, "SignalEnergy") == 0) {
    out->source = "energy.cc";
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 0, "end_index", &v));
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 1, "start_index", &v));
    out->init_buffers = {8};  // TFLMSignalEnergyParams {int32 end_index, start_index}
    out->temps = {In(0), Out(0)};
  } else if (std::strcmp(op, "SignalPCAN") == 0) {
    out->source = "pcan.cc";
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 0, "snr_shift", &v));
    out->init_buffers = {4};  // TfLitePcanParams {int snr_shift}
    out->temps = {In(0), In(1), In(2), Out(0)};
  } else if (std::strcmp(op, "SignalFilterBankLog") == 0) {
    out->source = "filter_bank_log.cc";
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 0, "input_correction_bits", &v));
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 1, "output_scale", &v));
    out->init_buffers = {8};  // TFLMSignalLogParams {int, int}
    out->temps = {In(0), Out(0)};
  } else if (std::strcmp(op, "SignalFilterBank") == 0) {
    out->source = "filter_bank.cc";
    int64_t channels = 0;
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 0, "num_channels", &channels));
    TFLM_ARENA_RETURN_IF_ERROR(Count(op, "num_channels", channels, 0));
    // TFLMSignalFilterBankParams {FilterbankConfig config; uint64_t*
    // work_area}; FilterbankConfig {int32 num_channels; five const int16_t*;
    // int32 output_scale, input_correction_bits}: LP64 4+4(pad)+40+8 = 56,
    // +8 = 64; 32-bit 4+20+8 = 32, +4 = 36. Then the work area,
    // (num_channels + 1) uint64.
    out->init_buffers = {lp64 ? 64u : 36u, (static_cast<uint64_t>(channels) + 1) * 8};
    out->temps = {In(0), In(1), In(2), In(3), In(4), In(5), Out(0)};
  } else if (std::strcmp(op, "SignalFilterBankSpectralSubtraction") == 0) {
    out->source = "filter_bank_spectral_subtraction.cc";
    int64_t channels = 0;
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 4, "num_channels", &channels));
    TFLM_ARENA_RETURN_IF_ERROR(Count(op, "num_channels", channels, 0));
    // TFLMSignalSpectralSubtractionParams {SpectralSubtractionConfig config;
    // uint32_t* noise_estimate; size_t noise_estimate_size};
    // SpectralSubtractionConfig {int32; seven uint32; bool} = 36 (4-aligned):
    // LP64 36+4(pad)+8+8 = 56; 32-bit 36+4+4 = 44. Then the noise
    // estimate, num_channels uint32.
    out->init_buffers = {lp64 ? 56u : 44u, static_cast<uint64_t>(channels) * 4};
    out->temps = {In(0), Out(0), Out(1)};
  } else if (std::strcmp(op, "SignalRfft") == 0) {
    out->source = "rfft.cc";
    int64_t type = 0, fft_length = 0;
    TFLM_ARENA_RETURN_IF_ERROR(OptionByKey(op, m, "T", &type));
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 1, "fft_length", &fft_length));
    TFLM_ARENA_RETURN_IF_ERROR(Count(op, "fft_length", fft_length, 2));
    if (fft_length % 2 != 0) {
      // kiss_fftr_alloc refuses an odd length (Init keeps no FFT state).
      return Status::Error(StatusCode::kInvalidArgument,
                           "custom operator '%s': fft_length %lld is odd (TFLM's real FFT "
                           "needs an even length)", op, static_cast<long long>(fft_length));
    }
    uint64_t scalar = 0;
    if (type == kTypeInt16) {
      scalar = 2;
    } else if (type == kTypeInt32 || type == kTypeFloat32) {
      scalar = 4;
    } else {
      return Status::Error(StatusCode::kInvalidArgument,
                           "custom operator '%s': option T = %lld is not INT16, INT32 or "
                           "FLOAT32 (TFLM's RfftInitAll keeps no state for it)",
                           op, static_cast<long long>(type));
    }
    // TfLiteAudioFrontendRfftParams<T> {int32 fft_length, input_size,
    // input_length, output_length; TfLiteType (int-sized enum); T*
    // work_area; int scratch_buffer_index; int8_t* state}: LP64
    // 20+4(pad)+8+4+4(pad)+8 = 48; 32-bit 20+4+4+4 = 32. Then the FFT state.
    out->init_buffers = {lp64 ? 48u : 32u, KissFftrBytes(fft_length, 2 * scalar, abi)};
    out->temps = {In(0), Out(0)};
    out->scratch = {static_cast<uint64_t>(fft_length) * scalar};
  }
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
