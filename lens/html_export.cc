#include "lens/html_export.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "lens/app/page.h"
#include "lens/gzip.h"
#include "lens/otpuprof.h"

namespace otpu::lens {
namespace {

constexpr std::string_view kDataTag = "<script id=\"lens-data\"";

Status Errno(const std::string& what, int err) {
  std::string m = what + ": " + std::strerror(err);
  return err == ENOENT ? NotFound(m) : Internal(m);
}

std::string HtmlAttribute(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string Base64Encode(std::string_view data) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    uint32_t v = uint32_t(uint8_t(data[i])) << 16 | uint32_t(uint8_t(data[i + 1])) << 8 |
                 uint8_t(data[i + 2]);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (size_t rest = data.size() - i; rest > 0) {
    uint32_t v = uint32_t(uint8_t(data[i])) << 16;
    if (rest == 2) v |= uint32_t(uint8_t(data[i + 1])) << 8;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

StatusOr<std::string> EmbedProfile(std::string_view page, std::string_view gzip_bytes,
                                   std::string_view name) {
  size_t at = page.find(kPageDataMarker);
  if (at == std::string_view::npos || page.find(kPageDataMarker, at + 1) != std::string_view::npos) {
    return InvalidArgument("the app page must hold the data marker " +
                           std::string(kPageDataMarker) + " exactly once");
  }
  size_t tag = page.rfind(kDataTag, at);
  if (tag == std::string_view::npos) {
    return InvalidArgument("the app page's data marker is not inside its lens-data element");
  }
  std::string out;
  out.reserve(page.size() + gzip_bytes.size() * 4 / 3 + 256);
  size_t after_tag = tag + std::string_view("<script").size();
  out.append(page.substr(0, after_tag));
  out += " data-name=\"" + HtmlAttribute(name) + "\"";
  out.append(page.substr(after_tag, at - after_tag));
  out += Base64Encode(gzip_bytes);
  out.append(page.substr(at + kPageDataMarker.size()));
  return out;
}

StatusOr<std::string> ReadWholeFile(const std::string& path) {
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

StatusOr<HtmlExportInfo> ExportHtml(const std::string& path, const std::string& out) {
  ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(path));
  // The same checks as every reader, so a bad file fails here with the reader's message rather
  // than in someone's browser later.
  ASSIGN_OR_RETURN(ProfileFile file, ReadBytes(bytes, path));
  if (!IsGzip(bytes)) {
    ASSIGN_OR_RETURN(bytes, GzipCompress(bytes, kGzipLevel));
  }
  const std::string name = std::filesystem::path(path).filename().string();
  ASSIGN_OR_RETURN(std::string page, EmbedProfile(AppPage(), bytes, name));
  RETURN_IF_ERROR(WriteFileAtomically(out, page));
  return HtmlExportInfo{int64_t(page.size()), int64_t(bytes.size()), int(file.profiles.size())};
}

}  // namespace otpu::lens
