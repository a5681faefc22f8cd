// Test helper: a real otpu-xdma-emu (emulator_process.h) serving a fresh temporary mount point,
// stopped (SIGTERM) and cleaned up when the object goes away, so every test mounts for real.
#ifndef OTPU_HOST_XDMA_EMU_TEST_EMULATOR_H_
#define OTPU_HOST_XDMA_EMU_TEST_EMULATOR_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "base/testing/subprocess.h"
#include "host/xdma_emu/emulator_process.h"

namespace otpu::xdma_emu::testing {

// The emulator binary under test (set by the build).
std::string EmulatorBinary();

// A fresh directory /tmp/otpu_xdma_test.XXXXXX with an empty `mnt` inside; removed (after a
// lazy unmount if a test left a mount behind) on destruction.
class TempMount {
 public:
  TempMount();
  ~TempMount();
  TempMount(const TempMount&) = delete;
  TempMount& operator=(const TempMount&) = delete;

  // The temporary directory.
  const std::string& dir() const { return dir_; }
  // The empty directory inside it.
  const std::string& mountpoint() const { return mountpoint_; }

 private:
  std::string dir_;
  std::string mountpoint_;
};

// EmulatorProcess for tests: never fails to construct; ready() says whether it came up.
class Emulator {
 public:
  // Starts `otpu-xdma-emu MOUNT --foreground ARGS...` and waits for the prefix line.
  explicit Emulator(const std::vector<std::string>& args = {});

  // True once the emulator printed its prefix; else startup_output() says why.
  bool ready() const { return process_ != nullptr; }
  // MOUNT/xdma0, the device prefix.
  const std::string& prefix() const { return process_->prefix(); }
  // The mount point it serves.
  const std::string& mountpoint() const { return process_->mountpoint(); }
  // Why it did not come up.
  std::string startup_output() const { return startup_output_; }
  // The emulator's pid.
  pid_t pid() const { return process_->pid(); }

  // Sends `sig` and waits for the process to end (once; later calls return the same result).
  testutil::ProcessResult Stop(int sig, double timeout_s = 20);

 private:
  std::unique_ptr<EmulatorProcess> process_;
  std::string startup_output_;
};

}  // namespace otpu::xdma_emu::testing

#endif  // OTPU_HOST_XDMA_EMU_TEST_EMULATOR_H_
