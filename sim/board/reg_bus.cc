#include "sim/board/reg_bus.h"

#include <algorithm>
#include <cstring>

#include "base/status.h"

namespace otpu::board {

RegBus::RegBus(sc_core::sc_module_name name, CoreModule* core, const sc_core::sc_time& access)
    : sc_core::sc_module(name), socket("socket"), core_(core), access_(access) {
  socket.register_b_transport(this, &RegBus::Transport);
}

void RegBus::Transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t offset = trans.get_address();
  if (trans.get_data_length() != 4 || trans.get_byte_enable_ptr() != nullptr) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (offset % 4 != 0 || offset >= kRegMapBytes) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  // The host is synchronised: the core stands exactly at the access's time.
  const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
  OTPU_CHECK(core_->time() == at);
  uint32_t value = 0;
  switch (trans.get_command()) {
    case tlm::TLM_READ_COMMAND:
      value = core_->ReadReg(uint32_t(offset));
      std::memcpy(trans.get_data_ptr(), &value, 4);
      break;
    case tlm::TLM_WRITE_COMMAND:
      std::memcpy(&value, trans.get_data_ptr(), 4);
      core_->WriteReg(uint32_t(offset), value);
      break;
    default:
      break;  // TLM_IGNORE_COMMAND
  }
  // The bus cycles are part of the round trip, unless they alone take longer.
  delay += std::max(access_, core_->time() - at);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace otpu::board
