#include "lens/otpuprof.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "lens/gzip.h"
#include "lens/profile_json.h"

namespace otpu::lens {
namespace {

Status Errno(const std::string& what, int err) {
  std::string m = what + ": " + std::strerror(err);
  return err == ENOENT ? NotFound(m) : Internal(m);
}

Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Errno(path + ": write failed", errno);
    data.remove_prefix(size_t(n));
  }
  return OkStatus();
}

StatusOr<std::string> ReadAll(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Errno(path, errno);
  std::string out;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) out.reserve(size_t(st.st_size));
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

}  // namespace

Status Write(const std::string& path, const ProfileFile& file) {
  StatusOr<std::string> json = ProfileFileToJson(file);
  if (!json.ok()) return json.status().WithContext(path);
  StatusOr<std::string> gz = GzipCompress(*json, kGzipLevel);
  if (!gz.ok()) return gz.status().WithContext(path);
  *json = std::string();  // the JSON text can be large: free it before the write

  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno(tmp, errno);
  Status s = WriteAll(fd, *gz, tmp);
  if (::close(fd) != 0 && s.ok()) s = Errno(tmp + ": close failed", errno);
  if (s.ok() && ::rename(tmp.c_str(), path.c_str()) != 0) {
    s = Errno(path + ": cannot rename " + tmp + " over it", errno);
  }
  if (!s.ok()) ::unlink(tmp.c_str());
  return s;
}

StatusOr<ProfileFile> ReadBytes(std::string bytes, const std::string& name) {
  if (IsGzip(bytes)) {
    StatusOr<std::string> inflated = GzipDecompress(bytes);
    if (!inflated.ok()) return inflated.status().WithContext(name);
    bytes = std::move(inflated).value();
  }
  StatusOr<ProfileFile> file = ProfileFileFromJson(std::move(bytes));
  if (!file.ok()) return file.status().WithContext(name);
  return file;
}

StatusOr<ProfileFile> Read(const std::string& path) {
  ASSIGN_OR_RETURN(std::string bytes, ReadAll(path));
  return ReadBytes(std::move(bytes), path);
}

}  // namespace otpu::lens
