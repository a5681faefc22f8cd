// The Verilated otpu_core behind a plain C++ interface: clocking, reset, IMEM loading, host
// access to TMEM and ACT RAM, the DRAM ports as MemOffer/MemRequests, and the event bundle
// as CoreCycle. Every Verilator type stays in core_model.cc. One object owns one model and
// its own VerilatedContext, so several can coexist in a process.
#ifndef OTPU_SIM_RTL_CORE_MODEL_H_
#define OTPU_SIM_RTL_CORE_MODEL_H_

#include <array>
#include <cstdint>
#include <memory>

#include "sim/rtl/core_cycle.h"
#include "sim/rtl/dram_model.h"
#include "workloads/isa/instr.h"

class VerilatedContext;
class Votpu_core;

namespace otpu::rtl {

class CoreModel {
 public:
  // Builds the model and holds it in reset for a few cycles.
  CoreModel();
  ~CoreModel();
  CoreModel(const CoreModel&) = delete;
  CoreModel& operator=(const CoreModel&) = delete;

  // The built configuration: VERSION (D | MCOLS | LANES) and its parts.
  uint32_t version() const;
  int d() const { return int(version() >> 16); }
  int lanes() const { return int(version() & 0xFF); }

  // Holds reset for two cycles: the units and the sequencer forget everything; the memories
  // (IMEM, TMEM, ACT RAM) keep their contents.
  void Reset();

  // Idle only. Host writes go through the core's input registers and land an edge later:
  // back-to-back writes take a cycle each, and the first read or run after them takes one
  // more (FinishWrites). Reads take no cycle.
  // One IMEM entry.
  void WriteImem(uint32_t addr, const isa::Instr& in);
  // LANES words of TMEM from `addr` (a multiple of LANES).
  void ReadTmem(uint32_t addr, uint32_t* words);
  void WriteTmem(uint32_t addr, const uint32_t* words);
  // One ACT RAM block (D int8 values) and its scale.
  void ReadAct(int row, int block, int8_t* values, uint32_t* scale);
  void WriteAct(int row, int block, const int8_t* values, uint32_t scale);
  // Lets the last host write land (one cycle with every write strobe low), if one is pending.
  void FinishWrites();

  // Inputs sampled when a run starts.
  void SetRunInputs(const std::array<uint32_t, 8>& args, uint32_t prog_n, uint32_t win_len);
  void SetRun(bool run);

  // One cycle in three steps: drive the memory's offer and settle (clock low), read what
  // the core asks for and what happened, then raise the clock.
  void Drive(const MemOffer& offer);
  // Fills `req`; write data only for writes the offer accepts.
  void ReadRequests(const MemOffer& offer, MemRequests* req);
  // Fills `out` from the event bundle (cycle numbering is the caller's).
  void ReadEvents(CoreCycle* out);
  // The run's last cycle is this one (the halt event alone, cheaper than ReadEvents).
  bool HaltEvent() const;
  void Rise();

  // Status outputs.
  bool running() const;
  bool halted() const;
  bool error() const;
  uint32_t error_pc() const;
  int error_cause() const;
  uint32_t retired() const;
  uint32_t cycle() const;
  // Cycles each unit was refused by the TMEM arbiter in the current (or last) run.
  std::array<uint32_t, kCoreUnits> lose() const;

 private:
  // A full cycle with the memory idle (no ready, no responses).
  void IdleCycle();

  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Votpu_core> top_;
  bool write_pending_ = false;
};

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_CORE_MODEL_H_
