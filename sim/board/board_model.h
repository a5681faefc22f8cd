// The Verilated otpu_board (rtl/board/otpu_board.sv: the core, the register block of SPEC 4,
// the program loader, the counters and the trace unit) behind a plain C++ interface, clocked
// cycle by cycle against a DramModel by direct calls. Every Verilator type stays in
// board_model.cc. The SystemC board (sim/board/board_top.h) runs it in quanta.
//
// API FIXED BY THE LEAD; implemented by the board-RTL helper, used by the SystemC helper.
#ifndef OTPU_SIM_BOARD_BOARD_MODEL_H_
#define OTPU_SIM_BOARD_BOARD_MODEL_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/rtl/core_cycle.h"
#include "sim/rtl/dram_model.h"

class VerilatedContext;
class Votpu_board;

namespace otpu::board {

class BoardModel {
 public:
  // Builds the model and holds it in reset for a few cycles. `dram` is borrowed: every cycle
  // calls dram->Offer / dram->Accept with this model's cycle number (cycle()). `regmap` (1 or 2)
  // drives the board's map-version strap: a v1 board has only the low registers (SPEC 4).
  explicit BoardModel(rtl::DramModel* dram, int regmap = 2);
  ~BoardModel();
  BoardModel(const BoardModel&) = delete;
  BoardModel& operator=(const BoardModel&) = delete;

  // Swaps the DRAM model between runs (tests change stall settings); borrowed.
  void set_dram(rtl::DramModel* dram) { dram_ = dram; }

  // n clock cycles with no register access.
  void Cycles(int64_t n);
  // One register-bus transaction at a BAR0 offset (4-aligned, < 0x1000). Takes the cycles
  // the bus takes (a few); the rest of a PCIe round trip is the caller's to add.
  uint32_t ReadReg(uint32_t offset);
  void WriteReg(uint32_t offset, uint32_t value);
  // Records [first, first + n) of the trace buffer through the DMA-window port (buffer index
  // order, wrapping at DEPTH), one 64-byte beat (8 records) a cycle.
  void ReadTraceWindow(uint64_t first, size_t n, uint64_t* out);

  // Cycles since construction (the DRAM model's clock).
  int64_t cycle() const { return cycle_; }
  // The core's event bundle each cycle of a run (the lossless `rtl` tap, before the trace
  // queue): OnRunStart when RUN rises, OnClock per run cycle, OnRunEnd at halt or error.
  void AddHook(rtl::ClockHook* hook) { hooks_.push_back(hook); }
  // Only when a hook is added are events read each cycle (the tap costs time).

  // Build parameters, for tests (the host learns them from VERSION and CAPS).
  static int64_t TraceDepth();
  static int TraceQueueDepth();

 private:
  // One clock cycle: the DRAM model serves the ports, a register request (if reg_valid) is
  // presented, the event tap runs, the clock rises; *rdata (if given) gets the read's answer.
  void Cycle(bool reg_valid, bool reg_we, uint32_t offset, uint32_t wdata, uint32_t* rdata);
  // VERSION through the bus, in a cycle of its own (construction: before the clock starts).
  uint32_t ReadVersion();

  rtl::DramModel* dram_;
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Votpu_board> top_;
  std::vector<rtl::ClockHook*> hooks_;
  int64_t cycle_ = 0;
  int chunk_bytes_ = 0;             // D, from VERSION
  bool in_run_ = false;             // the tap is inside a run
  int64_t run_cycle_ = 0;           // the run's next cycle number
  rtl::CoreCycle events_;
  rtl::MemOffer offer_;
  rtl::MemRequests req_;
  bool axi_err_pending_ = false;    // drive axi_err_i next cycle
  const rtl::DramModel* err_reported_for_ = nullptr;  // whose access error was reported
};

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_BOARD_MODEL_H_
