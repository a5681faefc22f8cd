// A running otpu-xdma-emu on a fresh mount point under a temporary directory: started, waited
// for until it prints its device prefix, and stopped, unmounted and removed on destruction.
// One lifecycle for otpu-regress's card cells and for the tests and benches.
#ifndef OTPU_HOST_XDMA_EMU_EMULATOR_PROCESS_H_
#define OTPU_HOST_XDMA_EMU_EMULATOR_PROCESS_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/subprocess.h"

namespace otpu::xdma_emu {

class EmulatorProcess {
 public:
  // Starts `binary MOUNT --foreground ARGS...` with MOUNT a new directory under a fresh
  // /tmp/otpu_emu.XXXXXX and waits up to `timeout_s` for its device prefix line. Unavailable
  // naming the binary, the mount point and what it printed when it does not come up.
  static StatusOr<std::unique_ptr<EmulatorProcess>> Start(const std::string& binary,
                                                          const std::vector<std::string>& args,
                                                          double timeout_s = 30);
  // Stops it (SIGTERM, SIGKILL after 20 s), unmounts what it left and removes the directory.
  ~EmulatorProcess();
  EmulatorProcess(const EmulatorProcess&) = delete;
  EmulatorProcess& operator=(const EmulatorProcess&) = delete;

  // MOUNT/xdma0 (MOUNT resolved): the device prefix for XdmaBoard.
  const std::string& prefix() const { return prefix_; }
  // The mount point as passed to the emulator.
  const std::string& mountpoint() const { return mount_; }
  // The emulator's pid.
  pid_t pid() const { return process_->pid(); }
  // Sends `sig`, waits up to `timeout_s` (then SIGKILLs) and returns how it ended with all it
  // printed. Once; later calls return the same result.
  SubprocessResult Stop(int sig, double timeout_s = 20);

 private:
  EmulatorProcess() = default;

  std::unique_ptr<Subprocess> process_;
  std::string dir_;
  std::string mount_;
  std::string prefix_;
};

}  // namespace otpu::xdma_emu

#endif  // OTPU_HOST_XDMA_EMU_EMULATOR_PROCESS_H_
