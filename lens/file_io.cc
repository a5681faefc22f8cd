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

StatusOr<UniqueFd> OpenRegularFile(const std::string& path) {
  // O_NONBLOCK: a FIFO must not block the open; only regular files are read (a FIFO or
  // /dev/zero never ends).
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (!fd.valid()) return Errno(path, errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return DataLoss(path + ": not a regular file");
  }
  return fd;
}

StatusOr<std::string> ReadWholeFd(int fd, const std::string& path) {
  std::string out;
  struct stat st {};
  if (::fstat(fd, &st) == 0) out.reserve(size_t(st.st_size));
  char buf[1 << 16];
  off_t at = 0;
  while (true) {
    ssize_t n = ::pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Errno(path + ": read failed", errno);
    if (n == 0) break;
    out.append(buf, size_t(n));
    at += n;
  }
  return out;
}

StatusOr<std::string> ReadWholeFile(const std::string& path) {
  ASSIGN_OR_RETURN(UniqueFd fd, OpenRegularFile(path));
  return ReadWholeFd(fd.get(), path);
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
