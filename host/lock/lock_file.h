// The files behind the device lock: the shared run directory and one lock file per device,
// opened so that a shared /tmp cannot redirect them (no symlinks, one link, regular files).
#ifndef OTPU_HOST_LOCK_LOCK_FILE_H_
#define OTPU_HOST_LOCK_LOCK_FILE_H_

#include <sys/types.h>

#include <optional>
#include <string>

#include "base/unique_fd.h"
#include "base/status.h"

namespace otpu::host {

// Where lock files live when OTPU_RUN_DIR is not set.
inline constexpr char kDefaultRunDir[] = "/tmp/otpu";

// $OTPU_RUN_DIR when set and not empty, else kDefaultRunDir.
std::string RunDirFromEnv();

// The lock file name of a device prefix: its basename plus ".lock" ("/dev/xdma0" ->
// "xdma0.lock"). InvalidArgument when the prefix has no usable basename.
StatusOr<std::string> LockFileName(const std::string& dev_prefix);

// Opens the run directory, creating it with mode 1777 (shared by several users) when
// missing. Refuses a symlink, a non-directory, and a directory that others could write
// without the sticky bit or that belongs to another user without the sticky bit.
StatusOr<UniqueFd> OpenRunDir(const std::string& run_dir);

// How OpenLockFile opens the file.
enum class LockFileAccess {
  kCreate,    // read-write, created with mode 0666 when missing (the acquirer)
  kReadOnly,  // read-only, must exist (checking somebody else's lock)
};

// Opens lock file `name` inside the run directory `dir_fd` without following a symlink and
// checks it is a regular file with exactly one link. `path` is used in messages only.
StatusOr<UniqueFd> OpenLockFile(int dir_fd, const std::string& name, const std::string& path,
                                LockFileAccess access);

// True while `fd` is still the file named `name` in `dir_fd` (nobody removed or replaced it).
bool IsStillLinked(int dir_fd, const std::string& name, int fd);

// The holder pid written in the lock file; nullopt when empty or unreadable.
std::optional<pid_t> ReadLockPid(int fd);

// Replaces the lock file's content with "<pid>\n".
Status WriteLockPid(int fd, pid_t pid, const std::string& path);

// Empties the lock file so no stale pid remains after release.
Status ClearLockPid(int fd, const std::string& path);

}  // namespace otpu::host

#endif  // OTPU_HOST_LOCK_LOCK_FILE_H_
