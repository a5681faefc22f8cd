#include "lens/app/html_export.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "lens/app/page.h"
#include "lens/file_io.h"
#include "lens/gzip.h"
#include "lens/otpuprof.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

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

StatusOr<std::string> ReadCheckedGzip(const std::string& path, ProfileFile* out) {
  ASSIGN_OR_RETURN(std::string bytes, ReadWholeFile(path));
  // The same checks as every reader, so a bad file fails here with the reader's message rather
  // than in someone's browser later.
  ASSIGN_OR_RETURN(ProfileFile file, ReadBytes(bytes, path));
  if (out) *out = std::move(file);
  if (!IsGzip(bytes)) {
    ASSIGN_OR_RETURN(bytes, GzipCompress(bytes, kGzipLevel));
  }
  return bytes;
}

std::string SourceFilesJson(const ProfileFile& file) {
  namespace fs = std::filesystem;
  std::set<std::string> names;
  for (const Profile& p : file.profiles)
    for (const Source& s : p.sources) names.insert(s.file);
  std::vector<fs::path> roots;
  if (const char* dir = std::getenv("OTPU_SOURCE_DIR"); dir && *dir) roots.push_back(dir);
  std::error_code ec;
  for (fs::path d = fs::current_path(ec); !ec && !d.empty(); d = d.parent_path()) {
    roots.push_back(d);
    if (d == d.parent_path() || roots.size() > 6) break;
  }
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.StartObject();
  for (const std::string& name : names) {
    std::string rel = name;
    while (rel.compare(0, 3, "../") == 0) rel = rel.substr(3);
    std::vector<fs::path> tries = {name};
    for (const fs::path& r : roots) tries.push_back(r / rel);
    for (const fs::path& t : tries) {
      if (!fs::is_regular_file(t, ec) || fs::file_size(t, ec) > (1u << 20)) continue;
      StatusOr<std::string> text = ReadWholeFile(t.string());
      if (!text.ok()) continue;
      w.Key(name.c_str());
      w.String(text->c_str(), rapidjson::SizeType(text->size()));
      break;
    }
  }
  w.EndObject();
  std::string out;
  for (const char* c = buf.GetString(); *c; ++c) {
    if (*c == '<') out += "\\u003c"; else out += *c;
  }
  return out;
}

StatusOr<std::string> EmbedCode(std::string_view page, std::string_view json) {
  size_t at = page.find(kPageCodeMarker);
  if (at == std::string_view::npos || page.find(kPageCodeMarker, at + 1) != std::string_view::npos) {
    return InvalidArgument("the app page must hold the code marker " + std::string(kPageCodeMarker) +
                           " exactly once");
  }
  std::string out(page.substr(0, at));
  out += json;
  out.append(page.substr(at + kPageCodeMarker.size()));
  return out;
}

StatusOr<HtmlExportInfo> ExportHtml(const std::string& path, const std::string& out,
                                    const std::string& baseline) {
  ProfileFile file;
  ASSIGN_OR_RETURN(std::string bytes, ReadCheckedGzip(path, &file));
  const int profiles = int(file.profiles.size());
  const std::string name = std::filesystem::path(path).filename().string();
  ASSIGN_OR_RETURN(std::string page, EmbedProfile(AppPage(), bytes, name));
  ASSIGN_OR_RETURN(page, EmbedCode(page, SourceFilesJson(file)));
  if (!baseline.empty()) {
    ASSIGN_OR_RETURN(std::string base, ReadCheckedGzip(baseline, nullptr));
    ASSIGN_OR_RETURN(page, EmbedBaseline(page, base,
                                         std::filesystem::path(baseline).filename().string()));
  }
  RETURN_IF_ERROR(WriteFileAtomically(out, page));
  return HtmlExportInfo{int64_t(page.size()), int64_t(bytes.size()), profiles};
}

}  // namespace otpu::lens
