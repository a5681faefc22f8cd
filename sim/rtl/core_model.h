// The Verilated otpu_core behind a plain C++ interface: clocking, reset, IMEM loading, host
// access to TMEM and ACT RAM, the DRAM ports as MemOffer/MemRequests, and the event bundle
// as CoreCycle. One implementation per RTL configuration (VerilatedCoreModel<Top>,
// sim/rtl/verilated_core_model.h, instantiated for each Votpu_core_<config>); every Verilator
// type stays behind MakeCoreModel. One object owns one model and its own VerilatedContext, so
// several (of any configurations) can coexist in a process.
#ifndef OTPU_SIM_RTL_CORE_MODEL_H_
#define OTPU_SIM_RTL_CORE_MODEL_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "sim/rtl/core_cycle.h"
#include "sim/rtl/dram_model.h"
#include "base/status.h"
#include "workloads/isa/instr.h"

namespace otpu::rtl {

class CoreModel {
 public:
  // Builds the model of the built configuration `name` (rtl_configs.h) and holds it in reset
  // for a few cycles; InvalidArgument naming the configurations built otherwise.
  static StatusOr<std::unique_ptr<CoreModel>> Create(const std::string& name);
  virtual ~CoreModel() = default;

  // The built configuration: VERSION (D | MCOLS | LANES) and its parts.
  virtual uint32_t version() const = 0;
  int d() const { return int(version() >> 16); }
  int lanes() const { return int(version() & 0xFF); }

  // Holds reset for two cycles: the units and the sequencer forget everything; the memories
  // (IMEM, TMEM, ACT RAM) keep their contents.
  virtual void Reset() = 0;

  // Idle only. Host writes go through the core's input registers and land an edge later:
  // back-to-back writes take a cycle each, and the first read or run after them takes one
  // more (FinishWrites). Reads take no cycle.
  // One IMEM entry.
  virtual void WriteImem(uint32_t addr, const isa::Instr& in) = 0;
  // LANES words of TMEM from `addr` (a multiple of LANES).
  virtual void ReadTmem(uint32_t addr, uint32_t* words) = 0;
  virtual void WriteTmem(uint32_t addr, const uint32_t* words) = 0;
  // One ACT RAM block (D int8 values) and its scale.
  virtual void ReadAct(int row, int block, int8_t* values, uint32_t* scale) = 0;
  virtual void WriteAct(int row, int block, const int8_t* values, uint32_t scale) = 0;
  // Lets the last host write land (one cycle with every write strobe low), if one is pending.
  virtual void FinishWrites() = 0;

  // Inputs sampled when a run starts.
  virtual void SetRunInputs(const std::array<uint32_t, 8>& args, uint32_t prog_n,
                            uint32_t win_len) = 0;
  virtual void SetRun(bool run) = 0;

  // One cycle in three steps: drive the memory's offer and settle (clock low), read what
  // the core asks for and what happened, then raise the clock.
  virtual void Drive(const MemOffer& offer) = 0;
  // Fills `req`; write data only for writes the offer accepts.
  virtual void ReadRequests(const MemOffer& offer, MemRequests* req) = 0;
  // Fills `out` from the event bundle (cycle numbering is the caller's).
  virtual void ReadEvents(CoreCycle* out) = 0;
  // The run's last cycle is this one (the halt event alone, cheaper than ReadEvents).
  virtual bool HaltEvent() const = 0;
  virtual void Rise() = 0;

  // Status outputs.
  virtual bool running() const = 0;
  virtual bool halted() const = 0;
  virtual bool error() const = 0;
  virtual uint32_t error_pc() const = 0;
  virtual int error_cause() const = 0;
  virtual uint32_t retired() const = 0;
  virtual uint32_t cycle() const = 0;
  // Cycles each unit was refused by the TMEM arbiter in the current (or last) run.
  virtual std::array<uint32_t, kCoreUnits> lose() const = 0;

 protected:
  CoreModel() = default;
  CoreModel(const CoreModel&) = delete;
  CoreModel& operator=(const CoreModel&) = delete;
};

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_CORE_MODEL_H_
