// Sparse byte-addressed memory: the DRAM image of a workload and the DRAM of every model
// (ISA simulator, RTL harness, board model). Pages appear on first write; unwritten bytes read 0.
// One thread at a time: reads remember the last pages they found.
//
// A copy shares its pages with the original until either writes one (copy on write, per page):
// the models' copies of a workload's image (a Qwen3-0.6B step's is 0.6 GB) cost only the pages
// a run writes.
#ifndef OTPU_BASE_SPARSE_MEMORY_H_
#define OTPU_BASE_SPARSE_MEMORY_H_

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

namespace otpu {

class SparseMemory {
 public:
  static constexpr uint64_t kPageBytes = 1 << 16;

  explicit SparseMemory(uint64_t size_bytes) : size_(size_bytes) {}
  SparseMemory(const SparseMemory& other) { *this = other; }
  SparseMemory& operator=(const SparseMemory& other);
  SparseMemory(SparseMemory&& other) noexcept { *this = std::move(other); }
  SparseMemory& operator=(SparseMemory&& other) noexcept;

  uint64_t size() const { return size_; }
  // True when [addr, addr+len) lies inside the memory.
  bool Contains(uint64_t addr, uint64_t len) const { return addr <= size_ && len <= size_ - addr; }

  // Callers check Contains first; out-of-range accesses are an invariant violation.
  void Write(uint64_t addr, const void* data, uint64_t len);
  // The common case inline (one remembered page holds it all), the rest in ReadSlow.
  void Read(uint64_t addr, void* data, uint64_t len) const {
    const uint64_t off = addr % kPageBytes;
    const uint8_t* page = Remembered(addr / kPageBytes);
    if (page != nullptr && len <= kPageBytes - off && Contains(addr, len)) {
      std::memcpy(data, page + off, len);
      return;
    }
    ReadSlow(addr, data, len);
  }

  uint32_t Read32(uint64_t addr) const {
    uint32_t v;
    Read(addr, &v, 4);
    return v;
  }
  void Write32(uint64_t addr, uint32_t v) { Write(addr, &v, 4); }
  uint8_t Read8(uint64_t addr) const {
    uint8_t v;
    Read(addr, &v, 1);
    return v;
  }
  void Write8(uint64_t addr, uint8_t v) { Write(addr, &v, 1); }
  std::vector<uint8_t> ReadBytes(uint64_t addr, uint64_t len) const {
    std::vector<uint8_t> v(len);
    Read(addr, v.data(), len);
    return v;
  }

  // Pages that have been written, in address order (for comparing two memories).
  const std::map<uint64_t, std::shared_ptr<uint8_t[]>>& pages() const { return pages_; }
  // True when both memories hold the same bytes (unwritten pages count as zeros).
  bool SameBytes(const SparseMemory& other) const;
  // Lowest address where the two differ, or -1.
  int64_t FirstDifference(const SparseMemory& other) const;
  void Clear() {
    pages_.clear();
    Forget();
  }

 private:
  void ReadSlow(uint64_t addr, void* data, uint64_t len) const;
  uint8_t* PageForWrite(uint64_t page);
  // The page's own copy for writing: a new zero page, or a private copy of a shared one.
  uint8_t* Own(std::shared_ptr<uint8_t[]>* slot);
  const uint8_t* PageForRead(uint64_t page) const;
  void Forget() const { recent_.fill({}); }
  // The page if it is one of those found last, else nullptr.
  uint8_t* Remembered(uint64_t page) const {
    const Recent& r = recent_[page % kRecent];
    return r.page == page ? r.data : nullptr;
  }
  // The same for writing: only a page this memory does not share.
  uint8_t* RememberedOwn(uint64_t page) const {
    const Recent& r = recent_[page % kRecent];
    return r.page == page && r.slot != nullptr && r.slot->use_count() == 1 ? r.data : nullptr;
  }

  uint64_t size_ = 0;
  std::map<uint64_t, std::shared_ptr<uint8_t[]>> pages_;  // key: page index
  // The pages found last, by page index mod kRecent: a model reads along a few streams (weights,
  // scales, activations), each mostly within one page. A page's entry in pages_ never moves
  // or goes away while it is there (only Clear and assignment remove pages); its data moves
  // when a write copies a shared page, and the write updates the page's Recent.
  struct Recent {
    uint64_t page = 0;
    uint8_t* data = nullptr;
    const std::shared_ptr<uint8_t[]>* slot = nullptr;  // the entry in pages_
  };
  static constexpr size_t kRecent = 8;
  mutable std::array<Recent, kRecent> recent_{};
};

}  // namespace otpu

#endif  // OTPU_BASE_SPARSE_MEMORY_H_
