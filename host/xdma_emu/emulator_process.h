// A running otpu-xdma-emu on a fresh mount point under a temporary directory: started, waited
// for until it prints its device prefix, and stopped, unmounted and removed on destruction.
// One lifecycle for otpu-regress's card cells and for the tests and benches.
//
// An owner killed by SIGKILL (a Slurm time limit, the OOM killer) runs no destructor, so:
// the emulator gets SIGTERM when its owner dies (PR_SET_PDEATHSIG), on which it ends its FUSE
// session and unmounts; and the directory is named after its owner
// (/tmp/otpu_emu.PID-STARTTIME.XXXXXX), so the next Start removes those whose owner is gone,
// lazily unmounting what a killed emulator left mounted.
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
  // /tmp/otpu_emu.PID-STARTTIME.XXXXXX and waits up to `timeout_s` for its device prefix line.
  // Unavailable naming the binary, the mount point and what it printed when it does not come
  // up. Removes stale directories first (RemoveStale). The emulator gets SIGTERM when the
  // calling thread ends (that is when PR_SET_PDEATHSIG fires), so call it from a thread that
  // lives as long as the emulator should.
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
  // Removes the /tmp/otpu_emu.* directories of this user whose owner process has ended,
  // unmounting (lazily) a mount left in them first; a directory whose mount cannot be
  // unmounted is left alone. Returns the directories removed.
  static std::vector<std::string> RemoveStale(const std::string& tmp = "/tmp");

  // The emulator's pid.
  pid_t pid() const { return process_->pid(); }
  // Sends `sig`, waits up to `timeout_s` (then SIGKILLs) and returns how it ended with all it
  // printed (stderr up to 16 MiB, `truncated` beyond). Once; later calls return the same result.
  SubprocessResult Stop(int sig, double timeout_s = 20);

 private:
  EmulatorProcess() = default;

  std::unique_ptr<Subprocess> process_;
  bool stopped_ = false;
  SubprocessResult ended_;  // Stop's result, stderr read from the file
  std::string dir_;
  std::string mount_;
  std::string prefix_;
};

}  // namespace otpu::xdma_emu

#endif  // OTPU_HOST_XDMA_EMU_EMULATOR_PROCESS_H_
