#include "host/xdma_emu/emulator_process.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/mountinfo.h"
#include "base/proc_stat.h"

namespace otpu::xdma_emu {
namespace {

constexpr char kDirPrefix[] = "otpu_emu.";
constexpr char kStderrName[] = "stderr";  // the emulator's stderr, beside its mount point
constexpr size_t kStderrLimit = 16 << 20;

std::string Trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

// Field 22 of /proc/PID/stat, the process's start time in clock ticks after boot: with the
// pid it names one process, whatever reuses the pid later. "" when there is no such process.
std::string StartTimeOf(pid_t pid) { return ProcStatField(pid, 22).value_or(""); }

// Unmounts `mount` lazily: umount2 when we may (root), else FUSE's setuid helper.
void LazyUnmount(const std::string& mount) {
  if (::umount2(mount.c_str(), MNT_DETACH) == 0) return;
  SubprocessOptions unmount;
  unmount.argv = {"fusermount3", "-u", "-z", mount};
  unmount.out = Stream::Null();
  unmount.err = Stream::Null();
  (void)RunSubprocess(unmount);
}

// Whether directory name `name` (otpu_emu.PID-STARTTIME.XXXXXX) names a process that is gone.
bool OwnerIsGone(const std::string& name) {
  const size_t dash = name.find('-'), dot = name.rfind('.');
  if (name.rfind(kDirPrefix, 0) != 0 || dash == std::string::npos || dot <= dash) return false;
  const std::string pid = name.substr(sizeof kDirPrefix - 1, dash - (sizeof kDirPrefix - 1));
  const std::string start = name.substr(dash + 1, dot - dash - 1);
  if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) return false;
  return StartTimeOf(pid_t(std::stol(pid))) != start;
}

}  // namespace

StatusOr<std::unique_ptr<EmulatorProcess>> EmulatorProcess::Start(
    const std::string& binary, const std::vector<std::string>& args, double timeout_s) {
  (void)RemoveStale();
  std::unique_ptr<EmulatorProcess> emu(new EmulatorProcess());
  std::string pattern = std::string("/tmp/") + kDirPrefix + std::to_string(::getpid()) + "-" +
                        StartTimeOf(::getpid()) + ".XXXXXX";
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
  // Not a pipe: nothing reads one while the emulator serves, and an emulator that prints more
  // than a pipe holds (a board model's failed assertions, a line each) would block inside a
  // FUSE request and hang its host. Stop reads the file.
  options.err = Stream::File(emu->dir_ + "/" + kStderrName);
  // SIGKILLed, we run no destructor: the emulator then stops and unmounts itself.
  options.parent_death_signal = SIGTERM;
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
  // Left mounted (the emulator was killed), the removal below would fail too.
  if (!mount_.empty() && IsMountPoint(mount_)) LazyUnmount(mount_);
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

std::vector<std::string> EmulatorProcess::RemoveStale(const std::string& tmp) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(tmp, ec)) {
    const std::string name = entry.path().filename().string();
    struct stat st {};
    if (name.rfind(kDirPrefix, 0) != 0 || ::lstat(entry.path().c_str(), &st) != 0 ||
        !S_ISDIR(st.st_mode) || st.st_uid != ::getuid() || !OwnerIsGone(name)) {
      continue;
    }
    const std::string mount = entry.path().string() + "/mnt";
    if (IsMountPoint(mount)) LazyUnmount(mount);
    if (IsMountPoint(mount)) continue;  // never walk into a mount we could not detach
    std::error_code rm;
    std::filesystem::remove_all(entry.path(), rm);
    if (!rm) removed.push_back(entry.path().string());
  }
  return removed;
}

SubprocessResult EmulatorProcess::Stop(int sig, double timeout_s) {
  if (!stopped_) {
    stopped_ = true;
    ended_ = process_->Stop(sig, timeout_s);
    std::ifstream in(dir_ + "/" + kStderrName, std::ios::binary);
    ended_.err.assign(kStderrLimit, '\0');
    in.read(ended_.err.data(), std::streamsize(kStderrLimit));
    ended_.err.resize(size_t(in.gcount()));
    if (in.gcount() == std::streamsize(kStderrLimit) && in.peek() != EOF) ended_.truncated = true;
  }
  return ended_;
}

}  // namespace otpu::xdma_emu
