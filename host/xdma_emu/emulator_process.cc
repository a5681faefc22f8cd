#include "host/xdma_emu/emulator_process.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "base/mountinfo.h"

namespace otpu::xdma_emu {
namespace {

std::string Trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

}  // namespace

StatusOr<std::unique_ptr<EmulatorProcess>> EmulatorProcess::Start(
    const std::string& binary, const std::vector<std::string>& args, double timeout_s) {
  std::unique_ptr<EmulatorProcess> emu(new EmulatorProcess());
  std::string pattern = "/tmp/otpu_emu.XXXXXX";
  if (!::mkdtemp(pattern.data())) return Internal(pattern + ": " + std::strerror(errno));
  emu->dir_ = std::filesystem::canonical(pattern).string();
  emu->mount_ = emu->dir_ + "/mnt";
  std::error_code ec;
  std::filesystem::create_directory(emu->mount_, ec);
  if (ec) return Internal(emu->mount_ + ": " + ec.message());

  SubprocessOptions options;
  options.argv = {binary, emu->mount_, "--foreground"};
  options.argv.insert(options.argv.end(), args.begin(), args.end());
  options.out = Stream::Capture();
  options.err = Stream::Capture();
  StatusOr<std::unique_ptr<Subprocess>> process = Subprocess::Start(options);
  if (!process.ok()) return Unavailable(process.status().message());
  emu->process_ = std::move(process).value();

  // The first line is the device prefix; anything else is why it did not start.
  const std::string line = emu->process_->ReadLine(timeout_s);
  if (line == emu->mount_ + "/xdma0") {
    emu->prefix_ = line;
    return emu;
  }
  const SubprocessResult ended = emu->Stop(SIGTERM, 5);
  const std::string said = Trimmed(ended.out + ended.err);
  return Unavailable(binary + " did not mount " + emu->mount_ + " within " +
                     std::to_string(int(timeout_s)) + " s" + (said.empty() ? "" : ": " + said));
}

EmulatorProcess::~EmulatorProcess() {
  if (process_) Stop(SIGTERM);
  if (!mount_.empty() && IsMountPoint(mount_) && ::umount2(mount_.c_str(), MNT_DETACH) != 0) {
    // Not ours to unmount without privileges: FUSE's helper may (left mounted, the removal
    // below fails too and says nothing more useful).
    SubprocessOptions unmount;
    unmount.argv = {"fusermount3", "-u", "-z", mount_};
    unmount.out = Stream::Null();
    unmount.err = Stream::Null();
    (void)RunSubprocess(unmount);
  }
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

SubprocessResult EmulatorProcess::Stop(int sig, double timeout_s) {
  return process_->Stop(sig, timeout_s);
}

}  // namespace otpu::xdma_emu
