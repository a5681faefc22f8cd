#include "sim/board/dram_module.h"

#include <utility>

namespace otpu::board {

DramModule::DramModule(sc_core::sc_module_name name, uint64_t bytes, int chunk_bytes,
                       const rtl::DramOptions& opts)
    : sc_core::sc_module(name),
      dma("dma"),
      memory_(bytes),
      chunk_bytes_(chunk_bytes),
      model_(std::make_unique<rtl::DramModel>(&memory_, chunk_bytes, opts)) {
  dma.register_b_transport(this, &DramModule::Transport);
}

rtl::DramModel* DramModule::Rebuild(const rtl::DramOptions& opts) {
  model_ = std::make_unique<rtl::DramModel>(&memory_, chunk_bytes_, opts);
  return model_.get();
}

// Host DMA costs no core cycles (docs/board.md "DMA"): `delay` is left as it came.
void DramModule::Transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const uint64_t len = trans.get_data_length();
  if (trans.get_byte_enable_ptr() != nullptr) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return;
  }
  if (trans.get_streaming_width() != 0 && trans.get_streaming_width() < len) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  if (!memory_.Contains(addr, len)) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  switch (trans.get_command()) {
    case tlm::TLM_READ_COMMAND: memory_.Read(addr, trans.get_data_ptr(), len); break;
    case tlm::TLM_WRITE_COMMAND: memory_.Write(addr, trans.get_data_ptr(), len); break;
    default: break;  // TLM_IGNORE_COMMAND
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace otpu::board
