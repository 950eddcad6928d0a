# tflm/: a model of STOCK TFLM's allocation sequence (host tool: standard
# library allowed). Uses core, model and plan only; nothing here runs a kernel.
tflm_arena_host_library(tflm_arena_tflm
  SOURCES
    ${TFLM_ARENA_SRC}/tflm/target_abi.cc
    ${TFLM_ARENA_SRC}/tflm/build_targets.cc
    ${TFLM_ARENA_SRC}/tflm/kernel_refusals.cc
    ${TFLM_ARENA_SRC}/tflm/kernel_table.cc
    ${TFLM_ARENA_SRC}/tflm/cmsis_nn_kernels.cc
    ${TFLM_ARENA_SRC}/tflm/signal_kernels.cc
    ${TFLM_ARENA_SRC}/tflm/allocation_trace.cc
    ${TFLM_ARENA_SRC}/tflm/arena_replay.cc
    ${TFLM_ARENA_SRC}/tflm/tflm_arena_size.cc
    ${TFLM_ARENA_SRC}/tflm/scratch_requests.cc
  DEPS tflm_arena_model tflm_arena_plan)
