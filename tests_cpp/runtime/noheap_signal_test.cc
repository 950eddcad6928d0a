// Zero-heap proof for the shipped Signal kernels (TFLM's audio front end):
// a front end built here (window, auto-scale, real FFT, energy, filter
// bank, square root, spectral subtraction, PCAN, log) is verified, resolved,
// allocated, invoked several times and reset with no heap allocation; its
// outputs are deterministic and its noise state returns to zero on Reset.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "flatbuffers/flexbuffers.h"
#include "heap_counter.h"
#include "runtime_test_util.h"
#include "test_builder.h"
#include "tflm_arena/runtime/interpreter.h"
#include "tflm_arena/runtime/kernels/all_kernels.h"

namespace tflm_arena {
namespace testing {
namespace {

constexpr int8_t kInt16 = 7, kInt32 = 2, kUint32 = 15, kUint64 = 12;

std::vector<uint8_t> Flex(const std::function<void(flexbuffers::Builder&)>& fill) {
  flexbuffers::Builder b;
  b.Map([&] { fill(b); });
  b.Finish();
  return b.GetBuffer();
}

struct FrontEnd {
  TModel m;
  TSubgraph g;
  int32_t Tensor(std::vector<int32_t> shape, int8_t type) {
    TTensor t;
    t.shape = std::move(shape);
    t.type = type;
    g.tensors.push_back(t);
    return static_cast<int32_t>(g.tensors.size() - 1);
  }
  int32_t Const16(const std::vector<int16_t>& v) {
    const int32_t t = Tensor({static_cast<int32_t>(v.size())}, kInt16);
    TBuffer b;
    b.data.resize(v.size() * 2);
    std::memcpy(b.data.data(), v.data(), b.data.size());
    m.buffers.push_back(b);
    g.tensors[static_cast<size_t>(t)].buffer = static_cast<uint32_t>(m.buffers.size() - 1);
    return t;
  }
  void Op(const char* code, std::vector<int32_t> in, std::vector<int32_t> out,
          std::vector<uint8_t> options) {
    TOpCode c;
    c.builtin_code = 32;  // CUSTOM
    c.custom_code = code;
    m.opcodes.push_back(c);
    TOp op;
    op.opcode = static_cast<uint32_t>(m.opcodes.size() - 1);
    op.inputs = std::move(in);
    op.outputs = std::move(out);
    op.custom_options = std::move(options);
    g.ops.push_back(op);
  }
};

TModel SignalFrontEnd() {
  FrontEnd f;
  const int32_t audio = f.Tensor({32}, kInt16);
  const int32_t win = f.Tensor({32}, kInt16), scaled = f.Tensor({32}, kInt16);
  const int32_t shift = f.Tensor({}, kInt32), spectrum = f.Tensor({34}, kInt16);
  const int32_t energy = f.Tensor({17}, kUint32), bank = f.Tensor({4}, kUint64);
  const int32_t root = f.Tensor({4}, kUint32), sub = f.Tensor({4}, kUint32);
  const int32_t noise = f.Tensor({4}, kUint32), pcan = f.Tensor({4}, kUint32);
  const int32_t log = f.Tensor({4}, kInt16);
  f.Op("SignalWindow", {audio, f.Const16(std::vector<int16_t>(32, 3000))}, {win},
       Flex([](flexbuffers::Builder& b) { b.Int("shift", 12); }));
  f.Op("SignalFftAutoScale", {win}, {scaled, shift}, Flex([](flexbuffers::Builder&) {}));
  f.Op("SignalRfft", {scaled}, {spectrum}, Flex([](flexbuffers::Builder& b) {
         b.Int("T", 7);
         b.Int("fft_length", 32);
       }));
  f.Op("SignalEnergy", {spectrum}, {energy}, Flex([](flexbuffers::Builder& b) {
         b.Int("end_index", 17);
         b.Int("start_index", 0);
       }));
  std::vector<int16_t> weights(16), unweights(16);
  for (int16_t i = 0; i < 16; ++i) {
    weights[static_cast<size_t>(i)] = static_cast<int16_t>(i * 250);
    unweights[static_cast<size_t>(i)] = static_cast<int16_t>(4096 - i * 250);
  }
  f.Op("SignalFilterBank",
       {energy, f.Const16(weights), f.Const16(unweights), f.Const16({0, 2, 5, 8, 12}),
        f.Const16({0, 2, 5, 8, 12}), f.Const16({2, 3, 3, 4, 4})},
       {bank}, Flex([](flexbuffers::Builder& b) { b.Int("num_channels", 4); }));
  f.Op("SignalFilterBankSquareRoot", {bank, shift}, {root}, Flex([](flexbuffers::Builder&) {}));
  f.Op("SignalFilterBankSpectralSubtraction", {root}, {sub, noise},
       Flex([](flexbuffers::Builder& b) {
         b.Int("alternate_one_minus_smoothing", 15401);
         b.Int("alternate_smoothing", 983);
         b.Bool("clamping", false);
         b.Int("min_signal_remaining", 819);
         b.Int("num_channels", 4);
         b.Int("one_minus_smoothing", 15975);
         b.Int("smoothing", 409);
         b.Int("smoothing_bits", 10);
         b.Int("spectral_subtraction_bits", 14);
       }));
  std::vector<int16_t> lut(125);
  for (size_t i = 0; i < lut.size(); ++i) lut[i] = static_cast<int16_t>(i * 100);
  f.Op("SignalPCAN", {sub, noise, f.Const16(lut)}, {pcan},
       Flex([](flexbuffers::Builder& b) { b.Int("snr_shift", 6); }));
  f.Op("SignalFilterBankLog", {pcan}, {log}, Flex([](flexbuffers::Builder& b) {
         b.Int("input_correction_bits", 3);
         b.Int("output_scale", 64);
       }));
  f.g.inputs = {audio};
  f.g.outputs = {log, noise};
  f.m.subgraphs.push_back(f.g);
  return f.m;
}

TEST(SignalNoHeap, FrontEndAllocatesInvokesAndResetsWithoutHeap) {
  const Loaded l = BuildAndLoad(SignalFrontEnd());
  TestArena arena(64 * 1024);  // 16-aligned, guard bytes after it
  Status added, allocated, invoked[3], reset, again;
  uint32_t noise_before = 0, noise_after = 1;
  int16_t first[4] = {}, second[4] = {};
  int64_t heap = 0;
  {
    HeapCounter counter;
    runtime::MutableOpResolver<runtime::kNumShippedCustomKernels> resolver;
    added = runtime::AddKernelsForModel(l.model, &resolver);
    runtime::Interpreter it(l.model, resolver, arena.data(), arena.size());
    allocated = it.AllocateTensors();
    if (allocated.ok()) {
      int16_t* in = it.input(0)->as<int16_t>();
      for (int i = 0; i < 32; ++i) in[i] = static_cast<int16_t>((i * 2654435761u) >> 17);
      for (Status& s : invoked) s = it.Invoke();
      std::memcpy(first, it.output(0)->data, sizeof(first));
      noise_before = it.output(1)->as<uint32_t>()[0];
      reset = it.Reset();
      for (int i = 0; i < 32; ++i) in[i] = static_cast<int16_t>((i * 2654435761u) >> 17);
      for (int k = 0; k < 3; ++k) again = it.Invoke();
      std::memcpy(second, it.output(0)->data, sizeof(second));
      noise_after = it.output(1)->as<uint32_t>()[0];
    }
    heap = counter.count();
  }
  EXPECT_EQ(heap, 0);
  ASSERT_TRUE(added.ok()) << added.message();
  ASSERT_TRUE(allocated.ok()) << allocated.message();
  for (const Status& s : invoked) EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(reset.ok()) << reset.message();
  EXPECT_TRUE(again.ok()) << again.message();
  EXPECT_GT(noise_before, 0u);
  // The same three frames after Reset give the same outputs and state.
  EXPECT_EQ(noise_after, noise_before);
  EXPECT_EQ(0, std::memcmp(first, second, sizeof(first)));
}

}  // namespace
}  // namespace testing
}  // namespace tflm_arena
