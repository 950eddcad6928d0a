# tflm/ tests: the stock-TFLM arena model against figures measured on the
# tflite-micro wheel (x86-64) and on a 32-bit ARM TFLM build (32-bit figures in docs/reference.md).
tflm_arena_add_test(tflm_tests
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/../model/test_builder.cc
    ${CMAKE_CURRENT_LIST_DIR}/arena_replay_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/tflm_arena_size_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/scratch_requests_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/build_targets_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/signal_kernels_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/cmsis_nn_kernels_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/boards_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/split_shared_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/esp_nn_kernels_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/kernel_shapes_test.cc
  LIBS tflm_arena_tflm)
target_include_directories(tflm_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../model)
