// The device lock (SPEC 9): every tool that touches a card holds it, so runs never overlap.
// An flock on $OTPU_RUN_DIR/<basename of the device>.lock holding the holder's pid; a tool
// started under otpu-lock runs under otpu-lock's lock instead (OTPU_LOCK_HELD/OTPU_LOCK_PID).
#ifndef OTPU_HOST_LOCK_DEVICE_LOCK_H_
#define OTPU_HOST_LOCK_DEVICE_LOCK_H_

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "host/lock/lock_file.h"
#include "base/unique_fd.h"
#include "base/status.h"

namespace otpu::host {

// Environment: the device otpu-lock holds, its pid, and how long tools wait for a busy card.
inline constexpr char kLockHeldEnv[] = "OTPU_LOCK_HELD";
inline constexpr char kLockPidEnv[] = "OTPU_LOCK_PID";
inline constexpr char kLockWaitEnv[] = "OTPU_LOCK_WAIT";
// The proof: "<lock file name>=<fd>" entries joined by ':' ("xdma0.lock=3:xdma1.lock=4"), one
// per lock an ancestor otpu-lock holds and passed down as an open descriptor (like flock(1)):
// the lock stays held while any process of the command lives, even when otpu-lock is killed.
inline constexpr char kLockFdsEnv[] = "OTPU_LOCK_FDS";

// Seconds a tool waits for a busy device: $OTPU_LOCK_WAIT, 0 (do not wait) when unset.
// InvalidArgument naming the variable when it is not a non-negative number.
StatusOr<double> LockWaitFromEnv();

// Parses a wait in seconds ("0", "2.5", "3600"); InvalidArgument naming `what` otherwise.
StatusOr<double> ParseWaitSeconds(const std::string& text, const std::string& what);

// A held device lock. Releasing it (destruction) empties the pid and unlocks; an inherited
// lock belongs to an ancestor otpu-lock and is left alone.
class DeviceLock {
 public:
  // Takes the lock of `dev_prefix` (e.g. /dev/xdma0), waiting up to `wait_seconds` for the
  // holder to let go. Unavailable when still busy: the message names the holder's pid and
  // command line and how to wait. DataLoss for an unsafe run dir or lock file. Also holds our
  // guard file (owner_guard.h), so removing or replacing the lock file lets nobody in.
  static StatusOr<std::unique_ptr<DeviceLock>> Acquire(const std::string& dev_prefix,
                                                       double wait_seconds,
                                                       const std::string& run_dir = RunDirFromEnv());

  // The lock tools take: the inherited one when OTPU_LOCK_HELD/OTPU_LOCK_PID check out
  // (see InheritedLock), else Acquire with the wait from OTPU_LOCK_WAIT.
  static StatusOr<std::unique_ptr<DeviceLock>> ForTool(const std::string& dev_prefix,
                                                       const std::string& run_dir = RunDirFromEnv());

  ~DeviceLock();
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;

  // The device prefix this lock is for.
  const std::string& device() const { return device_; }
  // The lock file's path.
  const std::string& path() const { return path_; }
  // The pid named in the lock file: ours, or the ancestor otpu-lock's when inherited.
  pid_t holder_pid() const { return holder_pid_; }
  // True when an ancestor otpu-lock holds the lock and this object only borrows it.
  bool inherited() const { return !fd_.valid(); }
  // The locked descriptor (-1 when inherited).
  int descriptor() const { return fd_.get(); }
  // Lets child processes inherit the locked descriptor (no close-on-exec) and names it in
  // OTPU_LOCK_FDS, so the lock is held as long as any of them lives. Owned locks only.
  Status ShareWithChildren();

 private:
  friend std::unique_ptr<DeviceLock> InheritedLock(const std::string&, const std::string&);
  DeviceLock(std::string device, std::string path, UniqueFd fd, pid_t holder_pid)
      : device_(std::move(device)), path_(std::move(path)), fd_(std::move(fd)),
        holder_pid_(holder_pid) {}

  std::string device_;
  std::string path_;
  UniqueFd fd_;  // the flocked open file description; empty when inherited
  UniqueFd guard_;  // our flocked guard file (owner_guard.h); empty when inherited
  pid_t holder_pid_;
};

// Checks whether an ancestor otpu-lock passed down the lock of `dev_prefix`: the holder pid
// (OTPU_LOCK_PID, or the pid in the lock file) when OTPU_LOCK_FDS names an inherited
// descriptor of this device's lock file through which the lock is held (proved by flock on
// that descriptor, never by a pid anyone can write into the file). nullopt when
// neither OTPU_LOCK_FDS nor OTPU_LOCK_HELD names the device; an error saying which check
// failed otherwise. Any device on the chain counts, so xdma0 -> xdma1 -> xdma0 never waits
// on its own outer lock.
StatusOr<std::optional<pid_t>> CheckInheritedLock(const std::string& dev_prefix,
                                                  const std::string& run_dir = RunDirFromEnv());

// The lock held by an ancestor otpu-lock, or nullptr. Variables that are set for this device
// but fail CheckInheritedLock are ignored with one warning line on stderr.
std::unique_ptr<DeviceLock> InheritedLock(const std::string& dev_prefix,
                                          const std::string& run_dir = RunDirFromEnv());

}  // namespace otpu::host

#endif  // OTPU_HOST_LOCK_DEVICE_LOCK_H_
