// Format / FormatV: snprintf for the runtime, without libc's printf family.
//
// Why: newlib's vsnprintf pulls malloc, locale tables and the floating-point
// library into every device build that reports an error, and glibc's is
// several KB as well. The runtime only formats error messages, so this small
// formatter covers the conversions its format strings use and nothing more.
//
// Supported: flags '-', '+', ' ', '0', '#'; a width and a precision (digits
// or '*'); length modifiers hh h l ll z j t; conversions d i u x X o c s p %
// and g G e E. Output equals snprintf's for all of these (tests_cpp/core/
// format_test.cc compares them). Doubles are converted exactly with integer
// arithmetic (no floating-point operations, so no soft-float library on
// Cortex-M).
//
// Deliberate differences:
//  - %f / %F / %a / %A / %n are not supported: the conversion is written as
//    "%?" (its letter after a '%') and its argument is consumed, so later
//    arguments stay in step. The runtime's messages use %g.
//  - %#g keeps its trailing zeros as C requires also when rounding carries
//    into the next exponent (999999.5 -> "1.00000e+06"); glibc 2.36 prints
//    "1.e+06" there.
//  - e / g precision is capped at 40 significant digits (longer requests
//    print 40 digits, then the zeros %e / %#g would add).
//
// Contract as snprintf: writes at most size - 1 characters plus the
// terminator (nothing when size is 0) and returns the length the whole
// output would have.
#ifndef TFLM_ARENA_CORE_FORMAT_H_
#define TFLM_ARENA_CORE_FORMAT_H_

#include <cstdarg>
#include <cstddef>

namespace tflm_arena {

int Format(char* out, size_t size, const char* format, ...) __attribute__((format(printf, 3, 4)));
int FormatV(char* out, size_t size, const char* format, va_list args)
    __attribute__((format(printf, 3, 0)));

}  // namespace tflm_arena

#endif  // TFLM_ARENA_CORE_FORMAT_H_
