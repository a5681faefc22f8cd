// The board's core clock domain (SPEC 3.5): owns the Verilated board (BoardModel) and runs it
// in ONE SystemC thread, in quanta of cycles kept by a tlm_quantumkeeper (temporal
// decoupling), never past the horizon the host has granted. The host grants time only as it
// uses the board, so at every host access the core has run exactly to that access's time.
// C++17 (SystemC).
#ifndef OTPU_SIM_BOARD_CORE_MODULE_H_
#define OTPU_SIM_BOARD_CORE_MODULE_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include <systemc>

#include "sim/board/board_model.h"
#include "sim/rtl/dram_model.h"
#include "workloads/isa/config.h"

namespace otpu::board {

// The model's core clock: CORE_KHZ 100000 (SPEC 4), one cycle every 10 ns.
inline constexpr int64_t kCoreKhz = 100000;
inline constexpr int64_t kCorePeriodPs = 1000000000 / kCoreKhz;
// n core cycles as simulated time (the time resolution is 1 ps, SystemC's default).
sc_core::sc_time CyclesToTime(int64_t n);

class CoreModule : public sc_core::sc_module {
 public:
  // The board of the built RTL configuration `cfg` is (checked by SimBoard::Create); `dram`
  // is borrowed (the DRAM module's model); `regmap` is the board's map version.
  CoreModule(sc_core::sc_module_name name, const isa::Config& cfg, rtl::DramModel* dram,
             int regmap);

  // Lets the core run until simulated time `until` (the end of the host access being
  // served); the thread never runs a cycle that ends after it. Call between sc_start()s.
  void GrantUntil(const sc_core::sc_time& until);

  // Cycles the core has run since time 0 (reset cycles come before), and the simulated time
  // it has reached: cycles() core periods.
  int64_t cycles() const { return board_->cycle() - cycle0_; }
  sc_core::sc_time time() const;

  // One register-bus transaction, run when the core is at the access's time (between
  // quanta); it takes the bus's few cycles.
  uint32_t ReadReg(uint32_t offset) { return board_->ReadReg(offset); }
  void WriteReg(uint32_t offset, uint32_t value) { board_->WriteReg(offset, value); }
  // Trace records [first, first + n) through the board's DMA-window port (a beat a cycle).
  void ReadTraceWindow(uint64_t first, size_t n, uint64_t* out) {
    board_->ReadTraceWindow(first, n, out);
  }

  BoardModel& board() { return *board_; }

 private:
  SC_HAS_PROCESS(CoreModule);
  // The SC_THREAD: runs granted cycles in quanta, syncing with SystemC time at each quantum
  // boundary and at the horizon, then sleeps until more time is granted.
  void Run();

  std::unique_ptr<BoardModel> board_;
  int64_t cycle0_;        // board_.cycle() at time 0 (after the constructor's reset)
  int64_t horizon_ = 0;   // cycles since time 0 the core may reach
  sc_core::sc_event granted_;
};

}  // namespace otpu::board

#endif  // OTPU_SIM_BOARD_CORE_MODULE_H_
