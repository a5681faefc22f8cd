#include "host/programs/regress/out_dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace otpu::regress {

StatusOr<OutDirLock> OutDirLock::Acquire(const std::string& dir, const std::string& holder) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Internal(dir + ": " + ec.message());
  const std::string path = dir + "/" + kOutDirLockName;
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (fd.get() < 0) return Internal(path + ": " + std::strerror(errno));
  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) return Internal(path + ": flock: " + std::strerror(errno));
    char buf[128] = {};
    const ssize_t n = ::pread(fd.get(), buf, sizeof buf - 1, 0);
    std::string who = n > 0 ? std::string(buf, size_t(n)) : "another process";
    while (!who.empty() && (who.back() == '\n' || who.back() == ' ')) who.pop_back();
    return Unavailable(dir + " is in use by " + who +
                       ": one run per out dir; wait for it or give another --out");
  }
  const std::string text = holder + " (pid " + std::to_string(::getpid()) + ")\n";
  if (::ftruncate(fd.get(), 0) != 0 || ::pwrite(fd.get(), text.data(), text.size(), 0) < 0) {
    return Internal(path + ": " + std::strerror(errno));
  }
  return OutDirLock(std::move(fd));
}

}  // namespace otpu::regress
