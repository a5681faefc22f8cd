#include "workloads/models/image_cache.h"

#include <fcntl.h>
#include <libdeflate.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "base/strings.h"
#include "workloads/kernels/kernel_util.h"
#include "workloads/models/content_hash.h"

namespace otpu::models {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'O', 'T', 'P', 'U', 'Q', 'I', 'M', 'G'};
constexpr uint32_t kEntryVersion = 1;
constexpr char kSuffix[] = ".qimg";
// A temporary file this old belongs to a writer that died; eviction removes it.
constexpr int64_t kStaleTempSeconds = 3600;

// The fixed-size header in front of every entry (little-endian, as the host is).
struct Header {
  char magic[8];
  uint32_t version;
  uint32_t wf;
  int32_t n, k, block, k_tile, align;
  uint32_t row_stride;
  uint64_t bytes_len;
  uint64_t scales_count;
  uint32_t payload_crc;
  uint32_t header_crc;  // of every byte before it
};
static_assert(sizeof(Header) == 64, "the entry header is 64 bytes");

uint32_t Crc(const void* data, size_t len, uint32_t crc = 0) {
  return libdeflate_crc32(crc, data, len);
}

std::string Errno(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}

// Reads all of `path`; false when it cannot be opened (a miss, not damage).
bool ReadWhole(const std::string& path, std::vector<uint8_t>* out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0;
  out->resize(ok ? size_t(st.st_size) : 0);
  size_t done = 0;
  while (ok && done < out->size()) {
    ssize_t got = ::read(fd, out->data() + done, out->size() - done);
    if (got <= 0) {
      if (got < 0 && errno == EINTR) continue;
      out->resize(done);  // shorter than fstat said: validation reports the size
      break;
    }
    done += size_t(got);
  }
  ::close(fd);
  return ok;
}

Status WriteAll(int fd, const void* data, size_t len, const std::string& path) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  while (len > 0) {
    ssize_t put = ::write(fd, p, len);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return Internal(Errno("image cache: cannot write", path));
    p += put;
    len -= size_t(put);
  }
  return OkStatus();
}

enum class LoadResult { kMissing, kDamaged, kHit };

// Validates the entry at `path` against the matrix it must hold and fills `q`.
LoadResult Load(const std::string& path, int n, int k, const kernels::QuantOptions& opts,
                kernels::QuantizedMatrix* q) {
  std::vector<uint8_t> file;
  if (!ReadWhole(path, &file)) return LoadResult::kMissing;
  if (file.size() < sizeof(Header)) return LoadResult::kDamaged;
  Header h;
  std::memcpy(&h, file.data(), sizeof h);
  if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kEntryVersion ||
      h.header_crc != Crc(&h, offsetof(Header, header_crc)))
    return LoadResult::kDamaged;
  const uint32_t stride =
      uint32_t(kernels::RoundUp(kernels::RowBytes(k, opts.wf), uint64_t(opts.align)));
  if (h.wf != uint32_t(opts.wf) || h.n != n || h.k != k || h.block != opts.block ||
      h.k_tile != opts.k_tile || h.align != opts.align || h.row_stride != stride ||
      h.bytes_len != uint64_t(n) * stride || h.scales_count != uint64_t(n) * (k / opts.block) ||
      file.size() != sizeof(Header) + h.bytes_len + 4 * h.scales_count)
    return LoadResult::kDamaged;
  const uint8_t* payload = file.data() + sizeof(Header);
  if (Crc(payload, file.size() - sizeof(Header)) != h.payload_crc) return LoadResult::kDamaged;
  q->n = n;
  q->k = k;
  q->opts = opts;
  q->row_stride = stride;
  q->bytes.assign(payload, payload + h.bytes_len);
  q->scales.resize(h.scales_count);
  std::memcpy(q->scales.data(), payload + h.bytes_len, 4 * h.scales_count);
  return LoadResult::kHit;
}

// Options with k_tile resolved, as Quantize stores them.
kernels::QuantOptions Resolved(kernels::QuantOptions opts, int k) {
  if (opts.k_tile == 0) opts.k_tile = k;
  return opts;
}

}  // namespace

StatusOr<uint64_t> ParseByteSize(const std::string& text, const std::string& what) {
  auto bad = [&] {
    return InvalidArgument(what + " '" + text + "': expected a byte count such as 8G or 512M");
  };
  size_t i = 0;
  uint64_t v = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (v > (UINT64_MAX - 9) / 10) return bad();
    v = v * 10 + uint64_t(text[i] - '0');
  }
  if (i == 0) return bad();
  std::string unit = text.substr(i);
  int shift = 0;
  if (!unit.empty()) {
    const std::string units = "KMGT";
    size_t u = units.find(char(std::toupper(unsigned(unit[0]))));
    if (u == std::string::npos) return bad();
    shift = 10 * int(u + 1);
    std::string rest = unit.substr(1);
    if (!rest.empty() && rest != "B" && rest != "iB") return bad();
  }
  if (shift > 0 && v > (UINT64_MAX >> shift)) return bad();
  return v << shift;
}

StatusOr<ImageCacheOptions> ImageCacheOptionsFromEnv() {
  ImageCacheOptions opts;
  const char* dir = std::getenv(kImageCacheEnv);
  if (dir && std::string(dir) == "0") {
    opts.dir.clear();
  } else if (dir && *dir) {
    opts.dir = dir;
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    opts.dir = std::string(xdg) + "/otpu/images";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    opts.dir = std::string(home) + "/.cache/otpu/images";
  } else {
    return InvalidArgument(std::string(kImageCacheEnv) +
                           " is unset and so are XDG_CACHE_HOME and HOME: set it to a directory, "
                           "or to 0 to turn the image cache off");
  }
  if (const char* max = std::getenv(kImageCacheMaxEnv); max && *max) {
    ASSIGN_OR_RETURN(opts.max_bytes, ParseByteSize(max, kImageCacheMaxEnv));
  }
  return opts;
}

std::string ImageCache::EntryName(const std::vector<float>& w, int n, int k,
                                  const kernels::QuantOptions& opts) {
  const kernels::QuantOptions o = Resolved(opts, k);
  ContentHasher hasher;
  const int32_t fields[] = {int32_t(kEntryVersion), int32_t(o.wf), n, k, o.block, o.k_tile,
                            o.align};
  hasher.Update(fields, sizeof fields);
  const uint64_t fingerprint = QuantizerFingerprint(o.wf);
  hasher.Update(&fingerprint, sizeof fingerprint);
  hasher.Update(w.data(), w.size() * sizeof(float));
  return hasher.Hex() + kSuffix;
}

StatusOr<kernels::QuantizedMatrix> ImageCache::Quantize(const std::vector<float>& w, int n, int k,
                                                        const kernels::QuantOptions& opts,
                                                        const std::string& what) {
  if (!enabled() || n < 1 || k < 1 || w.size() != size_t(n) * size_t(k))
    return kernels::Quantize(w, n, k, opts, what);  // off, or a shape Quantize reports
  const std::string entry = EntryName(w, n, k, opts);
  const std::string path = PathOf(entry);
  kernels::QuantizedMatrix q;
  switch (Load(path, n, k, Resolved(opts, k), &q)) {
    case LoadResult::kHit:
      ++stats_.hits;
      ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // now: most recently used
      return q;
    case LoadResult::kDamaged:
      ++stats_.damaged;
      break;
    case LoadResult::kMissing:
      break;
  }
  ++stats_.misses;
  ASSIGN_OR_RETURN(q, kernels::Quantize(w, n, k, opts, what));
  Status stored = Store(path, q);
  if (stored.ok()) {
    ++stats_.stored;
    stored = Evict(entry);
  }
  if (!stored.ok()) {
    ++stats_.store_errors;
    stats_.last_error = stored.message();
  }
  return q;
}

Status ImageCache::Store(const std::string& path, const kernels::QuantizedMatrix& q) {
  const uint64_t size = sizeof(Header) + q.bytes.size() + q.ScaleBytes();
  if (size > opts_.max_bytes)
    return Internal(StrFormat("image cache: an entry of %llu bytes exceeds the cap of %llu (%s)",
                              (unsigned long long)size, (unsigned long long)opts_.max_bytes,
                              kImageCacheMaxEnv));
  std::error_code ec;
  fs::create_directories(opts_.dir, ec);
  if (ec) return Internal("image cache: cannot create " + opts_.dir + ": " + ec.message());

  Header h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kEntryVersion;
  h.wf = uint32_t(q.opts.wf);
  h.n = q.n;
  h.k = q.k;
  h.block = q.opts.block;
  h.k_tile = q.opts.k_tile;
  h.align = q.opts.align;
  h.row_stride = q.row_stride;
  h.bytes_len = q.bytes.size();
  h.scales_count = q.scales.size();
  h.payload_crc = Crc(q.scales.data(), q.ScaleBytes(), Crc(q.bytes.data(), q.bytes.size()));
  h.header_crc = Crc(&h, offsetof(Header, header_crc));

  // A unique temporary name in the same directory, renamed over the entry: readers and
  // concurrent writers of the same entry see a whole file or none. No fsync: an entry cut
  // by a crash fails its checksum and is rebuilt.
  static std::atomic<int> counter{0};
  const std::string tmp = StrFormat("%s.tmp.%d.%d", path.c_str(), int(::getpid()), ++counter);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return Internal(Errno("image cache: cannot create", tmp));
  Status st = WriteAll(fd, &h, sizeof h, tmp);
  if (st.ok()) st = WriteAll(fd, q.bytes.data(), q.bytes.size(), tmp);
  if (st.ok()) st = WriteAll(fd, q.scales.data(), q.ScaleBytes(), tmp);
  if (::close(fd) != 0 && st.ok()) st = Internal(Errno("image cache: cannot write", tmp));
  if (st.ok() && ::rename(tmp.c_str(), path.c_str()) != 0)
    st = Internal(Errno("image cache: cannot rename into", path));
  if (!st.ok()) ::unlink(tmp.c_str());
  return st;
}

Status ImageCache::Evict(const std::string& keep) {
  struct Entry {
    std::string path;
    uint64_t bytes;
    struct timespec mtime;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  const int64_t now = int64_t(std::time(nullptr));
  for (fs::directory_iterator it(opts_.dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    struct stat st {};
    if (::stat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (name.find(".tmp.") != std::string::npos) {
      if (now - int64_t(st.st_mtime) > kStaleTempSeconds) ::unlink(it->path().c_str());
      continue;
    }
    if (name.size() <= sizeof kSuffix - 1 ||
        name.compare(name.size() - (sizeof kSuffix - 1), std::string::npos, kSuffix) != 0)
      continue;
    total += uint64_t(st.st_size);
    if (name != keep) entries.push_back({it->path().string(), uint64_t(st.st_size), st.st_mtim});
  }
  if (ec) return Internal("image cache: cannot list " + opts_.dir + ": " + ec.message());
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.mtime.tv_sec != b.mtime.tv_sec) return a.mtime.tv_sec < b.mtime.tv_sec;
    if (a.mtime.tv_nsec != b.mtime.tv_nsec) return a.mtime.tv_nsec < b.mtime.tv_nsec;
    return a.path < b.path;
  });
  for (const Entry& e : entries) {
    if (total <= opts_.max_bytes) break;
    // Another process may have removed it already: either way it no longer counts.
    if (::unlink(e.path.c_str()) == 0) ++stats_.evicted;
    total -= e.bytes;
  }
  return OkStatus();
}

}  // namespace otpu::models
