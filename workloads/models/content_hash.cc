#include "workloads/models/content_hash.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

#include "workloads/kernels/quantize.h"

namespace otpu::models {
namespace {

constexpr uint64_t kP1 = 0x9E3779B185EBCA87ull;
constexpr uint64_t kP2 = 0xC2B2AE3D27D4EB4Full;
constexpr uint64_t kP3 = 0x165667B19E3779F9ull;
constexpr uint64_t kP4 = 0x85EBCA77C2B2AE63ull;

uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

uint64_t Round(uint64_t lane, uint64_t word) { return Rotl(lane + word * kP2, 31) * kP1; }

// murmur3's fmix64: every input bit affects every output bit.
uint64_t Fmix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  h ^= h >> 33;
  return h;
}

}  // namespace

ContentHasher::ContentHasher() : lanes_{kP1 + kP2, kP2, 0, 0 - kP1} {}

void ContentHasher::Stripe(const uint8_t* p) {
  for (int l = 0; l < 4; ++l) {
    uint64_t w;
    std::memcpy(&w, p + 8 * l, 8);
    lanes_[l] = Round(lanes_[l], w);
  }
}

void ContentHasher::Update(const void* data, size_t len) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  total_ += len;
  if (buffered_ > 0) {
    size_t take = std::min(len, sizeof buf_ - buffered_);
    std::memcpy(buf_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    len -= take;
    if (buffered_ < sizeof buf_) return;
    Stripe(buf_);
    buffered_ = 0;
  }
  for (; len >= sizeof buf_; p += sizeof buf_, len -= sizeof buf_) Stripe(p);
  std::memcpy(buf_, p, len);
  buffered_ = len;
}

std::array<uint64_t, 2> ContentHasher::Digest() const {
  uint64_t l[4] = {lanes_[0], lanes_[1], lanes_[2], lanes_[3]};
  uint8_t tail[32] = {};
  std::memcpy(tail, buf_, buffered_);
  for (int i = 0; i < 4; ++i) {
    uint64_t w;
    std::memcpy(&w, tail + 8 * i, 8);
    l[i] = Round(l[i], w ^ (uint64_t(buffered_) << 56));
  }
  const uint64_t h1 = Fmix(l[0] + Rotl(l[1], 7) + Rotl(l[2], 12) + Rotl(l[3], 18) + total_);
  const uint64_t h2 = Fmix((l[0] * kP3) ^ Rotl(l[1] * kP4, 23) ^ Rotl(l[2], 41) ^ l[3] ^ h1);
  return {h1, h2};
}

std::string ContentHasher::Hex() const {
  const std::array<uint64_t, 2> d = Digest();
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)d[0],
                (unsigned long long)d[1]);
  return buf;
}

uint64_t QuantizerFingerprint(isa::WFormat wf) {
  static std::mutex mu;
  static uint64_t cached[4] = {0, 0, 0, 0};
  static bool done[4] = {false, false, false, false};
  const int i = int(wf) & 3;
  std::lock_guard<std::mutex> lock(mu);
  if (done[i]) return cached[i];
  // 4 rows of 64: a spread of magnitudes, exact ties of every code and a zero block.
  std::vector<float> probe(4 * 64);
  uint64_t s = 0x0123456789ABCDEFull;
  for (size_t j = 0; j < probe.size(); ++j) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    probe[j] = float(int64_t(s >> 40) - (int64_t{1} << 23)) / float(1 << 20);
  }
  for (int j = 0; j < 32; ++j) probe[64 + j] = float(j % 25) * 0.5f;  // halves: ties
  for (int j = 0; j < 32; ++j) probe[192 + j] = 0.0f;
  StatusOr<kernels::QuantizedMatrix> q =
      kernels::Quantize(probe, 4, 64, {.wf = wf, .block = 32, .align = 32}, "fingerprint");
  ContentHasher h;
  if (q.ok()) {
    h.Update(q->bytes.data(), q->bytes.size());
    h.Update(q->scales.data(), q->ScaleBytes());
  }
  cached[i] = h.Digest()[0];
  done[i] = true;
  return cached[i];
}

}  // namespace otpu::models
