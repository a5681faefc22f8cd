// The host's side of the board: TLM initiator sockets for BAR0 register accesses and for
// DMA, driven by SimBoard from outside any SystemC process (the targets never wait).
// C++17 (SystemC).
#ifndef OTPU_SIM_BOARD_HOST_PORT_H_
#define OTPU_SIM_BOARD_HOST_PORT_H_

#include <cstddef>
#include <cstdint>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace otpu::board {

class HostPort : public sc_core::sc_module {
 public:
  explicit HostPort(sc_core::sc_module_name name)
      : sc_core::sc_module(name), reg("reg"), dma("dma") {}

  tlm_utils::simple_initiator_socket<HostPort> reg;
  tlm_utils::simple_initiator_socket<HostPort> dma;

  // One blocking transaction of `len` bytes at `addr` through `socket`, issued at the current
  // simulated time; `*delay` receives the time it took. Returns the target's response.
  static tlm::tlm_response_status Transport(tlm_utils::simple_initiator_socket<HostPort>& socket,
                                            tlm::tlm_command command, uint64_t addr,
                                            void* data, size_t len, sc_core::sc_time* delay) {
    tlm::tlm_generic_payload trans;
    trans.set_command(command);
    trans.set_address(addr);
    trans.set_data_ptr(static_cast<unsigned char*>(data));
    trans.set_data_length(static_cast<unsigned int>(len));
    trans.set_streaming_width(static_cast<unsigned int>(len));
    trans.set_byte_enable_ptr(nullptr);
    trans.set_dmi_allowed(false);
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    *delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(trans, *delay);
    return trans.get_response_status();
  }
};

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_HOST_PORT_H_
