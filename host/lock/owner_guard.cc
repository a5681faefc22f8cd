#include "host/lock/owner_guard.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "host/lock/proc_info.h"

namespace otpu::host {
namespace {

std::string JoinPath(const std::string& dir, const std::string& name) {
  return !dir.empty() && dir.back() == '/' ? dir + name : dir + "/" + name;
}

// The uid a guard name stands for ("xdma0.lock.uid1000" -> 1000), nullopt for other names.
std::optional<uid_t> GuardUid(const std::string& entry, const std::string& prefix) {
  if (entry.rfind(prefix, 0) != 0) return std::nullopt;
  std::optional<pid_t> uid = ParsePid(entry.substr(prefix.size()));
  if (entry.substr(prefix.size()) == "0") return uid_t(0);
  return uid ? std::optional<uid_t>(uid_t(*uid)) : std::nullopt;
}

// Every directory entry of `dir_fd` (read through a duplicate, so `dir_fd` stays usable).
std::vector<std::string> Entries(int dir_fd) {
  std::vector<std::string> names;
  const int dup = ::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dup < 0) return names;
  DIR* dir = ::fdopendir(dup);
  if (!dir) {
    ::close(dup);
    return names;
  }
  while (const dirent* e = ::readdir(dir)) names.push_back(e->d_name);
  ::closedir(dir);
  return names;
}

// Opens a guard without following symlinks or blocking; true when it is a regular file with one
// link owned by `uid` (the only user who, besides root and the directory's owner, can remove it).
bool OpenTrusted(int dir_fd, const std::string& name, uid_t uid, int flags, UniqueFd* fd) {
  fd->Reset(::openat(dir_fd, name.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
                     0644));
  struct stat st;
  return fd->valid() && ::fstat(fd->get(), &st) == 0 && S_ISREG(st.st_mode) &&
         st.st_nlink == 1 && st.st_uid == uid;
}

}  // namespace

std::string GuardName(const std::string& lock_name, uid_t uid) {
  return lock_name + ".uid" + std::to_string(uid);
}

Status TryLockGuards(int dir_fd, const std::string& run_dir, const std::string& lock_name,
                     UniqueFd* guard, std::optional<BusyGuard>* busy) {
  busy->reset();
  const uid_t self = ::geteuid();
  const std::string own = GuardName(lock_name, self);
  const std::string own_path = JoinPath(run_dir, own);
  UniqueFd fd;
  if (!OpenTrusted(dir_fd, own, self, O_RDWR | O_CREAT, &fd)) {
    return DataLoss("guard file " + own_path + " is not a regular file of uid " +
                    std::to_string(self) + " with one link; refusing it (remove it)");
  }
  // 0644 despite the umask: other users must be able to open it to test it.
  if (::fchmod(fd.get(), 0644) != 0) {
    return Internal("cannot chmod 0644 guard file " + own_path + ": " + std::strerror(errno));
  }
  while (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) {
      return Internal("cannot flock guard file " + own_path + ": " + std::strerror(errno));
    }
    *busy = BusyGuard{own_path, std::move(fd)};
    return OkStatus();
  }
  const std::string prefix = lock_name + ".uid";
  for (const std::string& entry : Entries(dir_fd)) {
    std::optional<uid_t> uid = GuardUid(entry, prefix);
    if (!uid || *uid == self) continue;
    UniqueFd other;
    if (!OpenTrusted(dir_fd, entry, *uid, O_RDONLY, &other)) continue;
    // A shared lock only tests: it fails while the guard's user holds it exclusively.
    if (::flock(other.get(), LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
      *busy = BusyGuard{JoinPath(run_dir, entry), std::move(other)};
      return OkStatus();  // our guard is released as `fd` closes
    }
  }
  *guard = std::move(fd);
  return OkStatus();
}

}  // namespace otpu::host
