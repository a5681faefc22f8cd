// Test helper: a real otpu-xdma-emu process serving a fresh temporary mount point, stopped
// (SIGTERM) and cleaned up when the object goes away, so every test mounts for real.
#ifndef OTPU_HOST_XDMA_EMU_TEST_EMULATOR_H_
#define OTPU_HOST_XDMA_EMU_TEST_EMULATOR_H_

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "base/testing/subprocess.h"

namespace otpu::xdma_emu::testing {

// The emulator binary under test (set by the build).
std::string EmulatorBinary();

// True when something is mounted on `path` (per /proc/self/mountinfo).
bool IsMounted(const std::string& path);

// A fresh directory /tmp/otpu_xdma_test.XXXXXX with an empty `mnt` inside; removed (after a
// lazy unmount if a test left a mount behind) on destruction.
class TempMount {
 public:
  TempMount();
  ~TempMount();
  TempMount(const TempMount&) = delete;
  TempMount& operator=(const TempMount&) = delete;

  const std::string& dir() const { return dir_; }
  const std::string& mountpoint() const { return mountpoint_; }

 private:
  std::string dir_;
  std::string mountpoint_;
};

class Emulator {
 public:
  // Starts `otpu-xdma-emu MOUNT --foreground ARGS...` and waits for the prefix line.
  explicit Emulator(const std::vector<std::string>& args = {});
  // Stops it with SIGTERM if it still runs.
  ~Emulator();
  Emulator(const Emulator&) = delete;
  Emulator& operator=(const Emulator&) = delete;

  // True once the emulator printed its prefix; else startup_output() says why.
  bool ready() const { return !prefix_.empty(); }
  // MOUNT/xdma0, the device prefix.
  const std::string& prefix() const { return prefix_; }
  const std::string& mountpoint() const { return mount_.mountpoint(); }
  std::string startup_output() const { return startup_output_; }
  pid_t pid() const { return process_->pid(); }

  // Sends `sig` and waits for the process to end (once; later calls return the same result).
  testutil::ProcessResult Stop(int sig, double timeout_s = 20);

 private:
  TempMount mount_;
  std::unique_ptr<testutil::TestProcess> process_;
  std::string prefix_;
  std::string startup_output_;
  bool stopped_ = false;
  testutil::ProcessResult result_;
};

}  // namespace otpu::xdma_emu::testing

#endif  // OTPU_HOST_XDMA_EMU_TEST_EMULATOR_H_
