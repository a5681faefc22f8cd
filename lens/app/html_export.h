// `lens html`: one standalone page, the Lens app with a profile embedded (docs/lens-app.md).
#ifndef OTPU_LENS_APP_HTML_EXPORT_H_
#define OTPU_LENS_APP_HTML_EXPORT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "lens/profile.h"
#include "base/status.h"

namespace otpu::lens {

// Base64 (RFC 4648, standard alphabet, padded) of `data`.
std::string Base64Encode(std::string_view data);

// `page` with `gzip_bytes` put, as base64, into its lens-data element (replacing
// kPageDataMarker) and `name` as the element's data-name. No check of the bytes: the page itself
// reports a bad profile. InvalidArgument when `page` does not hold the marker exactly once.
StatusOr<std::string> EmbedProfile(std::string_view page, std::string_view gzip_bytes,
                                   std::string_view name);

// `page` with `gzip_bytes` put, as base64, into its lens-baseline element (replacing
// kPageBaselineMarker) and `name` as its data-name: the baseline of the compare view. The same
// rules as EmbedProfile.
StatusOr<std::string> EmbedBaseline(std::string_view page, std::string_view gzip_bytes,
                                    std::string_view name);

// Reads the profile file at `path` and checks it as every reader does (DataLoss naming the file,
// NotFound / Internal for I/O); returns its gzip bytes (plain JSON is compressed) and, when
// `file` is not null, the profiles read.
StatusOr<std::string> ReadCheckedGzip(const std::string& path, ProfileFile* file);

// JSON {"PATH": "text", ...} of the kernel source files the profiles' `sources` name, found in
// the checkout: as written, under $OTPU_SOURCE_DIR, or under the current directory or one of its
// parents (with a leading "../" dropped); files not found, or over 1 MB, are left out. Every '<'
// is written as \u003c so the text is safe inside a script element.
std::string SourceFilesJson(const ProfileFile& file);

// `page` with `json` (SourceFilesJson) in its lens-code element, replacing kPageCodeMarker.
StatusOr<std::string> EmbedCode(std::string_view page, std::string_view json);

// What ExportHtml wrote.
struct HtmlExportInfo {
  int64_t page_bytes = 0;     // size of the written page
  int64_t profile_bytes = 0;  // gzip bytes embedded
  int profiles = 0;           // profiles in the file
};

// Reads the profile file at `path` (gzip or plain JSON), checks it as every reader does
// (DataLoss naming the file and what is wrong, NotFound / Internal for I/O), and writes the app
// page with it embedded to `out`: to `out.tmp.<pid>` first, renamed over `out` when complete.
// With a `baseline` path, that file is checked too and embedded as the compare view's baseline.
StatusOr<HtmlExportInfo> ExportHtml(const std::string& path, const std::string& out,
                                    const std::string& baseline = "");

}  // namespace otpu::lens

#endif  // OTPU_LENS_APP_HTML_EXPORT_H_
