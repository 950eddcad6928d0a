// Common development boards, by the names users type, with the stock-TFLM
// build target each uses and the RAM an arena can occupy there. One source:
// the Python package and the CLI read this table through the bindings.
//
// ram_bytes is the internal RAM a single contiguous arena can occupy (a
// TFLM arena is one array): where a chip splits its SRAM into separate
// regions, or its SDK reserves part of it, the row's note says which figure
// was taken and why. External RAM (PSRAM, SDRAM) is listed apart and never
// counted in ram_bytes. The application's own RAM use (stack, heap, other
// buffers, an RTOS, a radio stack) is not subtracted anywhere.
#ifndef TFLM_ARENA_TFLM_BOARDS_H_
#define TFLM_ARENA_TFLM_BOARDS_H_

#include <cstdint>
#include <string>

#include "tflm_arena/core/span.h"

namespace tflm_arena {
namespace tflm {

struct Board {
  const char* name;    // what users type, e.g. "raspberry-pi-pico"
  const char* chip;    // the microcontroller, e.g. "Raspberry Pi RP2040"
  const char* core;    // the CPU core(s) TFLM runs on
  const char* target;  // a build target name (build_targets.h)
  // The stack version the board's usual SDK ships (stack_versions.h): the
  // TFLM release and kernel-library version its figures assume.
  const char* version;
  uint64_t ram_bytes;           // internal RAM one arena can occupy (see note)
  uint64_t external_ram_bytes;  // PSRAM / SDRAM on the board; 0 when none
  const char* external_ram;     // what the external RAM is, "" when none
  const char* source;           // the datasheets / product pages of the figures
  const char* note;             // which RAM ram_bytes counts, and why
};

// Every board, in the order users see them.
Span<const Board> Boards();
// nullptr for an unknown name.
const Board* FindBoard(const char* name);
// "arduino-nano-33-ble-sense, raspberry-pi-pico, ..." (for error messages).
std::string BoardNames();

}  // namespace tflm
}  // namespace tflm_arena

#endif  // TFLM_ARENA_TFLM_BOARDS_H_
