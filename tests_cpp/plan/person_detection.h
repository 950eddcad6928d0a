// The 30 buffers of TFLM's TestPersonDetectionModel (greedy_memory_planner_test.cc):
// sizes and lifetimes of the 250 KB MobileNet person-detection model, in
// AddBuffer order. Shared by the planner tests and the no-heap test.
#ifndef TFLM_ARENA_TESTS_CPP_PLAN_PERSON_DETECTION_H_
#define TFLM_ARENA_TESTS_CPP_PLAN_PERSON_DETECTION_H_

namespace tflm_arena {
namespace testing {

struct TestBuffer {
  int size;
  int first;
  int last;
};

constexpr int kPersonDetectionCount = 30;
constexpr TestBuffer kPersonDetection[kPersonDetectionCount] = {
    {9216, 0, 29},  {3, 28, 29},    {256, 27, 28},  {2304, 26, 27}, {2304, 25, 26}, {2304, 24, 25},
    {1152, 23, 24}, {4608, 22, 23}, {4608, 21, 22}, {4608, 20, 21}, {4608, 19, 20}, {4608, 18, 19},
    {4608, 17, 18}, {4608, 16, 17}, {4608, 15, 16}, {4608, 14, 15}, {4608, 13, 14}, {4608, 12, 13},
    {2304, 11, 12}, {9216, 10, 11}, {9216, 9, 10},  {9216, 8, 9},   {4608, 7, 8},   {18432, 6, 7},
    {18432, 5, 6},  {18432, 4, 5},  {9216, 3, 4},   {36864, 2, 3},  {18432, 1, 2},  {18432, 0, 1},
};

// Computed with TFLM's own planner code (the test itself only asserts no
// overlap and a size below the plain sum).
constexpr int kPersonDetectionGreedyOffsets[kPersonDetectionCount] = {
    55296, 0,    2304, 0,    2304, 0,    4608, 0,     4608, 0,     4608, 0,     4608, 0,     4608,
    0,     4608, 0,    9216, 0,    9216, 0,    18432, 0,    18432, 0,    36864, 0,    36864, 0,
};
constexpr int kPersonDetectionGreedyMax = 64512;
constexpr int kPersonDetectionLinearMax =
    241027;  // sum of all sizes (linear_memory_planner_test.cc)

}  // namespace testing
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TESTS_CPP_PLAN_PERSON_DETECTION_H_
