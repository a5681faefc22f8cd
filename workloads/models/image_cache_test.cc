#include "workloads/models/image_cache.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "workloads/models/content_hash.h"
#include "workloads/models/io_test_util.h"

namespace otpu::models {
namespace {

namespace fs = std::filesystem;

const kernels::QuantOptions kFp4{.wf = isa::WFormat::kFP4, .block = 32, .align = 32};

std::vector<float> Matrix(uint32_t seed, int n = 16, int k = 64) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> w(size_t(n) * k);
  for (float& x : w) x = dist(rng);
  return w;
}

bool SameMatrix(const kernels::QuantizedMatrix& a, const kernels::QuantizedMatrix& b) {
  return a.n == b.n && a.k == b.k && a.row_stride == b.row_stride && a.bytes == b.bytes &&
         a.scales == b.scales && a.opts.wf == b.opts.wf && a.opts.k_tile == b.opts.k_tile;
}

// Sets an entry's mtime `age` seconds into the past (the LRU order).
void Age(const std::string& path, int age) {
  struct timespec t[2];
  clock_gettime(CLOCK_REALTIME, &t[0]);
  t[0].tv_sec -= age;
  t[1] = t[0];
  ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), t, 0), 0) << path;
}

// `s` with one bit of byte `at` flipped.
std::string Flip(std::string s, size_t at) {
  return s.replace(at, 1, 1, char(s.at(at) ^ 0x10));
}

int Entries(const std::string& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".qimg";
  return n;
}

// Sets or unsets an environment variable for one test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) {
      old_ = old;
      had_ = true;
    }
    Set(name, value);
  }
  ~ScopedEnv() { Set(name_.c_str(), had_ ? old_.c_str() : nullptr); }

 private:
  static void Set(const char* name, const char* value) {
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }

  std::string name_, old_;
  bool had_ = false;
};

class ImageCacheTest : public ::testing::Test {
 protected:
  ImageCache Cache(uint64_t max = kDefaultImageCacheMax) {
    return ImageCache({.dir = dir_.File("images"), .max_bytes = max});
  }
  ScratchDir dir_;
};

TEST_F(ImageCacheTest, MissStoresThenHitReadsTheSameMatrix) {
  const std::vector<float> w = Matrix(1);
  ImageCache cache = Cache();
  StatusOr<kernels::QuantizedMatrix> first = cache.Quantize(w, 16, 64, kFp4, "w");
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(cache.stats().misses, 1);
  EXPECT_EQ(cache.stats().stored, 1);
  EXPECT_TRUE(fs::exists(cache.PathOf(ImageCache::EntryName(w, 16, 64, kFp4))));

  ImageCache again = Cache();  // a later process
  StatusOr<kernels::QuantizedMatrix> second = again.Quantize(w, 16, 64, kFp4, "w");
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_EQ(again.stats().hits, 1);
  EXPECT_EQ(again.stats().misses, 0);
  EXPECT_TRUE(SameMatrix(*first, *second));
  StatusOr<kernels::QuantizedMatrix> fresh = kernels::Quantize(w, 16, 64, kFp4, "w");
  EXPECT_TRUE(SameMatrix(*second, *fresh));
}

TEST_F(ImageCacheTest, ContentFormatAndConfigurationEachChangeTheEntry) {
  std::vector<float> w = Matrix(2);
  const std::string base = ImageCache::EntryName(w, 16, 64, kFp4);
  EXPECT_EQ(base.size(), 32u + 5u);  // 128-bit hex + ".qimg"
  kernels::QuantOptions int4 = kFp4;
  int4.wf = isa::WFormat::kINT4;
  kernels::QuantOptions board = kFp4;
  board.block = board.align = 64;
  kernels::QuantOptions tiled = kFp4;
  tiled.k_tile = 32;
  EXPECT_NE(ImageCache::EntryName(w, 16, 64, int4), base);
  EXPECT_NE(ImageCache::EntryName(w, 16, 64, board), base);
  EXPECT_NE(ImageCache::EntryName(w, 16, 64, tiled), base);
  EXPECT_NE(ImageCache::EntryName(w, 32, 32, kFp4), base);
  w[517] = std::nextafter(w[517], 10.0f);
  EXPECT_NE(ImageCache::EntryName(w, 16, 64, kFp4), base);
  // k_tile 0 means k: the same entry.
  kernels::QuantOptions whole = kFp4;
  whole.k_tile = 64;
  w[517] = Matrix(2)[517];
  EXPECT_EQ(ImageCache::EntryName(w, 16, 64, whole), base);
}

TEST_F(ImageCacheTest, LeastRecentlyUsedEntriesAreEvictedOverTheCap) {
  const std::vector<float> a = Matrix(10), b = Matrix(11), c = Matrix(12);
  ImageCache probe = Cache();
  ASSERT_TRUE(probe.Quantize(a, 16, 64, kFp4, "a").ok());
  const uint64_t entry = fs::file_size(probe.PathOf(ImageCache::EntryName(a, 16, 64, kFp4)));

  ImageCache cache = Cache(2 * entry + entry / 2);  // room for two entries
  ASSERT_TRUE(cache.Quantize(b, 16, 64, kFp4, "b").ok());
  Age(cache.PathOf(ImageCache::EntryName(a, 16, 64, kFp4)), 200);
  Age(cache.PathOf(ImageCache::EntryName(b, 16, 64, kFp4)), 100);
  ASSERT_TRUE(cache.Quantize(a, 16, 64, kFp4, "a").ok());  // a hit: a is now the newest
  EXPECT_EQ(cache.stats().hits, 1);
  ASSERT_TRUE(cache.Quantize(c, 16, 64, kFp4, "c").ok());  // over the cap: b goes
  EXPECT_EQ(cache.stats().evicted, 1);
  EXPECT_TRUE(fs::exists(cache.PathOf(ImageCache::EntryName(a, 16, 64, kFp4))));
  EXPECT_FALSE(fs::exists(cache.PathOf(ImageCache::EntryName(b, 16, 64, kFp4))));
  EXPECT_TRUE(fs::exists(cache.PathOf(ImageCache::EntryName(c, 16, 64, kFp4))));
  EXPECT_EQ(Entries(cache.options().dir), 2);
}

TEST_F(ImageCacheTest, EntryLargerThanTheCapIsNotStored) {
  ImageCache cache = Cache(100);
  StatusOr<kernels::QuantizedMatrix> q = cache.Quantize(Matrix(3), 16, 64, kFp4, "w");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(cache.stats().store_errors, 1);
  EXPECT_NE(cache.stats().last_error.find("exceeds the cap of 100 (OTPU_IMAGE_CACHE_MAX)"),
            std::string::npos)
      << cache.stats().last_error;
  EXPECT_FALSE(fs::exists(cache.options().dir) && Entries(cache.options().dir) > 0);
}

// Each kind of damage: the entry counts as a miss, is rebuilt, and then hits.
TEST_F(ImageCacheTest, DamagedEntriesAreRebuilt) {
  const std::vector<float> w = Matrix(4);
  const StatusOr<kernels::QuantizedMatrix> fresh = kernels::Quantize(w, 16, 64, kFp4, "w");
  struct Damage {
    const char* what;
    std::function<std::string(std::string)> apply;
  };
  const Damage damages[] = {
      {"truncated", [](std::string s) { return s.substr(0, s.size() - 7); }},
      {"payload byte flipped", [](std::string s) { return Flip(std::move(s), 100); }},
      {"bad magic", [](std::string s) { return "X" + s.substr(1); }},
      {"header field changed", [](std::string s) { return Flip(std::move(s), 16); }},
      {"trailing garbage", [](std::string s) { return s + "junk"; }},
      {"empty", [](std::string) { return std::string(); }},
  };
  for (const Damage& d : damages) {
    ImageCache cache = Cache();
    ASSERT_TRUE(cache.Quantize(w, 16, 64, kFp4, "w").ok());
    const std::string path = cache.PathOf(ImageCache::EntryName(w, 16, 64, kFp4));
    WriteRaw(path, d.apply(ReadRaw(path)));

    ImageCache reader = Cache();
    StatusOr<kernels::QuantizedMatrix> q = reader.Quantize(w, 16, 64, kFp4, "w");
    ASSERT_TRUE(q.ok()) << d.what;
    EXPECT_TRUE(SameMatrix(*q, *fresh)) << d.what;
    EXPECT_EQ(reader.stats().damaged, 1) << d.what;
    EXPECT_EQ(reader.stats().stored, 1) << d.what;
    ASSERT_TRUE(reader.Quantize(w, 16, 64, kFp4, "w").ok());
    EXPECT_EQ(reader.stats().hits, 1) << d.what << ": the rebuilt entry is whole";
  }
}

TEST_F(ImageCacheTest, OffQuantizesWithoutTouchingTheDisk) {
  ImageCache cache({.dir = "", .max_bytes = kDefaultImageCacheMax});
  EXPECT_FALSE(cache.enabled());
  StatusOr<kernels::QuantizedMatrix> q = cache.Quantize(Matrix(5), 16, 64, kFp4, "w");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(cache.stats().misses + cache.stats().hits + cache.stats().stored, 0);
}

TEST_F(ImageCacheTest, UnwritableDirectoryIsCountedAndTheMatrixStillReturned) {
  WriteRaw(dir_.File("file"), "not a directory");
  ImageCache cache({.dir = dir_.File("file") + "/images", .max_bytes = kDefaultImageCacheMax});
  StatusOr<kernels::QuantizedMatrix> q = cache.Quantize(Matrix(6), 16, 64, kFp4, "w");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(cache.stats().store_errors, 1);
  EXPECT_NE(cache.stats().last_error.find("image cache: cannot create " + dir_.File("file")),
            std::string::npos)
      << cache.stats().last_error;
}

TEST_F(ImageCacheTest, BadShapeReportsTheQuantizersError) {
  ImageCache cache = Cache();
  StatusOr<kernels::QuantizedMatrix> q = cache.Quantize(Matrix(7), 16, 63, kFp4, "layer 0 qkv");
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.status().message().rfind("layer 0 qkv: has 1024 values", 0), 0u)
      << q.status().message();
}

TEST_F(ImageCacheTest, StaleTemporaryFilesAreRemoved) {
  ImageCache cache = Cache();
  ASSERT_TRUE(cache.Quantize(Matrix(8), 16, 64, kFp4, "w").ok());
  const std::string stale = cache.options().dir + "/x.qimg.tmp.1.1";
  const std::string fresh = cache.options().dir + "/y.qimg.tmp.1.2";
  WriteRaw(stale, "partial");
  WriteRaw(fresh, "partial");
  Age(stale, 7200);
  ASSERT_TRUE(cache.Evict("").ok());
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh));  // may belong to a writer still running
}

TEST(ImageCacheEnv, ZeroTurnsTheCacheOff) {
  ScopedEnv env(kImageCacheEnv, "0");
  StatusOr<ImageCacheOptions> o = ImageCacheOptionsFromEnv();
  ASSERT_TRUE(o.ok());
  EXPECT_TRUE(o->dir.empty());
}

TEST(ImageCacheEnv, DirectoryDefaultsToXdgThenHome) {
  ScopedEnv unset(kImageCacheEnv, nullptr), home("HOME", "/home/u");
  ScopedEnv no_max(kImageCacheMaxEnv, nullptr);
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(ImageCacheOptionsFromEnv()->dir, "/xdg/otpu/images");
  }
  ScopedEnv xdg("XDG_CACHE_HOME", nullptr);
  EXPECT_EQ(ImageCacheOptionsFromEnv()->dir, "/home/u/.cache/otpu/images");
  ScopedEnv set(kImageCacheEnv, "/some/where");
  EXPECT_EQ(ImageCacheOptionsFromEnv()->dir, "/some/where");
  EXPECT_EQ(ImageCacheOptionsFromEnv()->max_bytes, kDefaultImageCacheMax);
}

TEST(ImageCacheEnv, NoDirectoryAtAllIsNamed) {
  ScopedEnv a(kImageCacheEnv, nullptr), b("XDG_CACHE_HOME", nullptr), c("HOME", nullptr);
  StatusOr<ImageCacheOptions> o = ImageCacheOptionsFromEnv();
  ASSERT_FALSE(o.ok());
  EXPECT_NE(o.status().message().find("OTPU_IMAGE_CACHE is unset"), std::string::npos);
}

TEST(ImageCacheEnv, MaxTakesBinarySuffixes) {
  ScopedEnv dir(kImageCacheEnv, "/c");
  for (auto [text, bytes] :
       {std::pair{"123", uint64_t{123}}, std::pair{"512M", uint64_t{512} << 20},
        std::pair{"8GiB", uint64_t{8} << 30}, std::pair{"2k", uint64_t{2048}},
        std::pair{"1TB", uint64_t{1} << 40}}) {
    ScopedEnv max(kImageCacheMaxEnv, text);
    StatusOr<ImageCacheOptions> o = ImageCacheOptionsFromEnv();
    ASSERT_TRUE(o.ok()) << text;
    EXPECT_EQ(o->max_bytes, bytes) << text;
  }
}

TEST(ImageCacheEnv, MalformedMaxIsNamed) {
  ScopedEnv dir(kImageCacheEnv, "/c");
  for (const char* text : {"lots", "8X", "G", "99999999999999999999", "20000000000T", "8GB!"}) {
    ScopedEnv max(kImageCacheMaxEnv, text);
    StatusOr<ImageCacheOptions> o = ImageCacheOptionsFromEnv();
    ASSERT_FALSE(o.ok()) << text;
    EXPECT_EQ(o.status().message(), std::string("OTPU_IMAGE_CACHE_MAX '") + text +
                                        "': expected a byte count such as 8G or 512M");
  }
}

TEST(ContentHasher, SplitUpdatesGiveTheOneShotDigest) {
  std::vector<uint8_t> data(1000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 7 + 3);
  ContentHasher whole;
  whole.Update(data.data(), data.size());
  for (size_t cut : {size_t(0), size_t(1), size_t(31), size_t(32), size_t(33), size_t(999)}) {
    ContentHasher split;
    split.Update(data.data(), cut);
    split.Update(data.data() + cut, data.size() - cut);
    EXPECT_EQ(split.Hex(), whole.Hex()) << cut;
  }
}

TEST(ContentHasher, OneBitOrOneMoreByteChangesTheDigest) {
  std::vector<uint8_t> data(64, 0);
  ContentHasher a, b, c;
  a.Update(data.data(), data.size());
  data[40] = 1;
  b.Update(data.data(), data.size());
  data[40] = 0;
  data.push_back(0);
  c.Update(data.data(), data.size());
  EXPECT_NE(a.Hex(), b.Hex());
  EXPECT_NE(a.Hex(), c.Hex());
}

TEST(ContentHasher, QuantizerFingerprintDiffersPerFormat) {
  EXPECT_NE(QuantizerFingerprint(isa::WFormat::kINT4), QuantizerFingerprint(isa::WFormat::kFP4));
  EXPECT_EQ(QuantizerFingerprint(isa::WFormat::kFP4), QuantizerFingerprint(isa::WFormat::kFP4));
}

}  // namespace
}  // namespace otpu::models
