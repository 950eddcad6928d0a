// The model every footprint program references (footprint_model.cc, written
// by make_model.py). In .rodata: `size` counts it in text, equally in the
// baseline and in every other program.
#ifndef TFLM_ARENA_BENCHMARKS_CODE_SIZE_FOOTPRINT_MODEL_H_
#define TFLM_ARENA_BENCHMARKS_CODE_SIZE_FOOTPRINT_MODEL_H_

extern const unsigned char g_footprint_model[];
extern const unsigned int g_footprint_model_size;

#endif  // TFLM_ARENA_BENCHMARKS_CODE_SIZE_FOOTPRINT_MODEL_H_
