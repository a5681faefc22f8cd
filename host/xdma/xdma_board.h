// XdmaBoard: BoardIface over the Xilinx XDMA driver's device files (SPEC 7), as a PCIe card
// or otpu-xdma-emu presents them under a prefix such as /dev/xdma0:
//   PREFIX_user   BAR0: pread/pwrite of exactly 4 bytes at the register offset
//   PREFIX_h2c_0  host to card DMA: pwrite at the card address
//   PREFIX_c2h_0  card to host DMA: pread at the card address
// The driver never advances the file position, so every access names its offset. DMA is
// widened to whole 64-byte beats (a partial beat is read, merged and written back), moved
// through a page-aligned bounce buffer and split below the driver's per-call limit. Every
// failure is one line naming the device file, the operation, the offset and length, and the
// driver's errno. Not thread safe: one user at a time (the device lock sees to that).
#ifndef OTPU_HOST_XDMA_XDMA_BOARD_H_
#define OTPU_HOST_XDMA_XDMA_BOARD_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "host/board_iface.h"
#include "base/unique_fd.h"
#include "base/status.h"

namespace otpu::host {

struct XdmaBoardOptions {
  // Bytes one pread/pwrite of h2c/c2h moves at most. Linux moves at most 0x7ffff000 bytes
  // in one read/write call (MAX_RW_COUNT), so a larger transfer must be split; tests pass a
  // small limit to see the splitting. Rounded down to whole beats.
  uint64_t max_transfer = 0x7ffff000;
  // Capacity of the page-aligned bounce buffer, which also bounds one transfer. The buffer
  // grows to the largest transfer seen, up to this.
  uint64_t bounce_bytes = uint64_t{8} << 20;
};

class XdmaBoard : public BoardIface {
 public:
  // Opens PREFIX_user (read-write), PREFIX_h2c_0 (write) and PREFIX_c2h_0 (read) once.
  // NotFound naming the missing file; Internal naming the file and errno otherwise.
  static StatusOr<std::unique_ptr<XdmaBoard>> Create(const std::string& prefix,
                                                     const XdmaBoardOptions& opts = {});

  // Register offsets must lie in the 4 KiB map (InvalidArgument otherwise: the driver does
  // not check and would touch whatever lies beyond). Alignment is the driver's to check: an
  // unaligned offset comes back as its EPROTO.
  StatusOr<uint32_t> ReadReg(uint32_t offset) override;
  Status WriteReg(uint32_t offset, uint32_t value) override;
  Status WriteDma(uint64_t card_addr, const void* data, size_t len) override;
  Status ReadDma(uint64_t card_addr, void* data, size_t len) override;
  std::string Describe() const override { return prefix_; }

  // The device files, for messages and tests.
  const std::string& user_path() const { return user_path_; }
  const std::string& h2c_path() const { return h2c_path_; }
  const std::string& c2h_path() const { return c2h_path_; }

 private:
  XdmaBoard(std::string prefix, const XdmaBoardOptions& opts);

  // Exactly `len` bytes at `offset` through pread/pwrite on `fd`, or the error naming `path`.
  Status ReadExact(int fd, const std::string& path, void* buf, uint64_t len, uint64_t offset,
                   const char* what);
  Status WriteExact(int fd, const std::string& path, const void* buf, uint64_t len,
                    uint64_t offset, const char* what);
  // The bounce buffer with room for `len` bytes (len <= piece limit), page aligned.
  uint8_t* Bounce(uint64_t len);
  Status CheckDmaRange(uint64_t card_addr, size_t len, const std::string& path,
                       const char* op) const;

  struct FreeDeleter {
    void operator()(uint8_t* p) const { std::free(p); }
  };

  std::string prefix_;
  std::string user_path_, h2c_path_, c2h_path_;
  UniqueFd user_, h2c_, c2h_;
  uint64_t piece_limit_;  // bytes per pread/pwrite: min(max_transfer, bounce_bytes) in beats
  std::unique_ptr<uint8_t, FreeDeleter> bounce_;
  uint64_t bounce_capacity_ = 0;
};

// The one-line description of a failed device-file access: "<path>: <op> of <len> bytes at
// <where> 0x<offset>: <strerror>" plus what the errno means for the XDMA driver (EPROTO:
// unaligned register offset; ETIMEDOUT or 512, the ERESTARTSYS the driver leaks on a
// transfer timeout: timed out). DeadlineExceeded for timeouts, Internal otherwise.
Status DeviceIoError(const std::string& path, const char* op, uint64_t len, const char* where,
                     uint64_t offset, int err);

}  // namespace otpu::host

#endif  // OTPU_HOST_XDMA_XDMA_BOARD_H_
