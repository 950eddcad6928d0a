tflm_arena_add_test(model_tests
  SOURCES
    ${CMAKE_CURRENT_LIST_DIR}/test_builder.cc
    ${CMAKE_CURRENT_LIST_DIR}/builtin_ops_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/model_load_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/model_malformed_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/offline_plan_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/offline_aliases_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/lifetimes_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/lifetimes_control_flow_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/step_operators_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/offline_plan_writer_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/operator_order_writer_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/graph_edit_writer_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/builtin_options_test.cc
    ${CMAKE_CURRENT_LIST_DIR}/flexbuffer_map_test.cc
  LIBS tflm_arena_model_host tflm_arena_plan)
