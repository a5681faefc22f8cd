#include "lens/html_export.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "lens/app/page.h"
#include "lens/file_io.h"
#include "lens/gzip.h"
#include "lens/otpuprof.h"

namespace otpu::lens {
namespace {

constexpr std::string_view kDataTag = "<script id=\"lens-data\"";
constexpr std::string_view kBaselineTag = "<script id=\"lens-baseline\"";

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

namespace {

// Puts base64 of `gzip_bytes` at `marker` inside the element opened by `tag`, with `name` as
// its data-name.
StatusOr<std::string> Embed(std::string_view page, std::string_view marker, std::string_view tag,
                            std::string_view gzip_bytes, std::string_view name) {
  size_t at = page.find(marker);
  if (at == std::string_view::npos || page.find(marker, at + 1) != std::string_view::npos) {
    return InvalidArgument("the app page must hold the data marker " + std::string(marker) +
                           " exactly once");
  }
  size_t open = page.rfind(tag, at);
  if (open == std::string_view::npos) {
    return InvalidArgument("the app page's data marker " + std::string(marker) +
                           " is not inside its " + std::string(tag.substr(12)) + " element");
  }
  std::string out;
  out.reserve(page.size() + gzip_bytes.size() * 4 / 3 + 256);
  size_t after_tag = open + std::string_view("<script").size();
  out.append(page.substr(0, after_tag));
  out += " data-name=\"" + HtmlAttribute(name) + "\"";
  out.append(page.substr(after_tag, at - after_tag));
  out += Base64Encode(gzip_bytes);
  out.append(page.substr(at + marker.size()));
  return out;
}

}  // namespace

StatusOr<std::string> EmbedProfile(std::string_view page, std::string_view gzip_bytes,
                                   std::string_view name) {
  return Embed(page, kPageDataMarker, kDataTag, gzip_bytes, name);
}

StatusOr<std::string> EmbedBaseline(std::string_view page, std::string_view gzip_bytes,
                                    std::string_view name) {
  return Embed(page, kPageBaselineMarker, kBaselineTag, gzip_bytes, name);
}

StatusOr<std::string> ReadCheckedGzip(const std::string& path, int* profiles) {
  ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(path));
  // The same checks as every reader, so a bad file fails here with the reader's message rather
  // than in someone's browser later.
  ASSIGN_OR_RETURN(ProfileFile file, ReadBytes(bytes, path));
  if (profiles) *profiles = int(file.profiles.size());
  if (!IsGzip(bytes)) {
    ASSIGN_OR_RETURN(bytes, GzipCompress(bytes, kGzipLevel));
  }
  return bytes;
}

StatusOr<HtmlExportInfo> ExportHtml(const std::string& path, const std::string& out,
                                    const std::string& baseline) {
  int profiles = 0;
  ASSIGN_OR_RETURN(std::string bytes, ReadCheckedGzip(path, &profiles));
  const std::string name = std::filesystem::path(path).filename().string();
  ASSIGN_OR_RETURN(std::string page, EmbedProfile(AppPage(), bytes, name));
  if (!baseline.empty()) {
    ASSIGN_OR_RETURN(std::string base, ReadCheckedGzip(baseline, nullptr));
    ASSIGN_OR_RETURN(page, EmbedBaseline(page, base,
                                         std::filesystem::path(baseline).filename().string()));
  }
  RETURN_IF_ERROR(WriteFileAtomically(out, page));
  return HtmlExportInfo{int64_t(page.size()), int64_t(bytes.size()), profiles};
}

}  // namespace otpu::lens
