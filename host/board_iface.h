// The seam between the host runtime and a board (SPEC 2): 32-bit register access at BAR0
// offsets and DMA at card addresses, nothing else. SimBoard (sim/board) and XdmaBoard
// (host/xdma) implement it; Card (host/card.h) sees only this. A simulated board advances as
// the host uses it, as a card's clock runs while the host polls.
#ifndef OTPU_HOST_BOARD_IFACE_H_
#define OTPU_HOST_BOARD_IFACE_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.h"

namespace otpu::host {

// Card address of trace record i through the DMA window (SPEC 4, CAPS bit1).
inline constexpr uint64_t kTraceWindowBase = uint64_t{1} << 32;

class BoardIface {
 public:
  virtual ~BoardIface() = default;

  // One 32-bit register at a 4-aligned BAR0 offset below 0x1000. Errors name the board's
  // device (or "board model") and the offset.
  virtual StatusOr<uint32_t> ReadReg(uint32_t offset) = 0;
  virtual Status WriteReg(uint32_t offset, uint32_t value) = 0;

  // DMA between host memory and the card: DRAM at card addresses below the DRAM size, the
  // trace window at kTraceWindowBase (read only). Any length and alignment; an
  // implementation widens or splits as its transport needs.
  virtual Status WriteDma(uint64_t card_addr, const void* data, size_t len) = 0;
  virtual Status ReadDma(uint64_t card_addr, void* data, size_t len) = 0;

  // "board model" or the device prefix, for messages.
  virtual std::string Describe() const = 0;
};

}  // namespace otpu::host

#endif  // OTPU_HOST_BOARD_IFACE_H_
