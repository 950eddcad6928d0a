// Helpers shared by the harnesses: a check that crashes loudly (so libFuzzer
// records the input), an exact-size 16-aligned copy of the input (ASan then
// flags any read past its end), and a cheap input hash used to pick options
// deterministically per input.
#ifndef TFLM_ARENA_FUZZ_FUZZ_UTIL_H_
#define TFLM_ARENA_FUZZ_FUZZ_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

// A broken contract is a finding: print where and why, then abort so that
// libFuzzer saves the reproducer.
#define FUZZ_CHECK(cond, ...)                                                                \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      std::fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s\n  ", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                                     \
      std::fprintf(stderr, "\n");                                                            \
      std::abort();                                                                          \
    }                                                                                        \
  } while (0)

namespace fuzz {

// The input in its own heap block of exactly `size` bytes; operator new[]
// aligns to 16, which satisfies Model::FromBuffer's 8-byte rule.
class InputCopy {
 public:
  InputCopy(const uint8_t* data, size_t size)
      : bytes_(new uint8_t[size == 0 ? 1 : size]), size_(size) {
    if (size != 0) std::memcpy(bytes_.get(), data, size);
  }
  const uint8_t* data() const { return bytes_.get(); }
  uint8_t* mutable_data() { return bytes_.get(); }
  size_t size() const { return size_; }

 private:
  std::unique_ptr<uint8_t[]> bytes_;
  size_t size_;
};

// FNV-1a over the input: picks harness options without reserving input bytes
// (so unmodified .tflite files stay valid seeds).
inline uint64_t Hash(const uint8_t* data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

// True when [p, p + n) lies inside [base, base + size).
inline bool Inside(const void* p, size_t n, const uint8_t* base, size_t size) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  return b >= base && b <= base + size && n <= static_cast<size_t>(base + size - b);
}

}  // namespace fuzz

#endif  // TFLM_ARENA_FUZZ_FUZZ_UTIL_H_
