// What the unit-level RTL tests put around one Verilated unit of rtl/core: a seeded source of
// test values, the TMEM of the unit interface (docs/rtl-core.md) with seeded random refusals,
// DRAM ports A and B with random latency, withheld ready and out-of-order responses, and the
// golden model (the ISA simulator running the same instruction).
#ifndef OTPU_TESTS_RTL_UNITS_UNIT_BENCH_H_
#define OTPU_TESTS_RTL_UNITS_UNIT_BENCH_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "sim/isa/isa_sim.h"
#include "tests/rtl/units/vl_bits.h"
#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/instr.h"

namespace otpu::rtl::units {

// The configuration the unit was Verilated with: `board` when built with OTPU_UNIT_BOARD
// (tests/rtl/units/CMakeLists.txt passes the matching -G parameters), else `sim`.
inline isa::Config UnitConfig() {
#ifdef OTPU_UNIT_BOARD
  return isa::Config::Board();
#else
  return isa::Config::Sim();
#endif
}

// Seeded random numbers and fp32 bit patterns that reach the numerics' corner cases.
class Values {
 public:
  explicit Values(uint64_t seed) : rng_(seed) {}

  // Uniform integer in [lo, hi].
  uint64_t Uniform(uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_);
  }
  // True with probability pct / 100.
  bool Chance(int pct) { return int(Uniform(0, 99)) < pct; }
  // Any fp32: mostly moderate normals, with zeros, subnormals, infinities, NaNs, the extremes,
  // small integers (exact sums, rounding ties) and uniform bit patterns mixed in.
  uint32_t Fp32();
  // A special value: ±0, a subnormal, 2^-126, the largest finite, ±inf or a NaN.
  uint32_t Special();
  // A finite normal with exponent in [2^lo, 2^hi] and a random sign.
  uint32_t Normal(int lo, int hi);
  std::mt19937_64& rng() { return rng_; }

 private:
  std::mt19937_64 rng_;
};

// The TMEM as a unit sees it (docs/rtl-core.md "Unit interface"): read data in the granted
// cycle, writes at the clock edge, a request granted whole or refused (seeded, refuse_pct
// percent). Records every breach of the request rules (a lane that does not carry a word of
// its own bank, an address outside TMEM) in violations().
class TmemModel {
 public:
  TmemModel(int lanes, int addr_bits, int refuse_pct, uint64_t seed)
      : lanes_(lanes), aw_(addr_bits), refuse_pct_(refuse_pct), rng_(seed) {}

  std::vector<uint32_t>& words() { return words_; }
  // Requests refused so far.
  int64_t refused() const { return refused_; }
  const std::vector<std::string>& violations() const { return violations_; }

  // Before the edge: decide the grant and drive the read data of the requested lanes.
  template <typename Top>
  void Drive(Top& t) {
    t.tm_gnt_i = 0;
    for (int l = 0; l < lanes_; ++l) SetWord(t.tm_rdata_i, l, uint32_t(rng_()));  // junk
    if (!t.tm_req_o) return;
    const bool refuse = int(rng_() % 100) < refuse_pct_;
    refused_ += refuse;
    t.tm_gnt_i = !refuse;
    for (int l = 0; l < lanes_; ++l) {
      if (!GetBits(t.tm_mask_o, l, 1)) continue;
      const uint64_t addr = GetBits(t.tm_addr_o, l * aw_, aw_);
      if (!CheckLane(l, addr)) continue;
      SetWord(t.tm_rdata_i, l, words_[addr]);
    }
  }

  // At the edge: apply a granted write.
  template <typename Top>
  void Commit(const Top& t) {
    if (!t.tm_req_o || !t.tm_gnt_i || !t.tm_we_o) return;
    for (int l = 0; l < lanes_; ++l) {
      if (!GetBits(t.tm_mask_o, l, 1)) continue;
      const uint64_t addr = GetBits(t.tm_addr_o, l * aw_, aw_);
      if (CheckLane(l, addr)) words_[addr] = GetWord(t.tm_wdata_o, l);
    }
  }

 private:
  bool CheckLane(int lane, uint64_t addr);

  int lanes_, aw_, refuse_pct_;
  std::mt19937_64 rng_;
  std::vector<uint32_t> words_;
  int64_t refused_ = 0;
  std::vector<std::string> violations_;
};

// A DRAM read port with a random latency in [min_latency, max_latency] cycles, ready withheld
// in stall_pct percent of the cycles, and at most one response a cycle, picked at random among
// those due (so responses come back out of order). Data is read from `dram` when the request
// is accepted.
class ReadPort {
 public:
  struct Options {
    int min_latency = 1, max_latency = 12;
    int stall_pct = 20;
  };
  ReadPort(const Options& opts, uint64_t seed) : opts_(opts), rng_(seed) {}

  // Before the edge: whether a request would be accepted, and the response of this cycle
  // (nullptr for none).
  bool Ready() { return ready_; }
  void Plan(int64_t now);
  const std::vector<uint8_t>* Response(uint32_t* tag) const;
  // At the edge: an accepted request enters the queue; the presented response leaves it.
  void Accept(int64_t now, uint32_t tag, std::vector<uint8_t> data);
  void Retire();
  bool Idle() const { return pending_.empty(); }

 private:
  struct Pending {
    int64_t due;
    uint32_t tag;
    std::vector<uint8_t> data;
  };
  Options opts_;
  std::mt19937_64 rng_;
  std::vector<Pending> pending_;
  bool ready_ = false;
  int picked_ = -1;
};

// The golden model: the ISA simulator executing one instruction at a time on its own TMEM,
// ACT RAM and DRAM (the bench keeps its copies equal to start with).
class Golden {
 public:
  Golden(const isa::Config& cfg, uint64_t dram_bytes);
  // Runs {in, HALT}; an illegal instruction returns the simulator's error.
  Status Exec(const isa::Instr& in);
  sim::IsaSim& sim() { return *sim_; }
  SparseMemory& dram() { return *dram_; }

 private:
  std::unique_ptr<SparseMemory> dram_;
  std::unique_ptr<sim::IsaSim> sim_;
};

// "word 123: rtl 0x3f800000, golden 0x3f800001" for the first few differing words, or "".
std::string DiffWords(const std::vector<uint32_t>& rtl, const std::vector<uint32_t>& golden,
                      int max_lines = 8);

}  // namespace otpu::rtl::units

#endif  // OTPU_TESTS_RTL_UNITS_UNIT_BENCH_H_
