tflm_arena_add_test(core_tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/status_test.cc ${CMAKE_CURRENT_LIST_DIR}/align_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/format_test.cc ${CMAKE_CURRENT_LIST_DIR}/enum_names_test.cc
  LIBS tflm_arena_core)
# The release configuration's Status (compiles status.cc itself, stripped).
tflm_arena_add_test(core_stripped_status_tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/status_stripped_test.cc)
target_include_directories(core_stripped_status_tests PRIVATE ${TFLM_ARENA_SRC}/..)
