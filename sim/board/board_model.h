// The Verilated otpu_board (rtl/board/otpu_board.sv: the core, the register block of SPEC 4,
// the program loader, the counters and the trace unit) behind a plain C++ interface, clocked
// cycle by cycle against a DramModel by direct calls. One implementation per RTL
// configuration (VerilatedBoardModel<Top>, sim/board/verilated_board_model.h, instantiated for
// each Votpu_board_<config>): every Verilator type stays behind Create. The SystemC board
// (sim/board/board_top.h) runs it in quanta.
#ifndef OTPU_SIM_BOARD_BOARD_MODEL_H_
#define OTPU_SIM_BOARD_BOARD_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/rtl/assertions.h"
#include "sim/rtl/core_cycle.h"
#include "sim/rtl/dram_model.h"
#include "base/status.h"
#include "workloads/isa/config.h"

namespace otpu::board {

class BoardModel {
 public:
  // Builds the board of the built RTL configuration `cfg` is (sim/rtl/rtl_configs.h:
  // SelectBuiltConfig; InvalidArgument naming the field otherwise) and holds it in reset for a
  // few cycles. `dram` is borrowed: every cycle calls dram->Offer / dram->Accept with this
  // model's cycle number (cycle()). `regmap` (1 or 2) drives the board's map-version strap: a
  // v1 board has only the low registers (SPEC 4).
  static StatusOr<std::unique_ptr<BoardModel>> Create(const isa::Config& cfg,
                                                      rtl::DramModel* dram, int regmap = 2);
  virtual ~BoardModel() = default;

  // The built configuration this board is (its VERSION reads cfg.Version()).
  const isa::Config& config() const { return cfg_; }

  // Swaps the DRAM model between runs (tests change stall settings); borrowed.
  virtual void set_dram(rtl::DramModel* dram) = 0;

  // n clock cycles with no register access.
  virtual void Cycles(int64_t n) = 0;
  // One register-bus transaction at a BAR0 offset (4-aligned, < 0x1000). Takes the cycles
  // the bus takes (a few); the rest of a PCIe round trip is the caller's to add.
  virtual uint32_t ReadReg(uint32_t offset) = 0;
  virtual void WriteReg(uint32_t offset, uint32_t value) = 0;
  // Records [first, first + n) of the trace buffer through the DMA-window port (buffer index
  // order, wrapping at DEPTH), one 64-byte beat (8 records) a cycle.
  virtual void ReadTraceWindow(uint64_t first, size_t n, uint64_t* out) = 0;

  // Cycles since construction (the DRAM model's clock).
  virtual int64_t cycle() const = 0;
  // The core's event bundle each cycle of a run (the lossless `rtl` tap, before the trace
  // queue): OnRunStart when RUN rises, OnClock per run cycle, OnRunEnd at halt or error.
  // Only when a hook is added are events read each cycle (the tap costs time).
  virtual void AddHook(rtl::ClockHook* hook) = 0;
  // The SV assertions that failed so far (sim/rtl/assertions.h), in order. Each is also printed
  // on stderr as one rtl::AssertionLine and passed to the hooks (ClockHook::OnAssertion).
  virtual const std::vector<rtl::AssertionFailure>& assertions() const = 0;

  // Build parameters, for tests (the host learns them from VERSION and CAPS); the same in
  // every configuration.
  static int64_t TraceDepth();
  static int TraceQueueDepth();
  static int TraceDrain();  // capture-queue lines into the buffer a cycle

  // Instrumented models (docs/regress.md "Waves" and "Code coverage"): a build configured with
  // -DOTPU_RTL_INSTRUMENT=ON verilates the boards with --trace-fst and, unless
  // -DOTPU_RTL_INSTRUMENT_COVERAGE=OFF, --coverage (CountsCoverage); the default build does
  // not (waves and coverage counters cost simulation and build time).
  static bool Instrumented();
  static bool CountsCoverage();
  // Waves of run `run` (0 = the first run of the model: RUN rising) from run cycle `first` to
  // `last`, written as an FST to `path` by the next board model constructed in this process.
  // A process-wide request, like Verilator's command arguments: the regression sets it before
  // its one board is made. FailedPrecondition when the build is not instrumented.
  struct WavesRequest {
    std::string path;
    int run = 0;
    int64_t first = 0, last = 0;
  };
  static Status RequestWaves(const WavesRequest& request);
  // The request set by RequestWaves (path "" when none); the models read it when made.
  static const WavesRequest& Waves();
  // Writes the line and toggle coverage counted so far by the live models of this process to
  // `path` (verilator_coverage's .dat). FailedPrecondition when the build is not instrumented
  // or no model lives.
  static Status WriteCodeCoverage(const std::string& path);

 protected:
  explicit BoardModel(const isa::Config& cfg) : cfg_(cfg) {}
  BoardModel(const BoardModel&) = delete;
  BoardModel& operator=(const BoardModel&) = delete;

 private:
  isa::Config cfg_;
};

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_BOARD_MODEL_H_
