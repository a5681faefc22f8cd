#include "tests/rtl/units/unit_bench.h"

#include <bit>
#include <cstdio>

#include "workloads/isa/program.h"

namespace otpu::rtl::units {

uint32_t Values::Special() {
  static constexpr uint32_t kSpecials[] = {
      0x00000000u, 0x80000000u,                            // ±0
      0x00000001u, 0x807FFFFFu, 0x00400000u,               // subnormals
      0x00800000u, 0x80800000u, 0x00800001u,               // 2^-126 and its neighbour
      0x7F7FFFFFu, 0xFF7FFFFFu,                            // the largest finite
      0x7F800000u, 0xFF800000u,                            // ±inf
      0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x7FFFFFFFu,  // NaNs, signalling too
      0x3F800000u, 0xBF800000u, 0x3F000000u, 0x4B000000u,  // 1, -1, 0.5, 2^23
  };
  return kSpecials[Uniform(0, std::size(kSpecials) - 1)];
}

uint32_t Values::Normal(int lo, int hi) {
  const uint32_t exp = uint32_t(127 + int(Uniform(0, uint64_t(hi - lo))) + lo);
  return (uint32_t(Uniform(0, 1)) << 31) | (exp << 23) | uint32_t(Uniform(0, 0x7FFFFF));
}

uint32_t Values::Fp32() {
  const int pick = int(Uniform(0, 99));
  if (pick < 55) return Normal(-6, 6);
  if (pick < 65) return Special();
  if (pick < 75) {  // small integers and halves: exact sums, rounding ties
    const float f = float(int(Uniform(0, 64)) - 32) * (Chance(50) ? 1.0f : 0.5f);
    return std::bit_cast<uint32_t>(f);
  }
  if (pick < 85) return Normal(-126, 127);
  return uint32_t(rng_());
}

bool TmemModel::CheckLane(int lane, uint64_t addr) {
  if (addr >= words_.size()) {
    violations_.push_back("lane " + std::to_string(lane) + " address " + std::to_string(addr) +
                          " outside TMEM");
    return false;
  }
  if (int(addr % lanes_) != lane) {
    violations_.push_back("lane " + std::to_string(lane) + " carries address " +
                          std::to_string(addr) + " of bank " + std::to_string(addr % lanes_));
    return false;
  }
  return true;
}

void ReadPort::Plan(int64_t now) {
  ready_ = int(rng_() % 100) >= opts_.stall_pct;
  picked_ = -1;
  int due = 0;
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (pending_[i].due > now) continue;
    // Reservoir choice among the due responses: any of them may go first.
    if (rng_() % uint64_t(++due) == 0) picked_ = int(i);
  }
}

const std::vector<uint8_t>* ReadPort::Response(uint32_t* tag) const {
  if (picked_ < 0) return nullptr;
  *tag = pending_[size_t(picked_)].tag;
  return &pending_[size_t(picked_)].data;
}

void ReadPort::Accept(int64_t now, uint32_t tag, std::vector<uint8_t> data) {
  const int64_t lat =
      std::uniform_int_distribution<int>(opts_.min_latency, opts_.max_latency)(rng_);
  pending_.push_back(Pending{now + lat, tag, std::move(data)});
}

void ReadPort::Retire() {
  if (picked_ >= 0) pending_.erase(pending_.begin() + picked_);
  picked_ = -1;
}

Golden::Golden(const isa::Config& cfg, uint64_t dram_bytes)
    : dram_(std::make_unique<SparseMemory>(dram_bytes)),
      sim_(std::make_unique<sim::IsaSim>(cfg, dram_.get())) {}

Status Golden::Exec(const isa::Instr& in) {
  RETURN_IF_ERROR(sim_->LoadProgram(std::vector<isa::Instr>{in, isa::EncodeHalt()}));
  sim::IsaRunOptions opts;
  opts.record_events = false;
  ASSIGN_OR_RETURN(trace::RunEvents ev, sim_->Run(opts));
  (void)ev;
  return OkStatus();
}

std::string DiffWords(const std::vector<uint32_t>& rtl, const std::vector<uint32_t>& golden,
                      int max_lines) {
  std::string out;
  int lines = 0;
  for (size_t i = 0; i < rtl.size() && i < golden.size(); ++i) {
    if (rtl[i] == golden[i]) continue;
    if (lines++ == max_lines) {
      out += "...\n";
      break;
    }
    char buf[96];
    std::snprintf(buf, sizeof buf, "word %zu: rtl 0x%08x, golden 0x%08x\n", i, rtl[i], golden[i]);
    out += buf;
  }
  if (rtl.size() != golden.size()) out += "sizes differ\n";
  return out;
}

}  // namespace otpu::rtl::units
