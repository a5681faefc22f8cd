// The MXU's unit bench (tests/rtl/units): the Verilated otpu_mxu with the sequencer's
// two-phase start, TMEM, ACT RAM and ports A and B around it, and the random MMs it runs.
#ifndef OTPU_TESTS_RTL_UNITS_MXU_BENCH_H_
#define OTPU_TESTS_RTL_UNITS_MXU_BENCH_H_

#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tests/rtl/units/unit_bench.h"
#include "workloads/isa/instr.h"

class VerilatedContext;
class Votpu_mxu;

namespace otpu::rtl::units {

inline constexpr uint64_t kMxuDramBytes = 1 << 22;
inline constexpr uint64_t kMxuDramUsed = 1 << 20;  // weights and scales, random bytes

// One MM as the bench's sequencer sees it.
struct MmJob {
  isa::Instr in;
  uint32_t slot = 0;
  int64_t release_delay = 0;  // cycles after the streamer takes it before it may be released
  int64_t taken = -1, released = -1, done = -1;
  std::array<uint32_t, 4> cnt{};  // starve bp frz deny
};

// [lo, hi) of the TMEM words an MM writes.
struct Span {
  uint64_t lo, hi;
};
Span OutSpan(const isa::Instr& in);

// What the bench's memories and ports do.
struct MxuOptions {
  int refuse_pct = 20;  // TMEM refusals, percent of requests
  ReadPort::Options port_b, port_a;
};

// The Verilated MXU with the sequencer, TMEM, ACT RAM and ports A and B played around it.
// ACT RAM and DRAM are the golden model's (MM reads them only); TMEM is the bench's own.
class MxuBench {
 public:
  MxuBench(uint64_t seed, const MxuOptions& opts, Golden* golden);
  ~MxuBench();
  MxuBench(const MxuBench&) = delete;
  MxuBench& operator=(const MxuBench&) = delete;

  TmemModel& tmem() { return tmem_; }
  int64_t cycles() const { return cycle_; }
  const std::vector<std::string>& violations() const { return violations_; }
  // Cycles in which the MXU asked the TMEM for anything before its first release.
  int64_t early_tmem() const { return early_tmem_; }

  // Issues the jobs in order and releases each once its delay has passed and every older job
  // whose out range overlaps it is done; clocks until all are done. False on a timeout.
  bool RunBatch(std::vector<MmJob>& jobs);

 private:
  struct Step {
    bool issued = false, released = false;
  };

  Step Tick();
  void DrivePorts();
  // Blocks b and b+1 (mod ACT_BLOCKS) of every row, and their scales.
  void DriveActRam();
  void AcceptRequests();

  const isa::Config cfg_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Votpu_mxu> top_;
  TmemModel tmem_;
  ReadPort port_b_, port_a_;
  Golden* golden_;
  std::mt19937_64 rng_;
  int64_t cycle_ = 0;
  bool ever_released_ = false;
  int64_t early_tmem_ = 0;
  std::vector<std::string> violations_;
};

// What RandomMm may choose.
struct MmShape {
  int max_n = 12;
  int max_blocks = 8;
  uint32_t out_region = 4096;  // out goes below this TMEM word (small: MMs collide)
  // Out rows overlapping one another in the one case the MXU keeps the ISA's order: one pass
  // (m <= MCOLS), and out_stride >= 1 with ACC (out_stride 0 only without ACC).
  bool self_overlap = false;
};

// A legal MM of `shape` for the unit's configuration, reading the bench's DRAM region.
isa::Instr RandomMm(Values& v, const MmShape& shape);

}  // namespace otpu::rtl::units

#endif  // OTPU_TESTS_RTL_UNITS_MXU_BENCH_H_
