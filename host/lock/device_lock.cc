#include "host/lock/device_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "host/lock/owner_guard.h"
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

// Takes our guard (owner_guard.h) once no other is held, polling like LockBefore; Unavailable
// naming the holder of the busy guard when `deadline` passes.
StatusOr<UniqueFd> LockGuardsBefore(int dir, const std::string& run_dir, const std::string& name,
                                    Clock::time_point deadline, const std::string& dev_prefix,
                                    double wait_seconds) {
  std::chrono::milliseconds pause = kFirstPause;
  for (;;) {
    UniqueFd guard;
    std::optional<BusyGuard> busy;
    RETURN_IF_ERROR(TryLockGuards(dir, run_dir, name, &guard, &busy));
    if (!busy) return guard;
    Clock::time_point now = Clock::now();
    if (now >= deadline) {
      return Unavailable(BusyMessage(dev_prefix, busy->path, busy->fd.get(), wait_seconds) +
                         " (its lock file " + JoinPath(run_dir, name) +
                         " was removed or replaced while held)");
    }
    std::this_thread::sleep_for(std::min<Clock::duration>(pause, deadline - now));
    pause = std::min(pause * 2, kMaxPause);
  }
}

// The descriptor OTPU_LOCK_FDS names for lock file `name`: nullopt when there is none, -1
// when the entry is not a descriptor number.
std::optional<int> FdFromEnv(const std::string& name) {
  const char* text = std::getenv(kLockFdsEnv);
  if (!text) return std::nullopt;
  const std::string all = text;
  size_t start = 0;
  while (start <= all.size()) {
    size_t end = all.find(':', start);
    if (end == std::string::npos) end = all.size();
    const std::string entry = all.substr(start, end - start);
    const size_t eq = entry.rfind('=');
    if (eq != std::string::npos && entry.substr(0, eq) == name) {
      const std::string digits = entry.substr(eq + 1);
      char* stop = nullptr;
      const long fd = std::strtol(digits.c_str(), &stop, 10);
      if (digits.empty() || *stop != '\0' || fd < 0 || fd > 1 << 20) return -1;
      return int(fd);
    }
    start = end + 1;
  }
  return std::nullopt;
}

// Proves that descriptor `fd` is the lock file `name` in `dir` and that the lock is held
// through it: flock on a descriptor whose open file description already holds the lock
// succeeds; on any other, while somebody holds it, it fails (and when nobody did, this
// process holds it now, through that same descriptor).
Status ProveHeld(int fd, int dir, const std::string& name, const std::string& path,
                 const std::string& var) {
  struct stat by_fd, by_name;
  if (::fstat(fd, &by_fd) != 0) return InvalidArgument(var + ": descriptor is not open");
  if (::fstatat(dir, name.c_str(), &by_name, AT_SYMLINK_NOFOLLOW) != 0 ||
      by_fd.st_dev != by_name.st_dev || by_fd.st_ino != by_name.st_ino) {
    return InvalidArgument(var + ": descriptor is not the lock file " + path);
  }
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK) {
      return InvalidArgument(var + ": another process holds the lock on " + path +
                             ", not this descriptor");
    }
    return Internal("cannot test the lock on " + path + ": " + std::strerror(errno));
  }
  return OkStatus();
}

// The proof that survives closed descriptors: `pid` is an ancestor of this process and holds
// the flock on the inode that lock file `name` in `dir` is now, as /proc/locks shows.
Status ProveHeldByAncestor(pid_t pid, int dir, const std::string& name, const std::string& path) {
  const std::string who = std::string(kLockPidEnv) + "=" + std::to_string(pid);
  if (!IsAncestor(pid, ::getpid())) return InvalidArgument(who + " is not an ancestor");
  struct stat st;
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) {
    return InvalidArgument(path + " is not a lock file");
  }
  for (pid_t holder : FlockHolders(st.st_dev, st.st_ino)) {
    if (holder == pid) return OkStatus();
  }
  return InvalidArgument(who + " holds no lock on " + path + " (/proc/locks)");
}

}  // namespace

Status DeviceLock::ShareWithChildren() {
  if (!fd_.valid()) return FailedPrecondition("an inherited lock is already shared");
  if (::fcntl(fd_.get(), F_SETFD, 0) != 0 || (guard_.valid() && ::fcntl(guard_.get(), F_SETFD, 0) != 0)) {
    return Internal("cannot pass the lock on " + path_ + " to children: " + std::strerror(errno));
  }
  std::string name = path_.substr(path_.rfind('/') + 1);
  std::string fds = name + "=" + std::to_string(fd_.get());
  if (const char* old = std::getenv(kLockFdsEnv); old && *old) fds = std::string(old) + ":" + fds;
  ::setenv(kLockFdsEnv, fds.c_str(), 1);
  return OkStatus();
}

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
    // The lock file's owner may remove or replace it while we hold it: our own guard, and no
    // other user's, keeps the card ours regardless.
    ASSIGN_OR_RETURN(UniqueFd guard, LockGuardsBefore(dir.get(), run_dir, name, deadline,
                                                      dev_prefix, wait_seconds));
    RETURN_IF_ERROR(WriteLockPid(fd.get(), ::getpid(), path));
    RETURN_IF_ERROR(WriteLockPid(guard.get(), ::getpid(), path + " guard"));
    auto lock = std::unique_ptr<DeviceLock>(new DeviceLock(dev_prefix, path, std::move(fd), ::getpid()));
    lock->guard_ = std::move(guard);
    return lock;
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
  if (guard_.valid()) (void)ClearLockPid(guard_.get(), path_);
  // Closing fd_ (the only descriptor of this open file description) releases the flock.
}

StatusOr<std::optional<pid_t>> CheckInheritedLock(const std::string& dev_prefix,
                                                  const std::string& run_dir) {
  ASSIGN_OR_RETURN(std::string name, LockFileName(dev_prefix));
  const char* held = std::getenv(kLockHeldEnv);
  StatusOr<std::string> held_name = LockFileName(held ? held : "");
  // Devices with the same basename share one lock file, so they count as the same device.
  const bool held_here = held && *held && held_name.ok() && *held_name == name;
  const std::optional<int> fd = FdFromEnv(name);
  if (!fd && !held_here) return std::optional<pid_t>();

  const std::string held_var = std::string(kLockHeldEnv) + "=" + (held ? held : "");
  const char* pid_text = std::getenv(kLockPidEnv);
  std::optional<pid_t> named;
  if (held_here) {
    if (!pid_text || !*pid_text) {
      return InvalidArgument(held_var + " is set but " + kLockPidEnv + " is not");
    }
    named = ParsePid(pid_text);
    if (!named) return InvalidArgument(std::string(kLockPidEnv) + "=" + pid_text + " is not a pid");
  }
  const std::string path = JoinPath(run_dir, name);
  ASSIGN_OR_RETURN(UniqueFd dir, OpenRunDir(run_dir));
  Status by_fd = OkStatus();
  if (!fd) {
    by_fd = InvalidArgument(held_var + " is set but no inherited descriptor holds " + path +
                            " (" + kLockFdsEnv + " does not name it)");
  } else if (*fd < 0) {
    by_fd = InvalidArgument(std::string(kLockFdsEnv) + ": " + name + " is not a descriptor");
  } else {
    const std::string fd_var = std::string(kLockFdsEnv) + " " + name + "=" + std::to_string(*fd);
    by_fd = ProveHeld(*fd, dir.get(), name, path, fd_var);
    if (by_fd.ok()) {
      if (!named) named = ReadLockPid(*fd);
      return std::optional<pid_t>(named.value_or(0));
    }
  }
  // Python's subprocess (and anything else that closes inherited descriptors) loses the
  // descriptor but not the process tree: the named pid being our ancestor and the holder of
  // the lock on this very file, per the kernel's own table, is a proof nobody can forge.
  if (named) {
    Status by_holder = ProveHeldByAncestor(*named, dir.get(), name, path);
    if (by_holder.ok()) return named;
    if (IsAncestor(*named, ::getpid())) {
      by_fd = InvalidArgument(by_fd.message() + "; and " + by_holder.message());
    }
  }
  return by_fd;
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
