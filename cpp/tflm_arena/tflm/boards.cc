#include "tflm_arena/tflm/boards.h"

#include "tflm_arena/tflm/named_rows.h"

namespace tflm_arena {
namespace tflm {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = 1024 * kKiB;

constexpr Board kBoards[] = {
    {"arduino-nano-33-ble-sense", "Nordic nRF52840", "Arm Cortex-M4F, 64 MHz", "cortex-m4+cmsis-nn",
     "arduino", 256 * kKiB, 0, "",
     "Nordic nRF52840 Product Specification (256 KB RAM); Arduino Nano 33 BLE Sense product "
     "page",
     "the nRF52840's 256 KB RAM is one contiguous data region; Arduino's Mbed OS core and the "
     "BLE stack take part of it"},
    {"raspberry-pi-pico", "Raspberry Pi RP2040", "dual Arm Cortex-M0+, 133 MHz",
     "cortex-m0plus+cmsis-nn", "90b983c", 264 * kKiB, 0, "",
     "Raspberry Pi RP2040 datasheet (264 KB on-chip SRAM in six banks)",
     "SRAM0-3 (256 KB, striped) and SRAM4-5 (4 KB each) follow each other in the address map: "
     "264 KB contiguous"},
    {"stm32f746g-disco", "ST STM32F746NG", "Arm Cortex-M7, 216 MHz", "cortex-m7+cmsis-nn",
     "90b983c", 320 * kKiB, 8 * kMiB, "SDRAM, 128 Mbit of which 64 Mbit accessible (8 MB)",
     "ST STM32F745xx/STM32F746xx datasheet (320 KB SRAM: 64 KB DTCM, 240 KB SRAM1, 16 KB "
     "SRAM2); ST UM1907, 32F746G-DISCO user manual (SDRAM)",
     "DTCM, SRAM1 and SRAM2 are contiguous from 0x20000000: 320 KB; ITCM RAM (16 KB) is "
     "separate and not counted"},
    {"stm32h747i-disco", "ST STM32H747XI", "Arm Cortex-M7, 480 MHz (+ Cortex-M4, 240 MHz)",
     "cortex-m7+cmsis-nn", "90b983c", 512 * kKiB, 32 * kMiB, "SDRAM, 256 Mbit (32 MB)",
     "ST STM32H747xI/G datasheet (1 MB RAM: 192 KB TCM, 864 KB user SRAM, 4 KB backup SRAM); "
     "ST UM2411, STM32H747I-DISCO user manual (SDRAM)",
     "the largest contiguous RAM is the 512 KB AXI SRAM of the Cortex-M7's domain; DTCM "
     "(128 KB), SRAM1-3 (288 KB) and SRAM4 (64 KB) are separate regions, not counted"},
    {"nrf5340-dk", "Nordic nRF5340", "Arm Cortex-M33 application core, 128 MHz",
     "cortex-m33+cmsis-nn", "90b983c", 512 * kKiB, 0, "",
     "Nordic nRF5340 Product Specification (application core 512 KB RAM, network core 64 KB "
     "RAM)",
     "the application core's 512 KB RAM; the network core's 64 KB is not counted"},
    {"esp32-devkitc", "Espressif ESP32 (ESP32-WROOM-32E module)", "dual Xtensa LX6, 240 MHz",
     "esp32+esp-nn", "1.2.3", 160 * kKiB, 0, "",
     "Espressif ESP32 datasheet (520 KB SRAM); ESP-IDF Programming Guide, Memory Types for "
     "ESP32 (320 KB DRAM, at most 160 KB of it statically allocated)",
     "of the 520 KB SRAM, ESP-IDF gives data 320 KB of DRAM, of which at most 160 KB can be "
     "allocated statically; the rest is heap in separate regions, so 160 KB is the largest "
     "arena that fits in one piece"},
    {"esp32-s3-devkitc-1", "Espressif ESP32-S3 (ESP32-S3-WROOM-1-N8 module, no PSRAM)",
     "dual Xtensa LX7, 240 MHz", "esp32s3+esp-nn", "1.2.3", 416 * kKiB, 0, "",
     "Espressif ESP32-S3 datasheet (512 KB SRAM); ESP-IDF Programming Guide, Memory Types for "
     "ESP32-S3 (static DRAM shares internal SRAM with IRAM code)",
     "ESP-IDF places static data and heap in the 416 KB of internal SRAM from 0x3FC88000 to "
     "0x3FCF0000 (the rest holds the caches and ROM data); the application's IRAM code comes "
     "out of the same 416 KB"},
    {"esp32-s3-devkitc-1-n8r8", "Espressif ESP32-S3 (ESP32-S3-WROOM-1-N8R8 module)",
     "dual Xtensa LX7, 240 MHz", "esp32s3+esp-nn", "1.2.3", 416 * kKiB, 8 * kMiB,
     "octal PSRAM, 8 MB",
     "Espressif ESP32-S3 datasheet (512 KB SRAM); ESP32-S3-WROOM-1 datasheet (N8R8: 8 MB "
     "octal PSRAM); ESP-IDF Programming Guide, Memory Types for ESP32-S3",
     "internal RAM as esp32-s3-devkitc-1; a buffer in the 8 MB PSRAM (heap_caps_malloc with "
     "MALLOC_CAP_SPIRAM) is possible but slower"},
    {"esp32-p4-function-ev-board", "Espressif ESP32-P4 (ESP32-P4NRW32, 32 MB PSRAM in package)",
     "dual RISC-V HP cores, up to 400 MHz", "esp32p4+esp-nn", "1.2.3", 640 * kKiB, 32 * kMiB,
     "PSRAM, 32 MB",
     "Espressif ESP32-P4 datasheet (768 KB HP L2MEM); ESP32-P4-Function-EV-Board user guide "
     "(32 MB PSRAM)",
     "ESP-IDF takes the L2 cache out of the 768 KB HP L2MEM: 128 KB with its default "
     "CONFIG_CACHE_L2_CACHE_SIZE leaves 640 KB (256 or 512 KB of cache leave less); the "
     "128 KB default is not re-checked against ESP-IDF's Kconfig by this project"},
    {"corstone-300", "Arm Corstone-300 (SSE-300): FVP, or MPS3 FPGA image AN547", "Arm Cortex-M55",
     "cortex-m55+cmsis-nn", "90b983c", 2 * kMiB, 0, "",
     "Arm Corstone SSE-300 Example Subsystem Technical Reference Manual and Arm MPS3 AN547 "
     "application note (512 KB ITCM, 512 KB DTCM, 2 MB internal SRAM)",
     "the 2 MB internal SRAM; DTCM (512 KB) is a separate region, and the DDR the FVP and "
     "MPS3 also map is not counted; the 2 MB figure is not re-checked against the TRM by this "
     "project"},
    {"corstone-300-ethos-u55", "Arm Corstone-300 (SSE-300) with Ethos-U55: FVP, or MPS3 AN547",
     "Arm Cortex-M55 + Ethos-U55 NPU", "cortex-m55+ethos-u", "90b983c", 2 * kMiB, 0, "",
     "Arm ethos-u-core-platform's Corstone-300 linker script (ITCM 512 KB, DTCM 512 KB, SRAM "
     "2 MB at 0x31000000, DDR beyond); Arm Corstone SSE-300 Technical Reference Manual",
     "the 2 MB SRAM the NPU reaches (Vela's Shared_Sram models keep their scratch there); the "
     "DDR is not counted"},
    {"alif-ensemble-e7-hp", "Alif Semiconductor Ensemble E7, high-performance subsystem",
     "Arm Cortex-M55 at 400 MHz + Ethos-U55 (256 MACs)", "cortex-m55+ethos-u", "90b983c", 4 * kMiB,
     0, "",
     "Alif Ensemble Software Reference Manual, section 2.4 (RTSS-HP: ITCM 256 KB, DTCM 1 MB, "
     "Ethos-U55-256); Alif's RAM regions and linker files whitepaper (SRAM0 4096 KB at "
     "0x02000000, SRAM1 2560 KB at 0x08000000)",
     "SRAM0 (4 MB), the largest region the NPU reaches; SRAM1 and the TCMs are separate "
     "regions; smaller Ensemble parts have less (the figures are the family's maximum)"},
    {"himax-we2", "Himax WiseEye2 HX6538 (Seeed Grove Vision AI Module V2)",
     "Arm Cortex-M55 + Ethos-U55 (64 MACs)", "cortex-m55+ethos-u", "90b983c", 2 * kMiB, 0, "",
     "Himax WE2 SDK linker script (ITCM 256 KB, DTCM 256 KB, 2 MB system SRAM at 0x34000000 "
     "holding the tensor arena); Himax's examples compile with Vela for ethos-u55-64 (no "
     "datasheet was available)",
     "the 2 MB system SRAM (SRAM0 + SRAM1, contiguous) the SDK places the arena in; from the "
     "SDK's linker script, no datasheet was available"},
};

}  // namespace

Span<const Board> Boards() {
  return Span<const Board>(kBoards, sizeof(kBoards) / sizeof(kBoards[0]));
}

const Board* FindBoard(const char* name) { return FindByName(kBoards, name); }

std::string BoardNames() { return JoinNames(kBoards); }

}  // namespace tflm
}  // namespace tflm_arena
