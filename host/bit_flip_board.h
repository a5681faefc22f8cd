// A BoardIface that flips one bit of one trace record as the host reads the trace window:
// fault injection at the transport seam, so a test can prove that a corrupt trace is caught
// (otpu-regress --flip-record). Everything else passes through unchanged.
#ifndef OTPU_HOST_BIT_FLIP_BOARD_H_
#define OTPU_HOST_BIT_FLIP_BOARD_H_

#include <cstdint>
#include <string>

#include "host/board_iface.h"

namespace otpu::host {

class BitFlipBoard : public BoardIface {
 public:
  // Flips bit `bit` (0..63) of trace record `record` (its index in the trace window) in every
  // DMA read that covers it. `inner` is borrowed and must outlive this board.
  BitFlipBoard(BoardIface* inner, int64_t record, int bit)
      : inner_(inner), record_(record), bit_(bit) {}

  StatusOr<uint32_t> ReadReg(uint32_t offset) override { return inner_->ReadReg(offset); }
  Status WriteReg(uint32_t offset, uint32_t value) override {
    return inner_->WriteReg(offset, value);
  }
  Status WriteDma(uint64_t addr, const void* data, size_t n) override {
    return inner_->WriteDma(addr, data, n);
  }
  // The inner board's bytes, with the chosen bit flipped when the read covers it.
  Status ReadDma(uint64_t addr, void* data, size_t n) override;
  std::string Describe() const override { return inner_->Describe(); }

 private:
  BoardIface* inner_;
  int64_t record_;
  int bit_;
};

}  // namespace otpu::host

#endif  // OTPU_HOST_BIT_FLIP_BOARD_H_
