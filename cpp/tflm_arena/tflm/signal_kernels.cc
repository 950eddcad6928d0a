#include "tflm_arena/tflm/signal_kernels.h"

#include <cstring>
#include <string>

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
Status Option(const char* op, const FlexMap& m, size_t index, const char* key, int64_t* value) {
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
                       "custom operator '%s': option '%s' missing from its custom options", op,
                       key);
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

// The FFT element size for option T (INT16, INT32, FLOAT32), as
// RfftInitAll / IrfftInitAll switch on it; anything else keeps no state
// in TFLM (Init returns null, and Prepare reads through it).
Status FftScalarBytes(const char* op, int64_t type, uint64_t* scalar) {
  if (type == kTypeInt16) {
    *scalar = 2;
  } else if (type == kTypeInt32 || type == kTypeFloat32) {
    *scalar = 4;
  } else {
    return Status::Error(StatusCode::kInvalidArgument,
                         "custom operator '%s': option T = %lld is not INT16, INT32 or "
                         "FLOAT32 (TFLM's Init keeps no state for it)",
                         op, static_cast<long long>(type));
  }
  return Status::Ok();
}

Status EvenFftLength(const char* op, int64_t fft_length) {
  if (fft_length % 2 != 0) {
    // kiss_fftr_alloc refuses an odd length (Init keeps no FFT state).
    return Status::Error(StatusCode::kInvalidArgument,
                         "custom operator '%s': fft_length %lld is odd (TFLM's real FFT "
                         "needs an even length)",
                         op, static_cast<long long>(fft_length));
  }
  return Status::Ok();
}

// signal/src/circular_buffer.h: CircularBuffer {size_t capacity, read,
// write; int32_t empty, buffer_size; int16_t* buffer}: LP64 24+8+8 = 40;
// 32-bit 12+8+4 = 24. CircularBufferGetNeededMemory(capacity) is that
// plus 2 * capacity int16 elements.
uint64_t CircularBufferBytes(uint64_t capacity, const TargetAbi& abi) {
  return (Is64(abi) ? 40u : 24u) + 2 * capacity * sizeof(int16_t);
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
    std::string key;
    if (k.IsKey()) {
      // The verifier checks a key's offset, not that its text ends inside
      // the buffer: look for the terminator within the buffer only.
      const char* text = k.AsKey();
      const char* begin = reinterpret_cast<const char*>(buf.data());
      const char* end = begin + buf.size();
      const void* nul = text >= begin && text < end
                            ? std::memchr(text, 0, static_cast<size_t>(end - text))
                            : nullptr;
      if (nul == nullptr) {
        *error = "custom options map has a key that does not end inside the options";
        return Status::Error(StatusCode::kInvalidArgument, "%s", error->c_str());
      }
      key.assign(text, static_cast<const char*>(nul));
    }
    out->keys.push_back(key);
    const bool is_int = v.IsInt() || v.IsUInt() || v.IsBool();
    out->is_int.push_back(is_int);
    out->ints.push_back(
        !is_int      ? 0
        : v.IsBool() ? (v.AsBool() ? 1 : 0)
        : v.IsUInt() ? static_cast<int64_t>(v.AsUInt64() > INT64_MAX ? INT64_MAX : v.AsUInt64())
                     : v.AsInt64());
  }
  return Status::Ok();
}

bool IsModelledSignalOp(const char* c) {
  static const char* const kOps[] = {"SignalWindow",
                                     "SignalFftAutoScale",
                                     "SignalRfft",
                                     "SignalEnergy",
                                     "SignalFilterBank",
                                     "SignalFilterBankSquareRoot",
                                     "SignalFilterBankSpectralSubtraction",
                                     "SignalPCAN",
                                     "SignalFilterBankLog",
                                     "SignalIrfft",
                                     "SignalFramer",
                                     "SignalStacker",
                                     "SignalOverlapAdd",
                                     "SignalDelay"};
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
                         "custom operator '%s': its memory behaviour in TFLM is not modelled", op);
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
    TFLM_ARENA_RETURN_IF_ERROR(EvenFftLength(op, fft_length));
    uint64_t scalar = 0;
    TFLM_ARENA_RETURN_IF_ERROR(FftScalarBytes(op, type, &scalar));
    // TfLiteAudioFrontendRfftParams<T> {int32 fft_length, input_size,
    // input_length, output_length; TfLiteType (int-sized enum); T*
    // work_area; int scratch_buffer_index; int8_t* state}: LP64
    // 20+4(pad)+8+4+4(pad)+8 = 48; 32-bit 20+4+4+4 = 32. Then the FFT state.
    out->init_buffers = {lp64 ? 48u : 32u, KissFftrBytes(fft_length, 2 * scalar, abi)};
    out->temps = {In(0), Out(0)};
    out->scratch = {static_cast<uint64_t>(fft_length) * scalar};
  } else if (std::strcmp(op, "SignalIrfft") == 0) {
    out->source = "irfft.cc";
    int64_t type = 0, fft_length = 0;
    TFLM_ARENA_RETURN_IF_ERROR(OptionByKey(op, m, "T", &type));
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 1, "fft_length", &fft_length));
    TFLM_ARENA_RETURN_IF_ERROR(Count(op, "fft_length", fft_length, 2));
    TFLM_ARENA_RETURN_IF_ERROR(EvenFftLength(op, fft_length));
    uint64_t scalar = 0;
    TFLM_ARENA_RETURN_IF_ERROR(FftScalarBytes(op, type, &scalar));
    // TfLiteAudioFrontendIrfftParams {int32 fft_length, input_size,
    // input_length, output_length; TfLiteType fft_type; int8_t* state}:
    // LP64 20+4(pad)+8 = 32; 32-bit 20+4 = 24. Then the state: kiss_fftr's
    // need (inverse: the same memory as forward), for FLOAT32 after an
    // IrfftFloatState {int32 fft_length; kiss_fftr_cfg cfg} (signal/src/
    // irfft_float.cc): LP64 16, 32-bit 8.
    const uint64_t float_state = type == kTypeFloat32 ? (lp64 ? 16u : 8u) : 0u;
    out->init_buffers = {lp64 ? 32u : 24u,
                         float_state + KissFftrBytes(fft_length, 2 * scalar, abi)};
    out->temps = {In(0), Out(0)};
  } else if (std::strcmp(op, "SignalStacker") == 0) {
    out->source = "stacker.cc";
    int64_t channels = 0, left = 0, right = 0, step = 0;
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 0, "num_channels", &channels));
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 1, "stacker_left_context", &left));
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 2, "stacker_right_context", &right));
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 3, "stacker_step", &step));
    TFLM_ARENA_RETURN_IF_ERROR(Count(op, "num_channels", channels, 0));
    TFLM_ARENA_RETURN_IF_ERROR(Count(op, "stacker_left_context", left, 0));
    TFLM_ARENA_RETURN_IF_ERROR(Count(op, "stacker_right_context", right, 0));
    TFLM_ARENA_RETURN_IF_ERROR(Count(op, "stacker_step", step, 0));
    // Init: buffer_size = num_channels * (left + right + 1) elements
    // (int32 arithmetic in TFLM: bounded here so it cannot overflow).
    const uint64_t buffer_size =
        static_cast<uint64_t>(channels) * static_cast<uint64_t>(left + right + 1);
    if (buffer_size > static_cast<uint64_t>(kMaxCount)) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "custom operator '%s': num_channels * (stacker_left_context + "
                           "stacker_right_context + 1) = %llu outside [0, %lld]",
                           op, static_cast<unsigned long long>(buffer_size),
                           static_cast<long long>(kMaxCount));
    }
    // TFLMSignalStackerParams {int32 num_channels, left, right, step;
    // size_t buffer_size, step_size; bool stacker_has_first_frame; int8_t*
    // state; CircularBuffer* circular_buffer}: LP64 16+16+1+7(pad)+16 = 56;
    // 32-bit 16+8+1+3(pad)+8 = 36. Then the circular buffer's state.
    out->init_buffers = {lp64 ? 56u : 36u, CircularBufferBytes(buffer_size, abi)};
    out->temps = {In(0), Out(0), Out(1)};
  } else if (std::strcmp(op, "SignalFramer") == 0) {
    out->source = "framer.cc";
    int64_t prefill = 0;
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 0, "frame_size", &out->frame_size));
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 1, "frame_step", &out->frame_step));
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 2, "prefill", &prefill));
    TFLM_ARENA_RETURN_IF_ERROR(Count(op, "frame_size", out->frame_size, 0));
    // Prepare divides by frame_step (a zero would crash TFLM).
    TFLM_ARENA_RETURN_IF_ERROR(Count(op, "frame_step", out->frame_step, 1));
    // TFLMSignalFramerParams {int32 frame_size, frame_step, outer_dims,
    // n_frames; bool prefill; int8_t** state_buffers; CircularBuffer**
    // circular_buffers}: LP64 17+7(pad)+16 = 40; 32-bit 17+3(pad)+8 = 28.
    out->init_buffers = {lp64 ? 40u : 28u};
    out->temps = {In(0), Out(0), Out(1)};
    out->prepare = SignalPrepareRule::kFramer;
  } else if (std::strcmp(op, "SignalDelay") == 0) {
    out->source = "delay.cc";
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 0, "delay_length", &out->delay_length));
    TFLM_ARENA_RETURN_IF_ERROR(Count(op, "delay_length", out->delay_length, 0));
    // TFLMSignalFrontendDelayParams {int32 frame_size, delay_length,
    // outer_dims; int8_t** state_buffers; CircularBuffer**
    // circular_buffers}: LP64 12+4(pad)+16 = 32; 32-bit 12+8 = 20.
    out->init_buffers = {lp64 ? 32u : 20u};
    out->temps = {In(0), Out(0)};
    out->prepare = SignalPrepareRule::kDelay;
  } else if (std::strcmp(op, "SignalOverlapAdd") == 0) {
    out->source = "overlap_add.cc";
    int64_t type = 0, frame_step = 0;
    TFLM_ARENA_RETURN_IF_ERROR(OptionByKey(op, m, "T", &type));
    TFLM_ARENA_RETURN_IF_ERROR(Option(op, m, 1, "frame_step", &frame_step));
    if (type == kTypeInt16) {
      out->element_bytes = 2;
    } else if (type == kTypeFloat32) {
      out->element_bytes = 4;
    } else {
      return Status::Error(StatusCode::kInvalidArgument,
                           "custom operator '%s': option T = %lld is not INT16 or FLOAT32 "
                           "(TFLM's OverlapAddInitAll keeps no state for it)",
                           op, static_cast<long long>(type));
    }
    // TFLMSignalOverlapAddParams<T> {int32 frame_size, frame_step,
    // outer_dims, n_frames; TfLiteType type; T** state_buffers}: LP64
    // 20+4(pad)+8 = 32; 32-bit 20+4 = 24.
    out->init_buffers = {lp64 ? 32u : 24u};
    out->temps = {In(0), Out(0)};
    out->prepare = SignalPrepareRule::kOverlapAdd;
  }
  return Status::Ok();
}

Status SignalPrepareBuffers(const char* op, const SignalOpMemory& mem, Span<const int32_t> shape,
                            const TargetAbi& abi, std::vector<uint64_t>* buffers,
                            std::string* refusal) {
  buffers->clear();
  refusal->clear();
  if (mem.prepare == SignalPrepareRule::kNone) return Status::Ok();
  const size_t rank = shape.size();
  const size_t min_rank = mem.prepare == SignalPrepareRule::kOverlapAdd ? 2 : 1;
  if (rank < min_rank) {
    if (mem.prepare == SignalPrepareRule::kOverlapAdd) {
      *refusal = "input_shape.DimensionsCount() >= 2 was not true.";
      return Status::Ok();
    }
    // TFLM reads the innermost dimension of a scalar (out of bounds).
    return Status::Error(StatusCode::kInvalidArgument,
                         "custom operator '%s': input 0 is a scalar; TFLM's %s reads its "
                         "innermost dimension",
                         op, mem.source);
  }
  // Innermost dimension(s) and the rows before them; TFLM divides the
  // flat size by the former.
  const size_t inner_dims = min_rank;
  uint64_t inner = 1;
  for (size_t d = rank - inner_dims; d < rank; ++d) inner *= static_cast<uint64_t>(shape[d]);
  if (inner == 0) {
    return Status::Error(StatusCode::kInvalidArgument,
                         "custom operator '%s': input 0 has a zero innermost dimension; "
                         "TFLM's %s divides by it",
                         op, mem.source);
  }
  uint64_t rows = 1;
  for (size_t d = 0; d + inner_dims < rank; ++d) {
    rows *= static_cast<uint64_t>(shape[d]);
    if (rows > kMaxSignalOuterRows) {
      return Status::Error(StatusCode::kInvalidArgument,
                           "custom operator '%s': input 0 has more than %llu rows before "
                           "its innermost dimension (one persistent buffer each in TFLM; "
                           "not modelled)",
                           op, static_cast<unsigned long long>(kMaxSignalOuterRows));
    }
  }
  const uint64_t ptr = abi.pointer_bytes;
  const uint64_t innermost = static_cast<uint64_t>(shape[rank - 1]);
  uint64_t per_row = 0;
  switch (mem.prepare) {
    case SignalPrepareRule::kNone:
      return Status::Ok();
    case SignalPrepareRule::kFramer: {
      const uint64_t step = static_cast<uint64_t>(mem.frame_step);
      if (innermost < step) {
        *refusal = "innermost_dim >= params->frame_step was not true.";
        return Status::Ok();
      }
      if (innermost % step != 0) {
        *refusal = "innermost_dim % params->frame_step != 0 (" + std::to_string(innermost % step) +
                   " != 0)";
        return Status::Ok();
      }
      // state_buffers and circular_buffers pointer arrays, then per row a
      // circular buffer of frame_size rounded up to a multiple of
      // frame_step elements.
      const uint64_t size = static_cast<uint64_t>(mem.frame_size);
      const uint64_t capacity = (size + step - 1) / step * step;
      buffers->assign({rows * ptr, rows * ptr});
      per_row = CircularBufferBytes(capacity, abi);
      break;
    }
    case SignalPrepareRule::kDelay: {
      // The same arrays, then per row a circular buffer of frame_size
      // (the innermost dimension) + delay_length elements.
      buffers->assign({rows * ptr, rows * ptr});
      per_row = CircularBufferBytes(innermost + static_cast<uint64_t>(mem.delay_length), abi);
      break;
    }
    case SignalPrepareRule::kOverlapAdd:
      // state_buffers, then per row one frame (the innermost dimension)
      // of T.
      buffers->assign({rows * ptr});
      per_row = innermost * mem.element_bytes;
      break;
  }
  buffers->insert(buffers->end(), static_cast<size_t>(rows), per_row);
  return Status::Ok();
}

}  // namespace tflm
}  // namespace tflm_arena
