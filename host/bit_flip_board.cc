#include "host/bit_flip_board.h"

namespace otpu::host {

Status BitFlipBoard::ReadDma(uint64_t addr, void* data, size_t n) {
  RETURN_IF_ERROR(inner_->ReadDma(addr, data, n));
  const uint64_t byte = kTraceWindowBase + uint64_t(record_) * 8 + uint64_t(bit_ / 8);
  if (addr <= byte && byte < addr + n) {
    static_cast<uint8_t*>(data)[byte - addr] ^= uint8_t(1u << (bit_ % 8));
  }
  return OkStatus();
}

}  // namespace otpu::host
