#include "lens/gzip.h"

#include <libdeflate.h>

#include <algorithm>
#include <cstdint>
#include <memory>

namespace otpu::lens {
namespace {

constexpr size_t kMinMemberBytes = 18;  // 10-byte header, empty deflate block, 8-byte trailer
constexpr size_t kMaxRatio = 1032;      // deflate never expands more than this
constexpr size_t kTrustedRatio = 16;    // a larger trailer size is more likely damage than data

struct CompressorDeleter {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};
struct DecompressorDeleter {
  void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};

// The ISIZE trailer: the uncompressed size mod 2^32 of the last member. A hint only.
size_t TrailerSize(std::string_view data) {
  const auto* p = reinterpret_cast<const uint8_t*>(data.data() + data.size() - 4);
  return size_t{p[0]} | size_t{p[1]} << 8 | size_t{p[2]} << 16 | size_t{p[3]} << 24;
}

}  // namespace

bool IsGzip(std::string_view data) {
  return data.size() >= 2 && uint8_t(data[0]) == 0x1f && uint8_t(data[1]) == 0x8b;
}

StatusOr<std::string> GzipCompress(std::string_view data, int level) {
  std::unique_ptr<libdeflate_compressor, CompressorDeleter> c(libdeflate_alloc_compressor(level));
  if (!c)
    return InvalidArgument("gzip: cannot make a compressor at level " + std::to_string(level));
  // Uninitialised on purpose: the bound is about the input's size, the output far smaller,
  // and pages never written are never touched.
  const size_t bound = libdeflate_gzip_compress_bound(c.get(), data.size());
  std::unique_ptr<char[]> buf(new char[bound]);
  size_t n = libdeflate_gzip_compress(c.get(), data.data(), data.size(), buf.get(), bound);
  if (n == 0) return Internal("gzip: compressed data does not fit its bound");
  return std::string(buf.get(), n);
}

StatusOr<std::string> GzipDecompress(std::string_view data) {
  std::unique_ptr<libdeflate_decompressor, DecompressorDeleter> d(libdeflate_alloc_decompressor());
  if (!d) return Internal("gzip: cannot allocate a decompressor");
  std::string out;
  size_t used = 0;  // bytes of `out` holding inflated data
  size_t pos = 0;
  while (pos < data.size()) {
    std::string_view member = data.substr(pos);
    if (!IsGzip(member)) {
      return DataLoss("not gzip data at offset " + std::to_string(pos) + " (expected 1f 8b)");
    }
    if (member.size() < kMinMemberBytes) {
      return DataLoss("truncated gzip data: " + std::to_string(member.size()) +
                      " bytes of a member at offset " + std::to_string(pos));
    }
    // A single-member file says its size in the trailer (a damaged one may say anything, so
    // only plausible sizes are believed); otherwise guess and grow.
    const size_t limit = kMaxRatio * member.size() + 4096;
    size_t room = std::max(4 * member.size(), size_t{4096});
    if (pos == 0 && TrailerSize(data) <= kTrustedRatio * member.size()) {
      room = std::max(TrailerSize(data), size_t{1});
    }
    while (true) {
      out.resize(used + room);
      size_t in_n = 0, out_n = 0;
      libdeflate_result r = libdeflate_gzip_decompress_ex(d.get(), member.data(), member.size(),
                                                          out.data() + used, room, &in_n, &out_n);
      if (r == LIBDEFLATE_SUCCESS) {
        used += out_n;
        pos += in_n;
        break;
      }
      if (r != LIBDEFLATE_INSUFFICIENT_SPACE) {
        return DataLoss("corrupt or truncated gzip data in the member at offset " +
                        std::to_string(pos));
      }
      if (room >= limit) {  // cannot happen with valid data
        return DataLoss("corrupt gzip data in the member at offset " + std::to_string(pos) +
                        " (inflates beyond " + std::to_string(limit) + " bytes)");
      }
      room = std::min(2 * room, limit);
    }
  }
  out.resize(used);
  return out;
}

}  // namespace otpu::lens
