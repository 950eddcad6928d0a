tflm_arena_add_test(arena_tests
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/single_arena_allocator_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/recording_allocator_test.cc
  LIBS tflm_arena_arena)
# Separate binary: it replaces the global allocation functions.
tflm_arena_add_test(arena_noheap_tests
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/noheap_test.cc
  LIBS tflm_arena_arena)
