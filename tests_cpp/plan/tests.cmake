# Every <file>_test.cc here, found by name (a new strategy's test needs no
# edit), except noheap_test.cc: it has its own binary below.
file(GLOB TFLM_ARENA_PLAN_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*_test.cc)
list(REMOVE_ITEM TFLM_ARENA_PLAN_TEST_SOURCES ${CMAKE_CURRENT_LIST_DIR}/noheap_test.cc)
# Four shards: under ASan this binary takes most of the C++ suite's time
# (140 s of CPU), and two shards split it 50 / 90 s.
tflm_arena_add_test(plan_tests
  SOURCES ${TFLM_ARENA_PLAN_TEST_SOURCES}
  LIBS tflm_arena_plan
  SHARDS 4)

# Own binary: heap_counter.cc replaces global operator new for the whole program.
tflm_arena_add_test(plan_noheap_tests
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/noheap_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/heap_counter.cc
  LIBS tflm_arena_plan_runtime)

# Manual timing check (not a test): plan_greedy_timing [max_n]
add_executable(plan_greedy_timing ${CMAKE_CURRENT_LIST_DIR}/greedy_timing.cc)
target_link_libraries(plan_greedy_timing PRIVATE tflm_arena_plan)

# Manual timing check (not a test): reorder_timing [time_limit_s]
add_executable(reorder_timing ${CMAKE_CURRENT_LIST_DIR}/reorder_timing.cc)
target_link_libraries(reorder_timing PRIVATE tflm_arena_plan)
