// tflm_arena._core: ties together the per-area registration files.
// Bindings stay thin: conversion and error mapping only.
#include <pybind11/pybind11.h>

#include "register.h"

PYBIND11_MODULE(_core, m) {
  m.doc() = "C++ core of tflm_arena (use the tflm_arena package, not this module)";
  m.attr("__version__") = TFLM_ARENA_VERSION;
  tflm_arena::bindings::RegisterErrors(m);
  tflm_arena::bindings::RegisterPlan(m);
  tflm_arena::bindings::RegisterObjects(m);
  tflm_arena::bindings::RegisterModel(m);
  tflm_arena::bindings::RegisterInterpreter(m);
  tflm_arena::bindings::RegisterTflm(m);
  tflm_arena::bindings::RegisterReorder(m);
  tflm_arena::bindings::RegisterSteps(m);
  tflm_arena::bindings::RegisterBoards(m);
  tflm_arena::bindings::RegisterRewrite(m);
}
