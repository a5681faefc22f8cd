#include "sim/board/dma_router.h"

#include <cstring>
#include <vector>

#include "host/board_iface.h"
#include "base/status.h"

namespace otpu::board {

namespace {
constexpr uint64_t kRecordBytes = 8;

// [addr, addr + len) lies inside [base, base + size).
bool Inside(uint64_t addr, uint64_t len, uint64_t base, uint64_t size) {
  return addr >= base && addr - base <= size && len <= size - (addr - base);
}
}  // namespace

DmaRouter::DmaRouter(sc_core::sc_module_name name, CoreModule* core, uint64_t dram_bytes,
                     uint64_t window_records, const DmaReadCost& window_read)
    : sc_core::sc_module(name),
      host("host"),
      dram("dram"),
      core_(core),
      dram_bytes_(dram_bytes),
      window_bytes_(window_records * kRecordBytes),
      window_read_(window_read) {
  host.register_b_transport(this, &DmaRouter::Transport);
}

void DmaRouter::Transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t addr = trans.get_address();
  const uint64_t len = trans.get_data_length();
  if (Inside(addr, len, 0, dram_bytes_)) {
    dram->b_transport(trans, delay);
    return;
  }
  if (window_bytes_ != 0 && Inside(addr, len, host::kTraceWindowBase, window_bytes_)) {
    if (trans.get_command() == tlm::TLM_WRITE_COMMAND) {
      trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
      return;
    }
    ReadWindow(trans, delay);
    return;
  }
  trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

void DmaRouter::ReadWindow(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t offset = trans.get_address() - host::kTraceWindowBase;
  const uint64_t len = trans.get_data_length();
  if (len == 0 || trans.get_command() != tlm::TLM_READ_COMMAND) {
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  const uint64_t first = offset / kRecordBytes;
  const uint64_t end = (offset + len + kRecordBytes - 1) / kRecordBytes;
  std::vector<uint64_t> records(end - first);
  // The port runs on the core's clock: the host is synchronised, so the core stands at the
  // access's time. The records are read through the port at once (the host reads only records
  // the unit no longer changes); the read then costs what a card's DMA costs, or the port's
  // beats if they take longer, and that passes on as delay (the core runs meanwhile).
  const sc_core::sc_time at = sc_core::sc_time_stamp() + delay;
  OTPU_CHECK(core_->time() == at);
  core_->ReadTraceWindow(first, records.size(), records.data());
  const sc_core::sc_time port = core_->time() - at;
  const uint64_t beats = (offset + len + 63) / 64 - offset / 64;
  const sc_core::sc_time cost = CyclesToTime(window_read_.Cycles(beats));
  delay += port > cost ? port : cost;
  std::memcpy(trans.get_data_ptr(), reinterpret_cast<const uint8_t*>(records.data()) +
                                        (offset - first * kRecordBytes),
              len);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace otpu::board
