// The board's host DMA bridge as a TLM target (SPEC 4): card addresses inside DRAM go to the
// DRAM module's socket; from kTraceWindowBase, reads of the trace buffer's DEPTH 64-bit
// records go to the board's DMA-window port (BoardModel::ReadTraceWindow, a beat a cycle).
// C++17 (SystemC).
#ifndef OTPU_SIM_BOARD_DMA_ROUTER_H_
#define OTPU_SIM_BOARD_DMA_ROUTER_H_

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "sim/board/core_module.h"

namespace otpu::board {

// What one host DMA read of the trace window costs a card (docs/board.md "Time"): a fixed
// setup (the driver's descriptor, the engine's start, the completion) and the transfer at the
// link's bandwidth, but never faster than the window port's beat a cycle. The transfer moves
// whole 64-byte beats (a host that widens its reads to beats, as XdmaBoard does, pays the same).
struct DmaReadCost {
  int64_t setup_cycles = 200;        // 2 us at 100 MHz
  int64_t bytes_per_cycle = 32;      // 3.2 GB/s at 100 MHz
  // Core cycles a read of `beats` 64-byte beats takes, all in.
  int64_t Cycles(uint64_t beats) const {
    return setup_cycles +
           int64_t((beats * 64 + uint64_t(bytes_per_cycle) - 1) / uint64_t(bytes_per_cycle));
  }
};

class DmaRouter : public sc_core::sc_module {
 public:
  // `core` is borrowed; `dram_bytes` is the DRAM size; `window_records` the trace buffer's
  // DEPTH (0: the board has no trace window, as a map-version-1 board); `window_read` what a
  // window read costs.
  DmaRouter(sc_core::sc_module_name name, CoreModule* core, uint64_t dram_bytes,
            uint64_t window_records, const DmaReadCost& window_read);

  // From the host. An address range in neither DRAM nor the window is a
  // TLM_ADDRESS_ERROR_RESPONSE, a write to the window a TLM_COMMAND_ERROR_RESPONSE.
  tlm_utils::simple_target_socket<DmaRouter> host;
  // To the DRAM module.
  tlm_utils::simple_initiator_socket<DmaRouter> dram;

 private:
  void Transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // A window read: its record-aligned cover read through the port, the asked bytes copied.
  void ReadWindow(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  CoreModule* core_;
  uint64_t dram_bytes_;
  uint64_t window_bytes_;
  DmaReadCost window_read_;
};

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_DMA_ROUTER_H_
