# tflm/ tests: the stock-TFLM arena model against figures measured on the
# tflite-micro wheel (x86-64) and on a 32-bit ARM TFLM build (32-bit figures in docs/reference.md).
# Every tests_cpp/tflm/*_test.cc, found by name (as tflm/sources.cmake finds the library's).
file(GLOB TFLM_ARENA_TFLM_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*_test.cc)
tflm_arena_add_test(tflm_tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/../model/test_builder.cc ${TFLM_ARENA_TFLM_TEST_SOURCES}
  LIBS tflm_arena_tflm)
target_include_directories(tflm_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../model)
