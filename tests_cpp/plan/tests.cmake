tflm_arena_add_test(plan_tests
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/greedy_planner_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/linear_planner_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/print_plan_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/tflm_greedy_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/offset_sort_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/records_validation_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/live_bytes_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/plan_validation_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/shared_objects_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/reorder_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/optimal_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/strategies_test.cc
  LIBS tflm_arena_plan)

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
