#include "sim/rtl/dram_model.h"
#include "sim/rtl/stall_percent.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <vector>

namespace otpu::rtl {

namespace {
constexpr uint64_t kBeatBytes = 64;  // the channels interleave by beat
}  // namespace

std::string DramOptions::Name() const {
  const std::string stall = "stall " + std::to_string(stall_percent);
  if (axi) return stall_percent == 0 ? "axi" : "axi " + stall;
  return stall_percent == 0 ? "ideal" : stall;
}

StatusOr<DramOptions> ParseDramName(const std::string& name) {
  DramOptions o;
  std::istringstream in(name);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  size_t i = 0;
  if (words.size() == 1 && words[0] == "ideal") return o;
  if (i < words.size() && words[i] == "axi") {
    o.axi = true;
    ++i;
  }
  if (o.axi && i == words.size()) return o;
  if (i + 2 == words.size() && words[i] == "stall") {
    const std::string& n = words[i + 1];
    if (!n.empty() && n.size() <= 2 && std::all_of(n.begin(), n.end(), ::isdigit)) {
      o.stall_percent = std::stoi(n);
      if (o.stall_percent >= 1) return o;
    }
  }
  return InvalidArgument("'" + name + "' is not a memory (ideal, stall N, axi or axi stall N; N in 1..99)");
}

Status CheckStallPercent(int percent) {
  if (percent >= 0 && percent <= kMaxStallPercent) return OkStatus();
  return InvalidArgument("--stall " + std::to_string(percent) +
                         ": expected a percent of cycles from 0 to " +
                         std::to_string(kMaxStallPercent));
}

DramModel::DramModel(SparseMemory* mem, int chunk_bytes, const DramOptions& opts)
    : mem_(mem), chunk_(chunk_bytes), opts_(opts), rng_(opts.seed) {
  OTPU_CHECK(mem_ != nullptr);
  OTPU_CHECK(chunk_ >= 4);  // a slot holds a port-A word too
  OTPU_CHECK(opts_.latency >= 1);
  OTPU_CHECK(opts_.beats_per_cycle > 0);
}

int64_t DramModel::Serve(int64_t cycle, uint64_t addr, uint64_t len) {
  double done = double(cycle);
  for (uint64_t beat = addr / kBeatBytes; beat <= (addr + len - 1) / kBeatBytes; ++beat) {
    double& free = free_at_[beat % 2];
    free = std::max(free, double(cycle)) + 1.0 / opts_.beats_per_cycle;
    done = std::max(done, free);
  }
  return int64_t(std::ceil(done));
}

bool DramModel::Backlogged(int64_t cycle) const {
  for (double free : free_at_) {
    if ((free - double(cycle)) * opts_.beats_per_cycle > double(opts_.queue_beats)) return true;
  }
  return false;
}

bool DramModel::Withhold() {
  if (opts_.stall_percent == 0) return false;
  return int(rng_() % 100) < opts_.stall_percent;
}

// The stalling memory adds up to `latency` cycles at random, so responses overtake each other.
int64_t DramModel::Due(int64_t cycle) {
  int64_t due = cycle + opts_.latency;
  if (opts_.stall_percent != 0) due += int64_t(rng_() % uint64_t(opts_.latency + 1));
  return due;
}

void DramModel::Push(Port* port, int64_t due, uint32_t tag, uint64_t addr, uint64_t len,
                     const char* what) {
  if (free_.empty()) {
    free_.push_back(uint32_t(pending_.size()));
    pending_.emplace_back();
    bytes_.resize(pending_.size() * size_t(chunk_));
  }
  const uint32_t slot = free_.back();
  free_.pop_back();
  Pending& p = pending_[slot];
  p.due = due;
  p.seq = port->seq++;
  p.tag = tag;
  if (!mem_->Contains(addr, len)) {
    Fail(what, addr, len);
    std::memset(SlotBytes(slot), 0, size_t(len));
  } else {
    mem_->Read(addr, SlotBytes(slot), len);
  }
  // Insert by due cycle, after those due at the same cycle.
  std::vector<uint32_t>& w = port->waiting;
  if (port->head > 0 && port->head * 2 >= w.size()) {
    w.erase(w.begin(), w.begin() + std::ptrdiff_t(port->head));
    port->head = 0;
  }
  size_t at = w.size();
  while (at > port->head && pending_[w[at - 1]].due > due) --at;
  if (at == w.size()) {
    w.push_back(slot);  // most reads come due after every read before them
  } else {
    w.insert(w.begin() + std::ptrdiff_t(at), slot);
  }
}

int DramModel::PopDue(int64_t cycle, Port* port) {
  std::vector<uint32_t>& w = port->waiting;
  std::vector<uint32_t>& due = port->due;
  const bool random = opts_.stall_percent != 0 || opts_.axi;
  // A read that comes due alone, with none waiting to be picked: it is the response (the
  // random pick among one still draws its number, so that the sequence stays the same).
  if (due.empty() && (port->head + 1 == w.size() || pending_[w[port->head + 1]].due > cycle)) {
    const uint32_t slot = w[port->head++];
    if (random) rng_();
    free_.push_back(slot);
    return int(slot);
  }
  while (port->head < w.size() && pending_[w[port->head]].due <= cycle) {
    const uint32_t slot = w[port->head++];
    size_t at = due.size();
    while (at > 0 && pending_[due[at - 1]].seq > pending_[slot].seq) --at;
    due.insert(due.begin() + std::ptrdiff_t(at), slot);
  }
  if (due.empty()) return -1;
  // The ideal memory answers in order; the others pick any due response at random.
  size_t pick = 0;
  if (random) pick = size_t(rng_() % due.size());
  const uint32_t slot = due[pick];
  due.erase(due.begin() + std::ptrdiff_t(pick));
  free_.push_back(slot);
  return int(slot);
}

void DramModel::Offer(int64_t cycle, MemOffer* offer) {
  const bool full = opts_.axi && Backlogged(cycle);
  offer->b_rd_ready = !Withhold() && !full;
  offer->b_wr_ready = !Withhold() && !full;
  offer->a_ready = !Withhold() && !full;
  const int b = Pop(cycle, &b_pending_);
  offer->b_rsp_valid = b >= 0;
  if (b >= 0) {
    const uint8_t* bytes = SlotBytes(uint32_t(b));
    offer->b_rsp_tag = pending_[size_t(b)].tag;
    offer->b_rsp_data.resize(size_t(chunk_));
    std::memcpy(offer->b_rsp_data.data(), bytes, size_t(chunk_));
  }
  const int a = Pop(cycle, &a_pending_);
  offer->a_rsp_valid = a >= 0;
  if (a >= 0) {
    const uint8_t* bytes = SlotBytes(uint32_t(a));
    offer->a_rsp_tag = pending_[size_t(a)].tag;
    offer->a_rsp_data = uint32_t(bytes[0]) | uint32_t(bytes[1]) << 8 |
                        uint32_t(bytes[2]) << 16 | uint32_t(bytes[3]) << 24;
  }
}

void DramModel::Fail(const std::string& what, uint64_t addr, uint64_t len) {
  if (!status_.ok()) return;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s at 0x%llx (%llu bytes) lies outside DRAM (0x%llx bytes)",
                what.c_str(), static_cast<unsigned long long>(addr),
                static_cast<unsigned long long>(len),
                static_cast<unsigned long long>(mem_->size()));
  status_ = Internal(buf);
}

void DramModel::Accept(int64_t cycle, const MemOffer& offer, const MemRequests& req) {
  // Writes first: a read accepted in the same cycle on the other port sees them.
  if (req.b_wr_valid && offer.b_wr_ready) {
    ++stats_.b_writes;
    if (!mem_->Contains(req.b_wr_addr, uint64_t(chunk_))) {
      Fail("port-B write", req.b_wr_addr, uint64_t(chunk_));
    } else {
      // Read, merge the enabled bytes, write back: one page lookup each way.
      scratch_.resize(size_t(chunk_));
      mem_->Read(req.b_wr_addr, scratch_.data(), uint64_t(chunk_));
      for (size_t i = 0; i < scratch_.size(); ++i) {
        if (req.b_wr_be[i]) scratch_[i] = req.b_wr_data[i];
      }
      mem_->Write(req.b_wr_addr, scratch_.data(), uint64_t(chunk_));
    }
    if (opts_.axi) Serve(cycle, req.b_wr_addr, uint64_t(chunk_));
  }
  if (req.a_valid && offer.a_ready && req.a_we) {
    ++stats_.a_writes;
    if (opts_.axi) Serve(cycle, req.a_addr, 4);
    if (!mem_->Contains(req.a_addr, 4)) {
      Fail("port-A write", req.a_addr, 4);
    } else {
      for (int i = 0; i < 4; ++i) {
        if (req.a_be >> i & 1) {
          mem_->Write8(uint64_t(req.a_addr) + uint64_t(i), uint8_t(req.a_wdata >> (8 * i)));
        }
      }
    }
  }
  if (req.b_rd_valid && offer.b_rd_ready) {
    ++stats_.b_reads;
    const int64_t served = opts_.axi ? Serve(cycle, req.b_rd_addr, uint64_t(chunk_)) : cycle;
    Push(&b_pending_, Due(served), req.b_rd_tag, req.b_rd_addr, uint64_t(chunk_), "port-B read");
  }
  if (req.a_valid && offer.a_ready && !req.a_we) {
    ++stats_.a_reads;
    const int64_t served = opts_.axi ? Serve(cycle, req.a_addr, 4) : cycle;
    Push(&a_pending_, Due(served), req.a_tag, req.a_addr, 4, "port-A read");
  }
  if ((req.b_rd_valid && !offer.b_rd_ready) || (req.b_wr_valid && !offer.b_wr_ready)) {
    ++stats_.b_wait;
  }
  if (req.a_valid && !offer.a_ready) ++stats_.a_wait;
}

}  // namespace otpu::rtl
