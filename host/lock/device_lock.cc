#include "host/lock/device_lock.h"

#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "host/lock/proc_info.h"

namespace otpu::host {
namespace {

using Clock = std::chrono::steady_clock;

// Polling steps while waiting: short at first so a released lock is taken quickly, then
// capped so a long wait costs about ten flock calls a second.
constexpr std::chrono::milliseconds kFirstPause{10};
constexpr std::chrono::milliseconds kMaxPause{100};
// Longest wait honoured (about 30 years); keeps the deadline arithmetic far from overflow.
constexpr double kMaxWaitSeconds = 1e9;
// Re-opens after the lock file was removed or replaced under us before giving up.
constexpr int kMaxReopens = 16;

std::string JoinPath(const std::string& dir, const std::string& name) {
  return !dir.empty() && dir.back() == '/' ? dir + name : dir + "/" + name;
}

std::string FormatSeconds(double seconds) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", seconds);
  return buf;
}

// One line naming the holder (from the pid in the lock file) and how to wait for it.
std::string BusyMessage(const std::string& dev_prefix, const std::string& path, int fd,
                        double wait_seconds) {
  std::optional<pid_t> holder = ReadLockPid(fd);
  std::string who = holder ? "pid " + std::to_string(*holder) + " (" + CommandLine(*holder) + ")"
                           : "a process that has not written its pid yet";
  std::string head = wait_seconds > 0
                         ? dev_prefix + " is still busy after " + FormatSeconds(wait_seconds) + " s"
                         : dev_prefix + " is busy";
  return head + ": held by " + who + " via " + path + "; set " + kLockWaitEnv +
         "=SEC or use otpu-lock --wait SEC to wait for it";
}

// Polls a non-blocking flock until it succeeds or `deadline` passes (then Unavailable).
Status LockBefore(int fd, Clock::time_point deadline, const std::string& dev_prefix,
                  const std::string& path, double wait_seconds) {
  std::chrono::milliseconds pause = kFirstPause;
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) {
      return Internal("cannot flock lock file " + path + ": " + std::strerror(errno));
    }
    Clock::time_point now = Clock::now();
    if (now >= deadline) return Unavailable(BusyMessage(dev_prefix, path, fd, wait_seconds));
    std::this_thread::sleep_for(std::min<Clock::duration>(pause, deadline - now));
    pause = std::min(pause * 2, kMaxPause);
  }
  return OkStatus();
}

}  // namespace

StatusOr<double> ParseWaitSeconds(const std::string& text, const std::string& what) {
  char* end = nullptr;
  double seconds = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(seconds) || seconds < 0) {
    return InvalidArgument(what + " '" + text + "' is not a number of seconds (0 or more)");
  }
  return seconds;
}

StatusOr<double> LockWaitFromEnv() {
  const char* text = std::getenv(kLockWaitEnv);
  if (!text || !*text) return 0.0;
  return ParseWaitSeconds(text, kLockWaitEnv);
}

StatusOr<std::unique_ptr<DeviceLock>> DeviceLock::Acquire(const std::string& dev_prefix,
                                                          double wait_seconds,
                                                          const std::string& run_dir) {
  ASSIGN_OR_RETURN(std::string name, LockFileName(dev_prefix));
  const std::string path = JoinPath(run_dir, name);
  ASSIGN_OR_RETURN(UniqueFd dir, OpenRunDir(run_dir));
  const Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(std::clamp(wait_seconds, 0.0, kMaxWaitSeconds)));
  for (int attempt = 0; attempt < kMaxReopens; ++attempt) {
    ASSIGN_OR_RETURN(UniqueFd fd, OpenLockFile(dir.get(), name, path, LockFileAccess::kCreate));
    RETURN_IF_ERROR(LockBefore(fd.get(), deadline, dev_prefix, path, wait_seconds));
    // A lock on a file somebody unlinked while we waited excludes nobody: lock the new one.
    if (!IsStillLinked(dir.get(), name, fd.get())) continue;
    RETURN_IF_ERROR(WriteLockPid(fd.get(), ::getpid(), path));
    return std::unique_ptr<DeviceLock>(new DeviceLock(dev_prefix, path, std::move(fd), ::getpid()));
  }
  return Internal("lock file " + path + " keeps being replaced while we lock it");
}

StatusOr<std::unique_ptr<DeviceLock>> DeviceLock::ForTool(const std::string& dev_prefix,
                                                          const std::string& run_dir) {
  if (std::unique_ptr<DeviceLock> lock = InheritedLock(dev_prefix, run_dir)) return lock;
  ASSIGN_OR_RETURN(double wait_seconds, LockWaitFromEnv());
  return Acquire(dev_prefix, wait_seconds, run_dir);
}

DeviceLock::~DeviceLock() {
  // Best effort: a stale pid is harmless (checks also need the lock held), so errors are dropped.
  if (fd_.valid()) (void)ClearLockPid(fd_.get(), path_);
  // Closing fd_ (the only descriptor of this open file description) releases the flock.
}

StatusOr<std::optional<pid_t>> CheckInheritedLock(const std::string& dev_prefix,
                                                  const std::string& run_dir) {
  const char* held = std::getenv(kLockHeldEnv);
  if (!held || !*held) return std::optional<pid_t>();
  ASSIGN_OR_RETURN(std::string name, LockFileName(dev_prefix));
  StatusOr<std::string> held_name = LockFileName(held);
  // Devices with the same basename share one lock file, so they count as the same device.
  if (!held_name.ok() || *held_name != name) return std::optional<pid_t>();

  const std::string held_var = std::string(kLockHeldEnv) + "=" + held;
  const char* pid_text = std::getenv(kLockPidEnv);
  if (!pid_text || !*pid_text) {
    return InvalidArgument(held_var + " is set but " + kLockPidEnv + " is not");
  }
  const std::string pid_var = std::string(kLockPidEnv) + "=" + pid_text;
  std::optional<pid_t> pid = ParsePid(pid_text);
  if (!pid) return InvalidArgument(pid_var + " is not a pid");
  if (!IsAncestor(*pid, ::getpid())) {
    return InvalidArgument(pid_var + " is not an ancestor of this process (pid " +
                           std::to_string(::getpid()) + ")");
  }
  const std::string path = JoinPath(run_dir, name);
  ASSIGN_OR_RETURN(UniqueFd dir, OpenRunDir(run_dir));
  ASSIGN_OR_RETURN(UniqueFd fd, OpenLockFile(dir.get(), name, path, LockFileAccess::kReadOnly));
  std::optional<pid_t> in_file = ReadLockPid(fd.get());
  if (in_file != pid) {
    return InvalidArgument("lock file " + path + " names " +
                           (in_file ? "pid " + std::to_string(*in_file) : std::string("no pid")) +
                           ", not " + pid_var);
  }
  // A fresh open file description conflicts with the holder's, even inside one process.
  if (::flock(fd.get(), LOCK_SH | LOCK_NB) == 0) {
    ::flock(fd.get(), LOCK_UN);
    return InvalidArgument("lock file " + path + " is not locked, so " + pid_var +
                           " does not hold it");
  }
  if (errno != EWOULDBLOCK) {
    return Internal("cannot test the lock on " + path + ": " + std::strerror(errno));
  }
  return std::optional<pid_t>(*pid);
}

std::unique_ptr<DeviceLock> InheritedLock(const std::string& dev_prefix, const std::string& run_dir) {
  StatusOr<std::optional<pid_t>> checked = CheckInheritedLock(dev_prefix, run_dir);
  if (!checked.ok()) {
    std::fprintf(stderr, "%s: ignoring %s and %s: %s\n", program_invocation_short_name,
                 kLockHeldEnv, kLockPidEnv, checked.status().message().c_str());
    return nullptr;
  }
  if (!checked->has_value()) return nullptr;
  StatusOr<std::string> name = LockFileName(dev_prefix);
  return std::unique_ptr<DeviceLock>(
      new DeviceLock(dev_prefix, JoinPath(run_dir, *name), UniqueFd(), **checked));
}

}  // namespace otpu::host
