#include "host/lock/lock_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "host/lock/proc_info.h"

namespace otpu::host {
namespace {

std::string Errno() { return std::strerror(errno); }

std::string Octal(mode_t mode) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%04o", static_cast<unsigned>(mode & 07777));
  return buf;
}

bool IsSymlink(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// Creates the run directory when it is missing; an existing one is left as it is.
Status CreateRunDirIfMissing(const std::string& run_dir, bool* created) {
  *created = false;
  struct stat st;
  if (::lstat(run_dir.c_str(), &st) == 0) return OkStatus();
  if (errno != ENOENT) return Internal("run dir " + run_dir + ": " + Errno());
  if (::mkdir(run_dir.c_str(), 01777) == 0) {
    *created = true;
  } else if (errno != EEXIST) {  // EEXIST: another process created it first
    return Internal("cannot create run dir " + run_dir + ": " + Errno() +
                    " (set OTPU_RUN_DIR to a writable directory)");
  }
  return OkStatus();
}

// Owner and mode rules for a directory several users share (see OpenRunDir).
Status CheckRunDirStat(const std::string& run_dir, const struct stat& st) {
  const bool sticky = st.st_mode & S_ISVTX;
  if (st.st_uid != ::geteuid() && st.st_uid != 0 && !sticky) {
    return DataLoss("run dir " + run_dir + " belongs to uid " + std::to_string(st.st_uid) +
                    " and is not sticky; refusing it (set OTPU_RUN_DIR to a directory of yours)");
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !sticky) {
    return DataLoss("run dir " + run_dir + " is writable by others but not sticky (mode " +
                    Octal(st.st_mode) + "); refusing it (chmod 1777 it or set OTPU_RUN_DIR)");
  }
  return OkStatus();
}

}  // namespace

std::string RunDirFromEnv() {
  const char* dir = std::getenv("OTPU_RUN_DIR");
  return dir && *dir ? dir : kDefaultRunDir;
}

StatusOr<std::string> LockFileName(const std::string& dev_prefix) {
  std::string path = dev_prefix;
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  size_t slash = path.rfind('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.empty() || base == "." || base == "..") {
    return InvalidArgument("device prefix '" + dev_prefix + "' has no name to lock");
  }
  return base + ".lock";
}

StatusOr<UniqueFd> OpenRunDir(const std::string& run_dir) {
  bool created = false;
  RETURN_IF_ERROR(CreateRunDirIfMissing(run_dir, &created));
  UniqueFd dir(::open(run_dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!dir.valid()) {
    if (IsSymlink(run_dir)) {
      return DataLoss("run dir " + run_dir +
                      " is a symlink; refusing to follow it (remove it or set OTPU_RUN_DIR)");
    }
    if (errno == ENOTDIR) return DataLoss("run dir " + run_dir + " is not a directory");
    return Internal("cannot open run dir " + run_dir + ": " + Errno());
  }
  // The umask trimmed mkdir's mode; set it on the descriptor so no path race can redirect it.
  if (created && ::fchmod(dir.get(), 01777) != 0) {
    return Internal("cannot chmod 1777 run dir " + run_dir + ": " + Errno());
  }
  struct stat st;
  if (::fstat(dir.get(), &st) != 0) return Internal("run dir " + run_dir + ": " + Errno());
  RETURN_IF_ERROR(CheckRunDirStat(run_dir, st));
  return dir;
}

StatusOr<UniqueFd> OpenLockFile(int dir_fd, const std::string& name, const std::string& path,
                                LockFileAccess access) {
  // O_NONBLOCK: a FIFO or device planted under the lock name must not hang or wake anything.
  const int flags = O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
  const bool create = access == LockFileAccess::kCreate;
  UniqueFd fd;
  // Open first without O_CREAT: with fs.protected_regular, O_CREAT on another user's file in
  // a sticky directory fails even though the file exists.
  for (int attempt = 0; attempt < 8 && !fd.valid(); ++attempt) {
    fd.Reset(::openat(dir_fd, name.c_str(), (create ? O_RDWR : O_RDONLY) | flags));
    if (fd.valid()) break;
    if (errno == ENOENT && create) {
      fd.Reset(::openat(dir_fd, name.c_str(), O_RDWR | O_CREAT | O_EXCL | flags, 0666));
      // Mode 0666 despite the umask: every user of the card writes its pid here.
      if (fd.valid() && ::fchmod(fd.get(), 0666) != 0) {
        return Internal("cannot chmod 0666 lock file " + path + ": " + Errno());
      }
      if (fd.valid() || errno == EEXIST) continue;
    }
    if (errno == ELOOP) {
      return DataLoss("lock file " + path + " is a symlink; refusing to follow it (remove it)");
    }
    if (errno == ENOENT) return NotFound("lock file " + path + " does not exist");
    if (errno == EACCES) {
      return Internal("cannot open lock file " + path + " for " +
                      (create ? "writing" : "reading") + " as uid " +
                      std::to_string(::geteuid()) + ": " + Errno() +
                      " (its owner can chmod 0666 it, or set OTPU_RUN_DIR)");
    }
    return Internal("cannot open lock file " + path + ": " + Errno());
  }
  if (!fd.valid()) return Internal("lock file " + path + " keeps disappearing while opened");
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return Internal("lock file " + path + ": " + Errno());
  if (!S_ISREG(st.st_mode)) {
    return DataLoss("lock file " + path + " is not a regular file; refusing it (remove it)");
  }
  if (st.st_nlink != 1) {
    return DataLoss("lock file " + path + " has " + std::to_string(st.st_nlink) +
                    " links; refusing it (a hard link may stand for another file; remove it)");
  }
  return fd;
}

bool IsStillLinked(int dir_fd, const std::string& name, int fd) {
  struct stat by_name, by_fd;
  if (::fstatat(dir_fd, name.c_str(), &by_name, AT_SYMLINK_NOFOLLOW) != 0) return false;
  if (::fstat(fd, &by_fd) != 0) return false;
  return by_name.st_dev == by_fd.st_dev && by_name.st_ino == by_fd.st_ino;
}

std::optional<pid_t> ReadLockPid(int fd) {
  char buf[32];
  ssize_t n = ::pread(fd, buf, sizeof(buf) - 1, 0);
  if (n <= 0) return std::nullopt;
  std::string text(buf, static_cast<size_t>(n));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return ParsePid(text);
}

Status WriteLockPid(int fd, pid_t pid, const std::string& path) {
  std::string text = std::to_string(pid) + "\n";
  if (::ftruncate(fd, 0) != 0) return Internal("cannot truncate lock file " + path + ": " + Errno());
  ssize_t n = ::pwrite(fd, text.data(), text.size(), 0);
  if (n != static_cast<ssize_t>(text.size())) {
    return Internal("cannot write pid to lock file " + path + ": " +
                    (n < 0 ? Errno() : std::string("short write")));
  }
  return OkStatus();
}

Status ClearLockPid(int fd, const std::string& path) {
  if (::ftruncate(fd, 0) != 0) return Internal("cannot truncate lock file " + path + ": " + Errno());
  return OkStatus();
}

}  // namespace otpu::host
