// Minimal non-owning view (C++17 has no std::span); no heap, no exceptions.
#ifndef TFLM_ARENA_CORE_SPAN_H_
#define TFLM_ARENA_CORE_SPAN_H_

#include <cstddef>

namespace tflm_arena {

template <typename T>
class Span {
 public:
  constexpr Span() = default;
  constexpr Span(T* data, size_t size) : data_(data), size_(size) {}
  template <typename C>
  constexpr Span(C& c) : data_(c.data()), size_(c.size()) {}  // NOLINT
  constexpr T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr T& operator[](size_t i) const { return data_[i]; }
  constexpr T* begin() const { return data_; }
  constexpr T* end() const { return data_ + size_; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace tflm_arena

#endif  // TFLM_ARENA_CORE_SPAN_H_
