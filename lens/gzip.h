// Whole-buffer gzip (RFC 1952) with libdeflate: how `.otpuprof` files are compressed.
#ifndef OTPU_LENS_GZIP_H_
#define OTPU_LENS_GZIP_H_

#include <string>
#include <string_view>

#include "base/status.h"

namespace otpu::lens {

// True when `data` starts with the gzip magic bytes 1f 8b.
bool IsGzip(std::string_view data);

// One gzip member holding `data`, compressed at `level` (libdeflate levels 0..12).
StatusOr<std::string> GzipCompress(std::string_view data, int level);

// The inflated contents of every gzip member in `data`, concatenated (as gunzip does).
// DataLoss for corrupt, truncated or trailing non-gzip bytes; the message names the offset.
StatusOr<std::string> GzipDecompress(std::string_view data);

}  // namespace otpu::lens

#endif  // OTPU_LENS_GZIP_H_
