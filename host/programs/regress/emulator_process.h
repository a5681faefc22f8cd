// A card for a `card` cell: an otpu-xdma-emu process serving a fresh mount point, started and
// stopped by the runner itself (docs/regress.md "Transports"), so the cell runs the real XDMA
// code path (XdmaBoard) with no card.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_EMULATOR_PROCESS_H_
#define OTPU_HOST_PROGRAMS_REGRESS_EMULATOR_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"

namespace otpu::regress {

class EmulatorProcess {
 public:
  // Starts `binary MOUNT --foreground ARGS...` on a new mount point under a fresh temporary
  // directory and waits (up to `timeout_s`) for its device prefix. Unavailable naming the
  // binary and what it printed when it does not come up.
  static StatusOr<std::unique_ptr<EmulatorProcess>> Start(const std::string& binary,
                                                          const std::vector<std::string>& args,
                                                          double timeout_s = 30);
  // Stops it (SIGTERM, then SIGKILL), unmounts if needed and removes the directory.
  ~EmulatorProcess();
  EmulatorProcess(const EmulatorProcess&) = delete;
  EmulatorProcess& operator=(const EmulatorProcess&) = delete;

  // MOUNT/xdma0: the device prefix for XdmaBoard.
  const std::string& prefix() const { return prefix_; }

 private:
  EmulatorProcess() = default;

  pid_t pid_ = -1;
  int out_fd_ = -1;
  std::string dir_;
  std::string mount_;
  std::string prefix_;
};

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_EMULATOR_PROCESS_H_
