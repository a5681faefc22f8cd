#include "host/xdma_emu/test_emulator.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace otpu::xdma_emu::testing {
namespace {

// Building the board model can take a while on a loaded machine.
constexpr double kStartupSeconds = 120;

}  // namespace

std::string EmulatorBinary() { return OTPU_XDMA_EMU_BINARY; }

bool IsMounted(const std::string& path) {
  std::ifstream mountinfo("/proc/self/mountinfo");
  std::string line;
  while (std::getline(mountinfo, line)) {
    std::istringstream fields(line);
    std::string id, parent, devno, root, mount_point;
    if ((fields >> id >> parent >> devno >> root >> mount_point) && mount_point == path) {
      return true;
    }
  }
  return false;
}

TempMount::TempMount() {
  std::string pattern = "/tmp/otpu_xdma_test.XXXXXX";
  if (!::mkdtemp(pattern.data())) std::abort();
  dir_ = pattern;
  mountpoint_ = dir_ + "/mnt";
  std::filesystem::create_directory(mountpoint_);
}

TempMount::~TempMount() {
  if (IsMounted(mountpoint_)) ::umount2(mountpoint_.c_str(), MNT_DETACH);
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

Emulator::Emulator(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {EmulatorBinary(), mount_.mountpoint(), "--foreground"};
  argv.insert(argv.end(), args.begin(), args.end());
  process_ = std::make_unique<testutil::TestProcess>(argv);
  prefix_ = process_->ReadLine(kStartupSeconds);
  if (prefix_.empty()) {
    result_ = process_->Wait(5);
    stopped_ = true;
    startup_output_ = "exit " + std::to_string(result_.exit_code) + ", stderr: " + result_.err;
  }
}

Emulator::~Emulator() {
  if (!stopped_) Stop(SIGTERM);
}

testutil::ProcessResult Emulator::Stop(int sig, double timeout_s) {
  if (stopped_) return result_;  // already reaped: never signal a reused pid
  ::kill(process_->pid(), sig);
  stopped_ = true;
  result_ = process_->Wait(timeout_s);
  return result_;
}

}  // namespace otpu::xdma_emu::testing
