tflm_arena_add_test(core_tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/status_test.cc ${CMAKE_CURRENT_LIST_DIR}/align_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/format_test.cc
  LIBS tflm_arena_core)
