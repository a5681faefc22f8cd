#include "base/sparse_memory.h"

#include <algorithm>

#include "base/status.h"

namespace otpu {

SparseMemory& SparseMemory::operator=(const SparseMemory& other) {
  if (this == &other) return *this;
  size_ = other.size_;
  pages_ = other.pages_;  // shared until written (Own)
  Forget();
  return *this;
}

SparseMemory& SparseMemory::operator=(SparseMemory&& other) noexcept {
  if (this == &other) return *this;
  size_ = other.size_;
  pages_ = std::move(other.pages_);
  other.pages_.clear();
  Forget();
  other.Forget();
  return *this;
}

uint8_t* SparseMemory::Own(std::shared_ptr<uint8_t[]>* slot) {
  if (*slot != nullptr && slot->use_count() == 1) return slot->get();
  std::shared_ptr<uint8_t[]> data(new uint8_t[kPageBytes]);
  if (*slot != nullptr) {
    std::memcpy(data.get(), slot->get(), kPageBytes);
  } else {
    std::memset(data.get(), 0, kPageBytes);
  }
  *slot = std::move(data);
  return slot->get();
}

uint8_t* SparseMemory::PageForWrite(uint64_t page) {
  if (uint8_t* data = RememberedOwn(page)) return data;
  std::shared_ptr<uint8_t[]>& slot = pages_[page];
  uint8_t* data = Own(&slot);
  recent_[page % kRecent] = {page, data, &slot};
  return data;
}

const uint8_t* SparseMemory::PageForRead(uint64_t page) const {
  if (const uint8_t* data = Remembered(page)) return data;
  auto it = pages_.find(page);
  if (it == pages_.end()) return nullptr;
  recent_[page % kRecent] = {page, it->second.get(), &it->second};
  return it->second.get();
}

void SparseMemory::Write(uint64_t addr, const void* data, uint64_t len) {
  OTPU_CHECK(Contains(addr, len));
  const uint8_t* src = static_cast<const uint8_t*>(data);
  while (len > 0) {
    uint64_t off = addr % kPageBytes;
    uint64_t n = std::min(len, kPageBytes - off);
    std::memcpy(PageForWrite(addr / kPageBytes) + off, src, n);
    addr += n;
    src += n;
    len -= n;
  }
}

void SparseMemory::ReadSlow(uint64_t addr, void* data, uint64_t len) const {
  OTPU_CHECK(Contains(addr, len));
  uint8_t* dst = static_cast<uint8_t*>(data);
  while (len > 0) {
    uint64_t off = addr % kPageBytes;
    uint64_t n = std::min(len, kPageBytes - off);
    const uint8_t* page = PageForRead(addr / kPageBytes);
    if (page) std::memcpy(dst, page + off, n);
    else std::memset(dst, 0, n);
    addr += n;
    dst += n;
    len -= n;
  }
}

int64_t SparseMemory::FirstDifference(const SparseMemory& other) const {
  static const uint8_t kZero[kPageBytes] = {};
  auto diff_in = [&](uint64_t page) -> int64_t {
    const uint8_t* a = PageForRead(page);
    const uint8_t* b = other.PageForRead(page);
    if (!a) a = kZero;
    if (!b) b = kZero;
    for (uint64_t i = 0; i < kPageBytes; ++i)
      if (a[i] != b[i]) return int64_t(page * kPageBytes + i);
    return -1;
  };
  std::vector<uint64_t> keys;
  for (const auto& kv : pages_) keys.push_back(kv.first);
  for (const auto& kv : other.pages_) keys.push_back(kv.first);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (uint64_t page : keys) {
    int64_t d = diff_in(page);
    if (d >= 0) return d;
  }
  return -1;
}

bool SparseMemory::SameBytes(const SparseMemory& other) const { return FirstDifference(other) < 0; }

}  // namespace otpu
