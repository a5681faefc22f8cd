#include "host/xdma_emu/test_emulator.h"

#include <stdlib.h>
#include <sys/mount.h>

#include <filesystem>

#include "base/mountinfo.h"

namespace otpu::xdma_emu::testing {
namespace {

// Building the board model can take a while on a loaded machine.
constexpr double kStartupSeconds = 120;

}  // namespace

std::string EmulatorBinary() { return OTPU_XDMA_EMU_BINARY; }

TempMount::TempMount() {
  std::string pattern = "/tmp/otpu_xdma_test.XXXXXX";
  if (!::mkdtemp(pattern.data())) std::abort();
  dir_ = pattern;
  mountpoint_ = dir_ + "/mnt";
  std::filesystem::create_directory(mountpoint_);
}

TempMount::~TempMount() {
  if (IsMountPoint(mountpoint_)) ::umount2(mountpoint_.c_str(), MNT_DETACH);
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

Emulator::Emulator(const std::vector<std::string>& args) {
  StatusOr<std::unique_ptr<EmulatorProcess>> started =
      EmulatorProcess::Start(EmulatorBinary(), args, kStartupSeconds);
  if (started.ok()) {
    process_ = std::move(started).value();
  } else {
    startup_output_ = started.status().message();
  }
}

testutil::ProcessResult Emulator::Stop(int sig, double timeout_s) {
  if (!process_) return {};  // never started: nothing to stop
  return testutil::ToProcessResult(process_->Stop(sig, timeout_s));
}

}  // namespace otpu::xdma_emu::testing
