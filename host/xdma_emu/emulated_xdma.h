// The XDMA driver's semantics over a board (SPEC 7, docs/xdma.md), request by request, as the
// FUSE server hands them over: what a read or write of the device files does, with the faults
// of a FaultPlan applied. The FUSE layer knows nothing of the driver; this knows nothing of
// FUSE.
//   user  4-byte register accesses: an offset not a multiple of 4 is EPROTO (the driver's
//         answer); a request of 4 or more bytes moves 4 and returns 4 (the driver ignores the
//         count); fewer than 4 is EINVAL (the driver would copy 4 bytes past the buffer);
//         offsets past the 4 KiB map are EINVAL (the driver does not check them).
//   h2c   write only (a read is EINVAL, as the driver's direction check): bytes to the card
//         address = the offset.
//   c2h   read only (a write is EINVAL): bytes from the card address = the offset.
// A board error becomes EIO, with one line on stderr saying what the board said.
#ifndef OTPU_HOST_XDMA_EMU_EMULATED_XDMA_H_
#define OTPU_HOST_XDMA_EMU_EMULATED_XDMA_H_

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "host/board_iface.h"
#include "host/xdma_emu/fault_plan.h"

namespace otpu::xdma_emu {

// Names of the files under the mount point: a mount at M serves the prefix M/xdma0.
inline constexpr char kDeviceName[] = "xdma0";

// "xdma0_user", "xdma0_h2c_0", "xdma0_c2h_0".
std::string DeviceFileName(DeviceFile file);

class EmulatedXdma {
 public:
  // What the card does while a slow request (FaultKind::kSlow) waits: `ms` milliseconds of
  // its own time pass, as a card runs on while its host is slow.
  using CardRuns = std::function<void(int ms)>;

  // `board` is borrowed and must outlive this object. `card_runs` (may be empty: the card
  // stands still while a slow request waits) is called with each slow request's wait.
  EmulatedXdma(host::BoardIface* board, FaultPlan faults, CardRuns card_runs = {});

  // Serve one request; the bytes moved, or -errno.
  ssize_t Read(DeviceFile file, char* buf, size_t size, uint64_t offset);
  ssize_t Write(DeviceFile file, const char* buf, size_t size, uint64_t offset);

  // The size the file reports: the register map (4 KiB) for user; for h2c/c2h the card's
  // address space up to the end of the trace window (the driver's files report none, but a
  // FUSE file needs one that reaches every address).
  static uint64_t FileSize(DeviceFile file);

 private:
  ssize_t ReadUser(char* buf, size_t size, uint64_t offset, bool half);
  ssize_t WriteUser(const char* buf, size_t size, uint64_t offset, bool half);
  // Logs a board failure on stderr and returns -EIO.
  ssize_t BoardFailed(DeviceFile file, const char* op, size_t size, uint64_t offset,
                      const Status& status);

  // Waits a slow request's delay, with the card running meanwhile.
  void Wait(int ms);

  host::BoardIface* board_;
  FaultPlan faults_;
  CardRuns card_runs_;
  bool hang_;
};

}  // namespace otpu::xdma_emu

#endif  // OTPU_HOST_XDMA_EMU_EMULATED_XDMA_H_
