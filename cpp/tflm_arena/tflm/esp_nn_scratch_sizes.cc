#include "tflm_arena/tflm/esp_nn_scratch_sizes.h"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "tflm_arena/core/enum_names.h"

namespace tflm_arena {
namespace tflm {
namespace {

// esp-nn computes in int (32 bits) from int32 arguments it first narrows to
// uint16_t; the products here reach at most four uint16 factors, so 128 bits
// hold every intermediate exactly.
using Wide = __int128;

// The uint16_t locals of esp-nn's S3 and P4 size functions.
Wide U16(int64_t v) { return static_cast<uint16_t>(static_cast<uint64_t>(v)); }

// The arguments as esp-nn's S3 and P4 size functions hold them: every
// dimension and parameter in a uint16_t local.
struct Narrowed {
  explicit Narrowed(const EspNnConv& c)
      : in_wd(U16(c.input.width)),
        in_ht(U16(c.input.height)),
        in_ch(U16(c.input.channels)),
        f_wd(U16(c.filter.width)),
        f_ht(U16(c.filter.height)),
        out_wd(U16(c.output.width)),
        out_ht(U16(c.output.height)),
        out_ch(U16(c.output.channels)),
        pad_wd(U16(c.pad_w)),
        pad_ht(U16(c.pad_h)),
        stride_wd(U16(c.stride_w)),
        stride_ht(U16(c.stride_h)),
        ch_mult(U16(c.ch_mult)) {}
  Wide in_wd, in_ht, in_ch, f_wd, f_ht, out_wd, out_ht, out_ch;
  Wide pad_wd, pad_ht, stride_wd, stride_ht, ch_mult;
};

Status Overflow(const char* fn) {
  return Status::Error(StatusCode::kInvalidArgument,
                       "%s: the result overflows the int esp-nn computes it in", fn);
}
Status DivideByZero(const char* fn, const char* what) {
  return Status::Error(StatusCode::kInvalidArgument,
                       "%s divides by %s, which is 0 for this operator (as esp-nn reads it, "
                       "narrowed to 16 bits)",
                       fn, what);
}
Status Result(const char* fn, Wide v, int64_t* out) {
  if (v > INT32_MAX || v < INT32_MIN) return Overflow(fn);
  *out = static_cast<int64_t>(v);
  return Status::Ok();
}

// esp_nn_get_conv_scratch_size_esp32s3 (esp_nn_conv_esp32s3.c), and the
// ESP32-P4 function before esp-nn 1.2.3, which was the same code. Per
// release:
//  - 1.1.2 and 1.2.0: a 1x1 stride-1 unpadded path, else a 16-channel
//    filter copy, the padded input when padding is non-zero and 4 bytes an
//    output channel, with 32 bytes for alignment;
//  - 1.2.1 and 1.2.2 add an im2col path (a filter row under 16 bytes, a
//    window of 16 or more), the worst-case filter-row alignment and the
//    right/bottom boundary padding;
//  - 1.2.3 raises the alignment allowance to 64 (16 + a 48-byte assembly
//    access margin).
Status ConvPadded16(const char* fn, EspNnVersion version, const EspNnConv& c, int64_t* out) {
  const Narrowed n(c);
  const Wide in_wd = n.in_wd, in_ht = n.in_ht, in_ch = n.in_ch, f_wd = n.f_wd, f_ht = n.f_ht;
  const Wide out_ch = n.out_ch, pad_wd = n.pad_wd, pad_ht = n.pad_ht;
  const Wide stride_wd = n.stride_wd, stride_ht = n.stride_ht;
  const bool bounds_terms = version >= EspNnVersion::kV1_2_1;
  const Wide align_buf = version >= EspNnVersion::kV1_2_3 ? 64 : 32;
  if (f_wd == 1 && f_ht == 1 && pad_wd == 0 && pad_ht == 0 && stride_wd == 1 && stride_ht == 1) {
    const Wide new_ch = (in_ch + 7) / 8 * 8;
    const Wide transpose = in_wd * in_ht < 8 ? 0 : 2 * (8 * new_ch);
    const Wide input_scratch = in_ch % 8 != 0 ? in_wd * in_ht * new_ch : 0;
    return Result(fn, input_scratch + new_ch * out_ch + transpose + align_buf, out);
  }
  const Wide row = f_wd * in_ch;
  const Wide window = f_wd * f_ht * in_ch;
  if (bounds_terms && row < 16 && window >= 16) {  // im2col path
    const Wide window_aligned = (window + 15) / 16 * 16;
    return Result(fn, out_ch * 4 + 16 + out_ch * window_aligned + 16 + window_aligned + align_buf,
                  out);
  }
  const Wide new_ch = (in_ch + 15) / 16 * 16;
  const Wide input_scratch =
      pad_wd == 0 && pad_ht == 0 ? 0 : (in_wd + 2 * pad_wd) * (in_ht + 2 * pad_ht) * in_ch;
  const Wide filter_scratch = f_wd * f_ht * new_ch * out_ch;
  Wide filter_alignment = 0;
  Wide boundary = 0;
  if (bounds_terms) {
    filter_alignment = (row + 15) / 16 * 16 * f_ht * out_ch;
    // output_dims->width/height are read as int32 here, not narrowed.
    const Wide pad_right = std::max<Wide>(0, Wide{c.output.width} * stride_wd + f_wd - 1 - in_wd);
    const Wide pad_bottom = std::max<Wide>(0, Wide{c.output.height} * stride_ht + f_ht - 1 - in_ht);
    if (pad_right > 0 || pad_bottom > 0) {
      boundary = (in_wd + pad_right) * (in_ht + pad_bottom) * in_ch;
    }
  }
  return Result(
      fn, input_scratch + filter_scratch + filter_alignment + boundary + align_buf + out_ch * 4,
      out);
}

// esp_nn_conv_esp32p4.c, esp_nn_get_conv_scratch_size_esp32p4 as esp-nn 1.2.3
// rewrote it (channel-padding, direct, im2col and L1-tiled paths).
Status ConvP4(const EspNnConv& c, int64_t* out) {
  constexpr const char* kFn = "esp_nn_get_conv_scratch_size_esp32p4";
  constexpr Wide kL1dBudget = 32768;  // L1D_BUDGET, same file
  const Narrowed n(c);
  const Wide in_wd = n.in_wd, in_ht = n.in_ht, in_ch = n.in_ch, f_wd = n.f_wd, f_ht = n.f_ht;
  const Wide out_ch = n.out_ch, pad_wd = n.pad_wd, pad_ht = n.pad_ht;
  const Wide stride_wd = n.stride_wd, stride_ht = n.stride_ht;
  const Wide align_buf = 32;
  if (f_wd == 1 && f_ht == 1 && pad_wd == 0 && pad_ht == 0 && stride_wd == 1 && stride_ht == 1) {
    if (in_ch < 16) {  // channel-padding path
      return Result(kFn, out_ch * 4 + 16 * out_ch + 32 + align_buf, out);
    }
    const Wide new_ch = (in_ch + 7) / 8 * 8;
    const Wide transpose = in_wd * in_ht < 8 ? 0 : 2 * (8 * new_ch);
    const Wide input_scratch = in_ch % 8 != 0 ? in_wd * in_ht * new_ch : 0;
    return Result(kFn, input_scratch + new_ch * out_ch + transpose + align_buf, out);
  }
  const Wide new_ch = (in_ch + 15) / 16 * 16;
  const Wide offset_acc = out_ch * 4;
  if (pad_wd == 0 && pad_ht == 0 && f_wd * in_ch >= 16) {  // direct, no padding
    return Result(kFn, f_wd * f_ht * new_ch * out_ch + align_buf + offset_acc, out);
  }
  if (f_wd * f_ht * in_ch >= 16) {  // im2col: one window
    return Result(kFn, offset_acc + f_wd * f_ht * in_ch + align_buf, out);
  }
  if (pad_wd == 0 && pad_ht == 0) {  // window < 16 elements: tiled
    if (f_wd == 0) return DivideByZero(kFn, "the filter width");
    const Wide eff_ch = ((16 + f_wd - 1) / f_wd + 15) / 16 * 16;
    return Result(
        kFn, offset_acc + f_wd * f_ht * eff_ch * out_ch + in_wd * in_ht * eff_ch + align_buf, out);
  }
  const Wide padded_wd = in_wd + 2 * pad_wd;
  const Wide full_input = padded_wd * (in_ht + 2 * pad_ht) * in_ch;
  Wide input_scratch = 0;
  Wide filter_scratch = 0;
  if (full_input + offset_acc > kL1dBudget) {  // tiled
    Wide eff_ch = in_ch;
    Wide filt_aligned = 0;
    if (f_wd * in_ch < 16) {
      if (f_wd == 0) return DivideByZero(kFn, "the filter width");
      eff_ch = ((16 + f_wd - 1) / f_wd + 15) / 16 * 16;
      filt_aligned = f_wd * f_ht * eff_ch * out_ch;
    }
    const Wide tile_row = padded_wd * eff_ch;
    const Wide budget = kL1dBudget - offset_acc - filt_aligned;
    Wide tile_t = 1;
    if (budget > 0 && f_ht * tile_row <= budget) {
      if (stride_ht * tile_row == 0) return DivideByZero(kFn, "stride height x tile row bytes");
      tile_t = (budget - f_ht * tile_row) / (stride_ht * tile_row) + 1;  // truncates as C does
      // output_dims->height is read as int32 here, not narrowed.
      if (tile_t > c.output.height) tile_t = c.output.height;
    }
    input_scratch = ((tile_t - 1) * stride_ht + f_ht + 2 * pad_ht) * tile_row;
    filter_scratch = filt_aligned;
  } else {  // monolithic padded
    input_scratch = full_input;
    filter_scratch = f_wd * f_ht * new_ch * out_ch;
  }
  return Result(kFn, input_scratch + filter_scratch + align_buf + offset_acc, out);
}

// The S3 depthwise 3x3 path on multiples of 16 channels (every release):
// the padding it buffers, twice the given padding, or without padding what
// the output's reach needs beyond the input (may be negative, as in esp-nn).
void Padding3x3(const Narrowed& n, Wide* pad_width, Wide* pad_height) {
  if (n.pad_wd != 0 || n.pad_ht != 0) {
    *pad_width = n.pad_wd * 2;
    *pad_height = n.pad_ht * 2;
  } else {
    *pad_width = n.out_wd * n.stride_wd + n.f_wd - 1 - n.in_wd;
    *pad_height = n.out_ht * n.stride_ht + n.f_ht - 1 - n.in_ht;
  }
}

// esp_nn_depthwise_conv_s8_esp32s3.c, esp_nn_get_depthwise_conv_scratch_size_esp32s3
// before esp-nn 1.2.1: 3x3 multiplier-1 kernels on multiples of 8 channels
// and multipliers of 4 take scratch, everything else 32 bytes. The s16
// paths' alignment allowance is 16 bytes in 1.1.2 and 32 in 1.2.0.
Status DepthwiseS3Before121(EspNnVersion version, const EspNnConv& c, int64_t* out) {
  constexpr const char* kFn = "esp_nn_get_depthwise_conv_scratch_size_esp32s3";
  const Narrowed n(c);
  const Wide in_wd = n.in_wd, in_ht = n.in_ht, channels = n.in_ch, f_wd = n.f_wd, f_ht = n.f_ht;
  const Wide ch_mult = n.ch_mult;
  const Wide filter_size = f_wd * f_ht * channels * ch_mult;
  const Wide s16_gap = version >= EspNnVersion::kV1_2_0 ? 32 : 16;
  if (ch_mult == 1 && channels % 8 == 0 && f_wd == 3 && f_ht == 3) {
    if (channels % 16 == 0) {
      Wide pad_width = 0, pad_height = 0;
      Padding3x3(n, &pad_width, &pad_height);
      if (pad_width == 0 && pad_height == 0) return Result(kFn, filter_size + 16, out);
      return Result(kFn, filter_size + (in_wd + pad_width) * (in_ht + pad_height) * channels + 16,
                    out);
    }
    return Result(kFn, 2 * (filter_size + in_wd * in_ht * channels) + s16_gap, out);
  }
  if (ch_mult % 4 == 0) {
    return Result(kFn, 2 * (filter_size + in_wd * in_ht * channels) + s16_gap, out);
  }
  *out = 32;  // "just few bytes"
  return Status::Ok();
}

// The same function from esp-nn 1.2.1 (unchanged through 1.2.3): more
// channel counts and multipliers take the s16 and channel-padding paths,
// and large inputs are buffered a filter height of rows at a time.
Status DepthwiseS3(const EspNnConv& c, int64_t* out) {
  constexpr const char* kFn = "esp_nn_get_depthwise_conv_scratch_size_esp32s3";
  const Narrowed n(c);
  const Wide in_wd = n.in_wd, in_ht = n.in_ht, channels = n.in_ch, f_wd = n.f_wd, f_ht = n.f_ht;
  const Wide ch_mult = n.ch_mult, out_wd = n.out_wd, out_ht = n.out_ht;
  const Wide pad_wd = n.pad_wd, pad_ht = n.pad_ht, stride_wd = n.stride_wd, stride_ht = n.stride_ht;
  const Wide filter_size = f_wd * f_ht * channels * ch_mult;
  if (ch_mult == 1 && channels % 8 == 0) {
    if (f_wd == 3 && f_ht == 3) {
      if (channels % 16 == 0) {
        Wide pad_width = 0, pad_height = 0;
        Padding3x3(n, &pad_width, &pad_height);
        if (pad_width == 0 && pad_height == 0) return Result(kFn, filter_size + 16, out);
        const Wide full_input = (in_wd + pad_width) * (in_ht + pad_height) * channels;
        if (full_input <= Wide{40} * 1024) return Result(kFn, filter_size + full_input + 16, out);
        return Result(kFn, filter_size + (in_wd + pad_width) * f_ht * channels + 16, out);
      }
      if (channels >= 12) {  // pad channels to 16, then compact
        const Wide new_ch = (channels + 15) / 16 * 16;
        const Wide total_pad_wd = pad_wd * 2 + std::max<Wide>(0, out_wd * stride_wd + 2 - in_wd);
        const Wide total_pad_ht = pad_ht * 2 + std::max<Wide>(0, out_ht * stride_ht + 2 - in_ht);
        const Wide new_input = (in_wd + total_pad_wd) * (in_ht + total_pad_ht) * new_ch;
        return Result(kFn, 9 * new_ch + new_input + out_wd * out_ht * new_ch + 64, out);
      }
      return Result(kFn, 2 * (filter_size + in_wd * in_ht * channels) + 32, out);  // 8 channels
    }
    const Wide total_s16 = 2 * (filter_size + in_wd * in_ht * channels);
    if (total_s16 <= Wide{48} * 1024) return Result(kFn, total_s16 + 32, out);
    return Result(kFn, 2 * filter_size + 2 * in_wd * f_ht * channels + 32, out);
  }
  if (ch_mult == 1 && channels > 3) {
    // Padded to 8 channels; four 16-aligned regions (in size_t, 32 bits on the chip).
    const Wide padded = (channels + 7) / 8 * 8;
    const Wide filter_bytes = f_wd * f_ht * padded * 2;
    const Wide input_start = (filter_bytes + 15) / 16 * 16;
    const Wide out_start = (input_start + in_wd * in_ht * padded * 2 + 15) / 16 * 16;
    const Wide bias_start = (out_start + out_wd * out_ht * padded + 15) / 16 * 16;
    const Wide total = bias_start + 3 * (padded * 4);
    if (total + 16 > UINT32_MAX) return Overflow(kFn);
    return Result(kFn, total + 16, out);
  }
  if (ch_mult % 4 == 0) return Result(kFn, 2 * (filter_size + in_wd * in_ht * channels) + 32, out);
  *out = 32;  // default
  return Status::Ok();
}

}  // namespace

const char* EspNnChipName(EspNnChip chip) {
  static constexpr EnumName<EspNnChip> kNames[] = {
      {EspNnChip::kAnsiC, "ANSI C"},
      {EspNnChip::kEsp32, "ESP32 (generic optimized)"},
      {EspNnChip::kEsp32S3, "ESP32-S3"},
      {EspNnChip::kEsp32P4, "ESP32-P4"},
  };
  return NameOf(kNames, chip, "?");
}

Status EspNnConvScratchSize(EspNnChip chip, EspNnVersion version, const EspNnConv& conv,
                            int64_t* out) {
  switch (chip) {
    case EspNnChip::kAnsiC:  // esp_nn_conv_ansi.c
    case EspNnChip::kEsp32:  // esp_nn_conv_opt.c
      *out = 0;
      return Status::Ok();
    case EspNnChip::kEsp32S3:
      return ConvPadded16("esp_nn_get_conv_scratch_size_esp32s3", version, conv, out);
    case EspNnChip::kEsp32P4:
      if (version >= EspNnVersion::kV1_2_3) return ConvP4(conv, out);
      // Before 1.2.3 the P4 function was the S3 code of 1.2.0.
      return ConvPadded16("esp_nn_get_conv_scratch_size_esp32p4", EspNnVersion::kV1_2_0, conv, out);
  }
  *out = 0;
  return Status::Ok();
}

Status EspNnDepthwiseConvScratchSize(EspNnChip chip, EspNnVersion version, const EspNnConv& conv,
                                     int64_t* out) {
  // ANSI (esp_nn_depthwise_conv_ansi.c), generic optimized
  // (esp_nn_depthwise_conv_opt.c) and P4 return 0 (the P4 build links the
  // generic function before 1.2.3 and esp_nn_depthwise_conv_esp32p4.c from it).
  if (chip == EspNnChip::kEsp32S3) {
    if (version >= EspNnVersion::kV1_2_1) return DepthwiseS3(conv, out);
    return DepthwiseS3Before121(version, conv, out);
  }
  *out = 0;
  return Status::Ok();
}

Status EspNnSoftmaxScratchSize(EspNnChip chip, EspNnVersion version, int64_t width, int64_t* out) {
  (void)version;                    // the same in every modelled release
  if (chip == EspNnChip::kAnsiC) {  // esp_nn_softmax_ansi.c
    *out = 0;
    return Status::Ok();
  }
  // esp_nn_softmax_opt.c, esp_nn_softmax_s8_esp32s3.c (from 1.2.1),
  // esp_nn_softmax_s8_esp32p4.c (from 1.2.3): width * 4.
  return Result("esp_nn_get_softmax_scratch_size", Wide{width} * 4, out);
}

}  // namespace tflm
}  // namespace tflm_arena
