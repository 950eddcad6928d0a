// Pooling math (see pooling.h for the rules reproduced).
#include <algorithm>
#include <limits>

#include "tflm_arena/runtime/kernels/pooling.h"

namespace tflm_arena {
namespace runtime {
namespace {

// The input window of one output position, clipped to the input. The
// origin and clipping are formed in 64 bits: with extents near INT32_MAX the
// int32 sums TFLM writes could overflow; the results are the same whenever
// they do not.
struct Window {
  int32_t in_y0, in_x0;  // origin (may be negative)
  int32_t fy_begin, fy_end, fx_begin, fx_end;
};

inline Window WindowAt(const PoolGeometry& g, int32_t out_y, int32_t out_x) {
  const int64_t y0 = static_cast<int64_t>(out_y) * g.stride_height - g.pad_height;
  const int64_t x0 = static_cast<int64_t>(out_x) * g.stride_width - g.pad_width;
  Window w;
  w.in_y0 = static_cast<int32_t>(y0);
  w.in_x0 = static_cast<int32_t>(x0);
  w.fy_begin = static_cast<int32_t>(std::max<int64_t>(0, -y0));
  w.fy_end = static_cast<int32_t>(std::min<int64_t>(g.filter_height, g.input_height - y0));
  w.fx_begin = static_cast<int32_t>(std::max<int64_t>(0, -x0));
  w.fx_end = static_cast<int32_t>(std::min<int64_t>(g.filter_width, g.input_width - x0));
  return w;
}

// int32 addition wrapping like TFLM's int32 sums do in practice (a window of
// more than 65536 int16 values can overflow), without undefined behaviour.
inline int32_t WrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
}

inline size_t InputIndex(const PoolGeometry& g, int32_t b, int32_t y, int32_t x, int32_t c) {
  return ((static_cast<size_t>(b) * g.input_height + y) * g.input_width + x) * g.depth + c;
}

inline size_t OutputIndex(const PoolGeometry& g, int32_t b, int32_t y, int32_t x, int32_t c) {
  return ((static_cast<size_t>(b) * g.output_height + y) * g.output_width + x) * g.depth + c;
}

// Calls visit(value) for channel c of every input position of window `w`
// (batch b), rows then columns, as TFLM's loops do; walks pointers instead
// of recomputing the 4-D index per value.
template <typename T, typename Visit>
inline void ForEachInWindow(const PoolGeometry& g, int32_t b, const Window& w, int32_t c,
                            const T* input, Visit visit) {
  if (w.fy_begin >= w.fy_end || w.fx_begin >= w.fx_end) return;
  const size_t depth = static_cast<size_t>(g.depth);
  const size_t row_stride = static_cast<size_t>(g.input_width) * depth;
  const int32_t columns = w.fx_end - w.fx_begin;
  const T* row = input + InputIndex(g, b, w.in_y0 + w.fy_begin, w.in_x0 + w.fx_begin, c);
  for (int32_t fy = w.fy_begin; fy < w.fy_end; ++fy, row += row_stride) {
    const T* p = row;
    for (int32_t i = 0; i < columns; ++i, p += depth) visit(*p);
  }
}

// Values in a window (0 for an empty one).
inline int32_t WindowCount(const Window& w) {
  if (w.fy_begin >= w.fy_end || w.fx_begin >= w.fx_end) return 0;
  return (w.fy_end - w.fy_begin) * (w.fx_end - w.fx_begin);
}

template <typename T>
bool AveragePoolInteger(const PoolGeometry& geometry, int32_t act_min, int32_t act_max,
                        const T* input, T* output) {
  const PoolGeometry g = geometry;  // a local: output stores cannot alias it
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.output_height; ++oy) {
      for (int32_t ox = 0; ox < g.output_width; ++ox) {
        const Window w = WindowAt(g, oy, ox);
        for (int32_t c = 0; c < g.depth; ++c) {
          int32_t sum = 0;
          ForEachInWindow(g, b, w, c, input, [&sum](T v) { sum = WrapAdd(sum, v); });
          const int32_t count = WindowCount(w);
          if (count == 0) return false;
          int32_t avg = RoundedAverage(sum, count);
          avg = std::min(std::max(avg, act_min), act_max);
          output[OutputIndex(g, b, oy, ox, c)] = static_cast<T>(avg);
        }
      }
    }
  }
  return true;
}

template <typename T>
void MaxPoolTyped(const PoolGeometry& geometry, T act_min, T act_max, const T* input, T* output) {
  const PoolGeometry g = geometry;  // a local: output stores cannot alias it
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.output_height; ++oy) {
      for (int32_t ox = 0; ox < g.output_width; ++ox) {
        const Window w = WindowAt(g, oy, ox);
        for (int32_t c = 0; c < g.depth; ++c) {
          T best = std::numeric_limits<T>::lowest();
          ForEachInWindow(g, b, w, c, input, [&best](T v) { best = std::max(best, v); });
          best = std::max(best, act_min);
          best = std::min(best, act_max);
          output[OutputIndex(g, b, oy, ox, c)] = best;
        }
      }
    }
  }
}

// Clamp bounds of an integer type from int32 (they are within range after
// prepare; saturate defensively).
template <typename T>
T NarrowBound(int32_t v) {
  const int32_t lo = std::numeric_limits<T>::min();
  const int32_t hi = std::numeric_limits<T>::max();
  return static_cast<T>(std::min(std::max(v, lo), hi));
}

}  // namespace

bool AveragePoolFloat(const PoolGeometry& geometry, float act_min, float act_max,
                      const float* input, float* output) {
  const PoolGeometry g = geometry;
  for (int32_t b = 0; b < g.batches; ++b) {
    for (int32_t oy = 0; oy < g.output_height; ++oy) {
      for (int32_t ox = 0; ox < g.output_width; ++ox) {
        const Window w = WindowAt(g, oy, ox);
        for (int32_t c = 0; c < g.depth; ++c) {
          float sum = 0.0f;
          ForEachInWindow(g, b, w, c, input, [&sum](float v) { sum += v; });
          // An exact integer, as TFLM's int filter_count converted to float.
          const float count = static_cast<float>(WindowCount(w));
          if (count == 0.0f) return false;
          const float avg = sum / count;
          output[OutputIndex(g, b, oy, ox, c)] = std::min(std::max(avg, act_min), act_max);
        }
      }
    }
  }
  return true;
}

bool AveragePoolInt8(const PoolGeometry& g, int32_t act_min, int32_t act_max, const int8_t* input,
                     int8_t* output) {
  return AveragePoolInteger<int8_t>(g, act_min, act_max, input, output);
}

bool AveragePoolInt16(const PoolGeometry& g, int32_t act_min, int32_t act_max, const int16_t* input,
                      int16_t* output) {
  return AveragePoolInteger<int16_t>(g, act_min, act_max, input, output);
}

void MaxPoolFloat(const PoolGeometry& g, float act_min, float act_max, const float* input,
                  float* output) {
  MaxPoolTyped<float>(g, act_min, act_max, input, output);
}

void MaxPoolInt8(const PoolGeometry& g, int32_t act_min, int32_t act_max, const int8_t* input,
                 int8_t* output) {
  MaxPoolTyped<int8_t>(g, NarrowBound<int8_t>(act_min), NarrowBound<int8_t>(act_max), input,
                       output);
}

void MaxPoolInt16(const PoolGeometry& g, int32_t act_min, int32_t act_max, const int16_t* input,
                  int16_t* output) {
  MaxPoolTyped<int16_t>(g, NarrowBound<int16_t>(act_min), NarrowBound<int16_t>(act_max), input,
                        output);
}

}  // namespace runtime
}  // namespace tflm_arena
