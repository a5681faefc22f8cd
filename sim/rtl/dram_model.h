// The DRAM behind the core's two ports (docs/rtl-core.md "DRAM ports"), for the RTL harness:
// port B moves D-byte chunks (tagged reads, byte-enabled writes), port A 32-bit words. Three
// behaviours: an ideal memory (always ready, every read answered `latency` cycles after it
// was accepted, in order), a stalling one (each ready withheld in `stall_percent` percent
// of the cycles, seeded, and read responses returned out of order) and, with `axi`, the board's
// DRAM (SPEC 3.5): two channels interleaved by 64-byte beat, each serving at most
// `beats_per_cycle` beats a cycle (an access takes every beat it touches on its channel), a
// read answered `latency` cycles after its last beat was served, ready withheld while a
// channel's backlog passes `queue_beats` (and, with a stall percent, at random), and due
// responses delivered in random order (seeded).
//
// Ordering contract: a request takes effect when it is accepted. A read returns the bytes as
// they were at its acceptance, after every write accepted before it on either port.
#ifndef OTPU_SIM_RTL_DRAM_MODEL_H_
#define OTPU_SIM_RTL_DRAM_MODEL_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "base/sparse_memory.h"
#include "base/status.h"

namespace otpu::rtl {

struct DramOptions {
  int latency = 16;        // cycles from an accepted read to its response (at least 1)
  int stall_percent = 0;   // 0: the ideal memory; 1..100: the stalling one
  uint64_t seed = 1;       // of the stalling memory's choices
  bool axi = false;              // the board's two-channel DRAM (above)
  double beats_per_cycle = 1.0;  // axi: bandwidth cap per channel (> 0)
  int queue_beats = 16;          // axi: backlog per channel above which ready is withheld

  // The profile's `config.MEM`: "ideal", "stall N", "axi" or "axi stall N".
  std::string Name() const;
};

// The inverse of DramOptions::Name() (other fields at their defaults); InvalidArgument naming
// `name` when it is not one of those forms with N in 1..99.
StatusOr<DramOptions> ParseDramName(const std::string& name);

// What the memory offers the core in one cycle: ready bits and at most one read response per
// port (the core always takes a response).
struct MemOffer {
  bool b_rd_ready = false, b_wr_ready = false, a_ready = false;
  bool b_rsp_valid = false;
  uint32_t b_rsp_tag = 0;
  std::vector<uint8_t> b_rsp_data;  // D bytes
  bool a_rsp_valid = false;
  uint32_t a_rsp_tag = 0, a_rsp_data = 0;
};

// What the core asks for in one cycle. Write data is filled only when the write is accepted.
struct MemRequests {
  bool b_rd_valid = false;
  uint32_t b_rd_addr = 0, b_rd_tag = 0;
  bool b_wr_valid = false;
  uint32_t b_wr_addr = 0;
  std::vector<uint8_t> b_wr_data;   // D bytes
  std::vector<uint8_t> b_wr_be;     // D flags, 1 = write the byte
  bool a_valid = false, a_we = false;
  uint32_t a_addr = 0, a_wdata = 0, a_tag = 0;
  uint8_t a_be = 0;
};

// Transfers accepted so far, per port and kind.
struct DramStats {
  int64_t b_reads = 0, b_writes = 0, a_reads = 0, a_writes = 0;
  int64_t b_wait = 0, a_wait = 0;  // cycles a request found its port not ready
};

class DramModel {
 public:
  // `mem` is borrowed and must outlive the model; `chunk_bytes` is D.
  DramModel(SparseMemory* mem, int chunk_bytes, const DramOptions& opts);

  // Decides this cycle's ready bits and picks the responses delivered in it.
  void Offer(int64_t cycle, MemOffer* offer);
  // Applies the handshakes the core completed this cycle (valid and ready). An access
  // outside the memory is recorded and leaves the memory alone (see status()).
  void Accept(int64_t cycle, const MemOffer& offer, const MemRequests& req);

  // No read is waiting for its response.
  bool Idle() const { return b_pending_.empty() && a_pending_.empty(); }
  const DramStats& stats() const { return stats_; }
  // Internal naming the first access outside the memory, OK otherwise.
  const Status& status() const { return status_; }

 private:
  // A read awaiting its response, in a slot of pending_ (reused: no allocation per read). Its
  // bytes are chunk bytes at slot * chunk in bytes_.
  struct Pending {
    int64_t due = 0;
    uint64_t seq = 0;   // order of acceptance on its port
    uint32_t tag = 0;
  };

  // One port's reads awaiting their responses, as slots of pending_. `due` holds those whose
  // cycle has come, in acceptance order (the order a response is chosen from); `waiting` the
  // others from `head` on, sorted by their cycle, so that a cycle looks only at what comes
  // due in it. Reads come due almost in the order they are accepted, so both lists are
  // appended to near their end.
  struct Port {
    std::vector<uint32_t> due, waiting;
    size_t head = 0;
    uint64_t seq = 0;
    bool empty() const { return due.empty() && head == waiting.size(); }
  };

  bool Withhold();
  int64_t Due(int64_t cycle);
  // axi: serves the beats of [addr, addr + len) on their channels; the cycle the last is done.
  int64_t Serve(int64_t cycle, uint64_t addr, uint64_t len);
  // axi: a channel's backlog is over queue_beats.
  bool Backlogged(int64_t cycle) const;
  // Queues a read of `len` bytes at `addr` due at `due` (its bytes read now).
  void Push(Port* port, int64_t due, uint32_t tag, uint64_t addr, uint64_t len, const char* what);
  // The slot of the response to deliver now from `port` (its slot is free again after the
  // caller has read it), or -1 when none is due. Inline for the cycles nothing comes due in.
  int Pop(int64_t cycle, Port* port) {
    if (port->due.empty() && (port->head == port->waiting.size() ||
                              pending_[port->waiting[port->head]].due > cycle)) {
      return -1;
    }
    return PopDue(cycle, port);
  }
  int PopDue(int64_t cycle, Port* port);
  void Fail(const std::string& what, uint64_t addr, uint64_t len);
  uint8_t* SlotBytes(uint32_t slot) { return bytes_.data() + size_t(slot) * size_t(chunk_); }

  SparseMemory* mem_;
  int chunk_;
  DramOptions opts_;
  std::mt19937_64 rng_;
  Port b_pending_, a_pending_;
  double free_at_[2] = {0, 0};  // axi: when each channel has served its backlog
  std::vector<uint8_t> scratch_;  // a chunk being merged
  std::vector<Pending> pending_;  // slots of both ports' reads
  std::vector<uint8_t> bytes_;    // their data, chunk_ bytes a slot
  std::vector<uint32_t> free_;    // slots not in use
  DramStats stats_;
  Status status_;
};

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_DRAM_MODEL_H_
