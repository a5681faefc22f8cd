#include "lens/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace otpu::lens {
namespace {

Status Errno(const std::string& what, int err) {
  std::string m = what + ": " + std::strerror(err);
  return err == ENOENT ? NotFound(m) : Internal(m);
}

}  // namespace

StatusOr<std::string> ReadWholeFile(const std::string& path) {
  // O_NONBLOCK: a FIFO must not block the open; only regular files are read (a FIFO or
  // /dev/zero never ends).
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Errno(path, errno);
  std::string out;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return DataLoss(path + ": not a regular file");
  }
  out.reserve(size_t(st.st_size));
  char buf[1 << 16];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      ::close(fd);
      return Errno(path + ": read failed", err);
    }
    if (n == 0) break;
    out.append(buf, size_t(n));
  }
  ::close(fd);
  return out;
}

Status WriteFileAtomically(const std::string& path, std::string_view data) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno(tmp, errno);
  Status s;
  while (s.ok() && !data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) s = Errno(tmp + ": write failed", errno);
    else data.remove_prefix(size_t(n));
  }
  if (::close(fd) != 0 && s.ok()) s = Errno(tmp + ": close failed", errno);
  if (s.ok() && ::rename(tmp.c_str(), path.c_str()) != 0) {
    s = Errno(path + ": cannot rename " + tmp + " over it", errno);
  }
  if (!s.ok()) ::unlink(tmp.c_str());
  return s;
}

}  // namespace otpu::lens
