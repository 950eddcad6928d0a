# rewrite/ tests: the graph rewrite's tile geometry (hand-worked windows and
# splits), the stage finder and the tiled stage on small models built in C++.
# Every tests_cpp/rewrite/*_test.cc, found by name (as rewrite/sources.cmake
# finds the library's).
file(GLOB TFLM_ARENA_REWRITE_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*_test.cc)
tflm_arena_add_test(rewrite_tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/../model/test_builder.cc ${TFLM_ARENA_REWRITE_TEST_SOURCES}
  LIBS tflm_arena_rewrite)
target_include_directories(rewrite_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../model)
