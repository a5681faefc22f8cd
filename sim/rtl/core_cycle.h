// One cycle of the core's event bundle (docs/rtl-core.md "Events") as plain C++, and the
// hook interface through which add-ons (the event collector, a trace-unit model, a board
// model) see every cycle of a run. No Verilator types: hooks build without the model.
#ifndef OTPU_SIM_RTL_CORE_CYCLE_H_
#define OTPU_SIM_RTL_CORE_CYCLE_H_

#include <array>
#include <cstdint>

#include "workloads/isa/instr.h"

namespace otpu::rtl {

struct AssertionFailure;

inline constexpr int kCoreUnits = 4;      // DMA MXU QUANT VPU (unit ids 0..3)
inline constexpr int kWindowColumns = 15; // bm bd am aq mx fm fq fv fc bs as ms mb ff ld

// Bits of the per-cycle activity word (otpu_core_pkg::act_t, most significant first there).
struct Activity {
  uint64_t bits = 0;
  int fifo_level() const { return int(bits & 0xFFFF); }
  bool mxu_bp() const { return bits >> 16 & 1; }
  bool mxu_starve() const { return bits >> 17 & 1; }
  bool a_wait() const { return bits >> 18 & 1; }
  bool b_wait() const { return bits >> 19 & 1; }
  bool a_quant() const { return bits >> 20 & 1; }
  bool a_mxu() const { return bits >> 21 & 1; }
  bool b_wr_dma() const { return bits >> 22 & 1; }
  bool b_rd_dma() const { return bits >> 23 & 1; }
  bool b_rd_mxu() const { return bits >> 24 & 1; }
  bool deny(int unit) const { return bits >> (25 + unit) & 1; }
  bool busy(int unit) const { return bits >> (29 + unit) & 1; }
};

// Everything that happened in one core cycle. Only the entries whose `valid` is set mean
// anything; `any` says whether one of them is.
struct CoreCycle {
  int64_t cycle = 0;    // cycles since the run started (cycle 0)
  bool any = false;

  struct Dispatch {
    bool valid = false;
    int slot = 0;
    uint32_t pc = 0;
    isa::Instr instr;   // resolved: w1..w3 hold e1..e3
  } dispatch;

  struct Start {
    bool valid = false;
    int slot = 0;
    uint32_t ready = 0;  // low 32 bits of the cycle its dependencies cleared
  };
  std::array<Start, kCoreUnits> start;

  struct Release {
    bool valid = false;
    int slot = 0;
  } release;

  struct End {
    bool valid = false;
    int slot = 0;
    std::array<uint32_t, 4> counters{};  // MXU: starve bp frz deny; QUANT, VPU: frz
  };
  std::array<End, kCoreUnits> end;

  struct Halt {
    bool valid = false;
    std::array<uint32_t, 4> ports{};   // bmxu bdma amxu aq: the run's port transfers
  } halt;

  struct Window {
    bool valid = false;
    uint32_t n = 0;                            // cycles in the window
    std::array<uint32_t, kWindowColumns> columns{};
  } window;

  Activity activity;
};

// An add-on that sees every cycle of every run. Hooks are borrowed by the harness and called
// in the order they were added.
class ClockHook {
 public:
  virtual ~ClockHook() = default;
  // A run starts (cycle 0 comes next).
  virtual void OnRunStart() {}
  // After each cycle's outputs have settled, before the clock edge that ends it.
  virtual void OnClock(const CoreCycle& cycle) = 0;
  // The run stopped (halt, error or cycle limit), after its last OnClock.
  virtual void OnRunEnd() {}
  // The run stopped at an illegal instruction: the core's error pc and cause
  // (otpu_core_pkg::err_e, sim/isa/checks.h ErrorCause), just before OnRunEnd. Board models
  // only (the board's register map has STATUS.ERROR alone).
  virtual void OnRunError(uint32_t pc, int cause) {
    (void)pc;
    (void)cause;
  }
  // An SV assertion failed (sim/rtl/assertions.h), after the cycle it failed in.
  virtual void OnAssertion(const AssertionFailure& failure) { (void)failure; }
};

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_CORE_CYCLE_H_
