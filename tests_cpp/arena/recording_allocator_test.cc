#include "tflm_arena/arena/recording_allocator.h"

#include <cstring>
#include <string>

#include "gtest/gtest.h"

namespace tflm_arena {
namespace {

using C = AllocationCategory;

TEST(AllocationCategoryTest, TflmNamesAndNouns) {
  EXPECT_STREQ(AllocationCategoryName(C::kEvalTensorData), "TfLiteEvalTensor data");
  EXPECT_STREQ(AllocationCategoryName(C::kPersistentTensorData), "Persistent TfLiteTensor data");
  EXPECT_STREQ(AllocationCategoryName(C::kPersistentQuantizationData),
               "Persistent TfLiteTensor quantization data");
  EXPECT_STREQ(AllocationCategoryName(C::kPersistentBufferData), "Persistent buffer data");
  EXPECT_STREQ(AllocationCategoryName(C::kVariableBufferData), "TfLiteTensor variable buffer data");
  EXPECT_STREQ(AllocationCategoryName(C::kNodeAndRegistration), "NodeAndRegistration struct");
  EXPECT_STREQ(AllocationCategoryName(C::kOpData), "Operator runtime data");
  EXPECT_STREQ(AllocationCategoryName(C::kCompressionData), "Persistent compression data");
  EXPECT_STREQ(AllocationCategoryName(C::kCount), "unknown");
  EXPECT_STREQ(AllocationCategoryNoun(C::kEvalTensorData), "allocations");
  EXPECT_STREQ(AllocationCategoryNoun(C::kPersistentTensorData), "tensors");
  EXPECT_STREQ(AllocationCategoryNoun(C::kNodeAndRegistration), "NodeAndRegistration structs");
  EXPECT_STREQ(AllocationCategoryNoun(C::kOpData), "OpData structs");
}

TEST(AllocationCategoryTest, KeysAndTflmCount) {
  EXPECT_STREQ(AllocationCategoryKey(C::kEvalTensorData), "eval_tensor_data");
  EXPECT_STREQ(AllocationCategoryKey(C::kPersistentQuantizationData),
               "persistent_tflite_tensor_quantization_data");
  EXPECT_STREQ(AllocationCategoryKey(C::kNodeAndRegistration), "node_and_registration_array");
  EXPECT_STREQ(AllocationCategoryKey(C::kOther), "other");
  EXPECT_STREQ(AllocationCategoryKey(C::kCount), "unknown");
  // TFLM's RecordedAllocationType has eight categories; kOther is ours.
  EXPECT_EQ(kRecordedCategoryCount, 8u);
  EXPECT_EQ(kAllocationCategoryCount, 9u);
}

TEST(RecordingAllocatorTest, CountsPerCategoryWithPadding) {
  alignas(16) uint8_t buf[1024];
  RecordingArenaAllocator a(buf, sizeof(buf));
  uint8_t* p = nullptr;
  ASSERT_TRUE(a.AllocatePersistent(120, 16, C::kEvalTensorData, &p, 5).ok());
  ASSERT_TRUE(a.AllocatePersistent(10, 16, C::kPersistentBufferData, &p).ok());
  ASSERT_TRUE(a.AllocatePersistent(20, 16, C::kPersistentBufferData, &p).ok());
  ASSERT_TRUE(a.AllocatePersistent(0, 16, C::kNodeAndRegistration, &p, 0).ok());

  RecordedAllocation eval = a.GetRecordedAllocation(C::kEvalTensorData);
  EXPECT_EQ(eval.requested_bytes, 120u);
  EXPECT_EQ(eval.used_bytes, 128u);
  EXPECT_EQ(eval.count, 5u);
  RecordedAllocation buffers = a.GetRecordedAllocation(C::kPersistentBufferData);
  EXPECT_EQ(buffers.requested_bytes, 30u);
  EXPECT_EQ(buffers.used_bytes, 48u);  // 16 + 32
  EXPECT_EQ(buffers.count, 2u);
  RecordedAllocation nodes = a.GetRecordedAllocation(C::kNodeAndRegistration);
  EXPECT_EQ(nodes.count, 0u);  // a subgraph without operators: TFLM counts none
  EXPECT_EQ(a.GetRecordedAllocation(C::kOpData).used_bytes, 0u);
  EXPECT_EQ(a.GetRecordedAllocation(C::kCount).count, 0u);

  EXPECT_EQ(a.recording().requested_tail_bytes(), 150u);
  EXPECT_EQ(a.recording().used_bytes(), 176u);
  EXPECT_EQ(a.recording().allocation_count(), 4u);
  EXPECT_EQ(a.GetPersistentUsedBytes(), 176u);
}

TEST(RecordingAllocatorTest, HeadTotalsAndFailuresAreNotRecorded) {
  alignas(16) uint8_t buf[512];
  RecordingArenaAllocator a(buf, sizeof(buf));
  ASSERT_TRUE(a.ResizeHead(300).ok());
  ASSERT_TRUE(a.ResizeHead(100).ok());
  EXPECT_EQ(a.recording().requested_head_bytes(), 100u);  // set, not summed
  EXPECT_EQ(a.recording().used_bytes(), 100u);            // shrinking subtracts
  uint8_t* p = nullptr;
  EXPECT_FALSE(a.ResizeHead(600).ok());
  EXPECT_FALSE(a.AllocatePersistent(600, 16, C::kOpData, &p).ok());
  EXPECT_EQ(a.recording().requested_head_bytes(), 100u);
  EXPECT_EQ(a.recording().requested_bytes(), 100u);
  EXPECT_EQ(a.recording().allocation_count(), 0u);
  EXPECT_EQ(a.GetRecordedAllocation(C::kOpData).requested_bytes, 0u);
  // Temp allocations are not recorded.
  ASSERT_TRUE(a.AllocateTemp(50, 16, &p).ok());
  EXPECT_EQ(a.recording().used_bytes(), 100u);
}

TEST(RecordingAllocatorTest, UntaggedGoesToOther) {
  alignas(16) uint8_t buf[256];
  RecordingArenaAllocator a(buf, sizeof(buf));
  uint8_t* p = nullptr;
  ASSERT_TRUE(a.AllocatePersistent(8, 8, &p).ok());
  RecordedAllocation other = a.GetRecordedAllocation(C::kOther);
  EXPECT_EQ(other.requested_bytes, 8u);
  EXPECT_EQ(other.used_bytes, 8u);
  EXPECT_EQ(other.count, 1u);
  EXPECT_EQ(a.recording().allocation_count(), 1u);
}

TEST(RecordingAllocatorTest, RecorderAttachesToPlainAllocator) {
  alignas(16) uint8_t buf[256];
  SingleArenaAllocator a(buf, sizeof(buf));
  AllocationRecorder recorder;
  uint8_t* p = nullptr;
  ASSERT_TRUE(a.AllocatePersistent(16, 16, C::kOpData, &p).ok());  // not seen
  a.set_recorder(&recorder);
  EXPECT_EQ(a.recorder(), &recorder);
  ASSERT_TRUE(a.AllocatePersistent(16, 16, C::kOpData, &p).ok());
  a.set_recorder(nullptr);
  ASSERT_TRUE(a.AllocatePersistent(16, 16, C::kOpData, &p).ok());  // not seen
  EXPECT_EQ(recorder.GetRecordedAllocation(C::kOpData).count, 1u);
  EXPECT_EQ(recorder.used_bytes(), 16u);
}

// A hand-made sequence shaped like a small model's allocation.
void BuildSequence(RecordingArenaAllocator& a) {
  uint8_t* p = nullptr;
  ASSERT_TRUE(a.AllocatePersistent(120, 16, C::kEvalTensorData, &p, 5).ok());          // 128
  ASSERT_TRUE(a.AllocatePersistent(64, 16, C::kPersistentTensorData, &p).ok());        // 64
  ASSERT_TRUE(a.AllocatePersistent(64, 16, C::kPersistentTensorData, &p).ok());        // 64
  ASSERT_TRUE(a.AllocatePersistent(24, 16, C::kPersistentQuantizationData, &p).ok());  // 32
  ASSERT_TRUE(a.AllocatePersistent(8, 4, C::kPersistentQuantizationData, &p).ok());    // 8
  ASSERT_TRUE(a.AllocatePersistent(10, 16, C::kPersistentBufferData, &p).ok());        // 24
  ASSERT_TRUE(a.AllocatePersistent(192, 16, C::kNodeAndRegistration, &p, 3).ok());     // 192
  ASSERT_TRUE(a.AllocatePersistent(16, 16, &p).ok());  // untagged: 16
  ASSERT_TRUE(a.ResizeHead(300).ok());
  ASSERT_TRUE(a.AllocateTemp(50, 16, &p).ok());  // live temp: head line = 354
}

constexpr char kExpectedText[] =
    "tflm_arena runtime: arena 828 bytes used (head 354, tail 528); not stock "
    "TFLM's figures\n"
    "  TfLiteEvalTensor data: 128 bytes used (120 requested for 5 allocations)\n"
    "  Persistent TfLiteTensor data: 128 bytes used (128 requested for 2 tensors)\n"
    "  Persistent TfLiteTensor quantization data: 40 bytes used (32 requested for 2 "
    "allocations)\n"
    "  Persistent buffer data: 24 bytes used (10 requested for 1 allocations)\n"
    "  NodeAndRegistration struct: 192 bytes used (192 requested for 3 "
    "NodeAndRegistration structs)\n";

TEST(RecordingAllocatorTest, PrintAllocationsExactText) {
  alignas(16) uint8_t buf[2048];
  RecordingArenaAllocator a(buf, sizeof(buf));
  BuildSequence(a);
  char out[2048];
  const int n = a.PrintAllocations(out, sizeof(out));
  EXPECT_STREQ(out, kExpectedText);
  EXPECT_EQ(n, static_cast<int>(std::strlen(kExpectedText)));
  // Never TFLM's wording: these are not TFLM's figures.
  EXPECT_EQ(std::string(out).find("RecordingMicroAllocator"), std::string::npos);
}

TEST(RecordingAllocatorTest, PrintAllocationsTruncatesSafely) {
  alignas(16) uint8_t buf[2048];
  RecordingArenaAllocator a(buf, sizeof(buf));
  BuildSequence(a);
  const int full = a.PrintAllocations(nullptr, 0);  // length query
  EXPECT_EQ(full, static_cast<int>(std::strlen(kExpectedText)));
  char small[100];
  std::memset(small, 'x', sizeof(small));
  EXPECT_EQ(a.PrintAllocations(small, sizeof(small)), full);
  EXPECT_EQ(std::string(small), std::string(kExpectedText, sizeof(small) - 1));
}

TEST(RecordingAllocatorTest, PrintAllocationsOfEmptyArena) {
  alignas(16) uint8_t buf[64];
  RecordingArenaAllocator a(buf, sizeof(buf));
  char out[512];
  a.PrintAllocations(out, sizeof(out));
  EXPECT_STREQ(out,
               "tflm_arena runtime: arena 0 bytes used (head 0, tail 0); not stock "
               "TFLM's figures\n");
}

}  // namespace
}  // namespace tflm_arena
