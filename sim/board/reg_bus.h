// The board's register bus (BAR0, SPEC 4) as a TLM target: a 32-bit access happens at the
// current simulated time on the Verilated board's register port (the core has run exactly to
// that time), takes the bus's few cycles, and annotates the rest of a host round trip
// (reg_access_ns in all, about 1 us as a PCIe read) on the transaction's delay.
// C++17 (SystemC).
#ifndef OTPU_SIM_BOARD_REG_BUS_H_
#define OTPU_SIM_BOARD_REG_BUS_H_

#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "sim/board/core_module.h"

namespace otpu::board {

// The BAR0 map's size: offsets are 4-aligned and below it.
inline constexpr uint64_t kRegMapBytes = 0x1000;

class RegBus : public sc_core::sc_module {
 public:
  // `core` is borrowed; one access costs `access` of simulated time in all.
  RegBus(sc_core::sc_module_name name, CoreModule* core, const sc_core::sc_time& access);

  // 4-byte reads and writes at 4-aligned offsets below kRegMapBytes; anything else is a
  // TLM_ADDRESS_ERROR_RESPONSE (offset) or TLM_BURST_ERROR_RESPONSE (length).
  tlm_utils::simple_target_socket<RegBus> socket;

 private:
  void Transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);

  CoreModule* core_;
  sc_core::sc_time access_;
};

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_REG_BUS_H_
