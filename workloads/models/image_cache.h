// The image cache: quantized weight matrices (the 4-bit ones are slow to build for a real
// checkpoint) kept on disk between runs, so `otpu-prebuild` can fill it at nice 19 before a
// card run and the run under the lock only reads it (docs/models.md, "Image cache").
//
// Where: $OTPU_IMAGE_CACHE; unset or empty means $XDG_CACHE_HOME/otpu/images, else
// $HOME/.cache/otpu/images; "0" turns the cache off. Size cap: $OTPU_IMAGE_CACHE_MAX bytes
// (suffixes K, M, G, T, binary), default 8 GiB; least recently used entries go first.
//
// An entry is one file `<32 hex digits>.qimg`, named by a 128-bit hash of the tensor's float
// bytes, its shape, the QuantOptions (format, block, k_tile, align) and the quantizer's
// version. It holds a header (magic, version, shape, options, sizes, CRC-32 of the payload)
// and the payload (the DRAM bytes, then the fp32 scales). It is written to a temporary name
// in the same directory and renamed into place, so readers see a whole entry or none; a hit
// refreshes its mtime, which is the LRU order. A damaged entry (bad magic, header, size or
// checksum) counts as a miss and is rebuilt over.
#ifndef OTPU_WORKLOADS_MODELS_IMAGE_CACHE_H_
#define OTPU_WORKLOADS_MODELS_IMAGE_CACHE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "workloads/kernels/quantize.h"

namespace otpu::models {

// Environment variables of the cache.
inline constexpr char kImageCacheEnv[] = "OTPU_IMAGE_CACHE";
inline constexpr char kImageCacheMaxEnv[] = "OTPU_IMAGE_CACHE_MAX";
// Default size cap: 8 GiB.
inline constexpr uint64_t kDefaultImageCacheMax = uint64_t{8} << 30;

// Where the cache lives and how big it may grow.
struct ImageCacheOptions {
  std::string dir{};  // empty: the cache is off
  uint64_t max_bytes = kDefaultImageCacheMax;
};

// The options the environment selects (see above). InvalidArgument naming the variable for a
// malformed OTPU_IMAGE_CACHE_MAX or when no directory can be derived (no HOME).
StatusOr<ImageCacheOptions> ImageCacheOptionsFromEnv();
// Parses a byte count with an optional K/M/G/T suffix (binary; "8G", "8GiB", "512M").
StatusOr<uint64_t> ParseByteSize(const std::string& text, const std::string& what);

// What the cache did, for reports and tests.
struct ImageCacheStats {
  int hits = 0;
  int misses = 0;        // includes damaged entries
  int damaged = 0;       // entries that failed validation and were rebuilt
  int stored = 0;
  int evicted = 0;       // entries removed by the size cap
  int store_errors = 0;  // entries that could not be written (the result is still returned)
  std::string last_error;
};

// One process's view of the cache directory; not thread-safe (stats are plain counters).
class ImageCache {
 public:
  explicit ImageCache(ImageCacheOptions opts) : opts_(std::move(opts)) {}

  // False when the cache is off: Quantize then quantizes every time.
  bool enabled() const { return !opts_.dir.empty(); }
  const ImageCacheOptions& options() const { return opts_; }
  const ImageCacheStats& stats() const { return stats_; }

  // kernels::Quantize(w, n, k, opts, what), from the cache when it holds a valid entry;
  // otherwise quantized and stored. A failure to store is counted in stats(), not returned:
  // the cache only saves time.
  StatusOr<kernels::QuantizedMatrix> Quantize(const std::vector<float>& w, int n, int k,
                                              const kernels::QuantOptions& opts,
                                              const std::string& what);

  // The entry name (without directory) of a matrix.
  static std::string EntryName(const std::vector<float>& w, int n, int k,
                               const kernels::QuantOptions& opts);
  // Full path of an entry name.
  std::string PathOf(const std::string& entry) const { return opts_.dir + "/" + entry; }
  // Removes least recently used entries until the total size is at most the cap, never
  // `keep` (an entry name, may be empty). Also removes stale temporary files.
  Status Evict(const std::string& keep);

 private:
  Status Store(const std::string& path, const kernels::QuantizedMatrix& q);

  ImageCacheOptions opts_;
  ImageCacheStats stats_;
};

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_IMAGE_CACHE_H_
