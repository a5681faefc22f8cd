// The RTL harness: the Verilated otpu_core with a DRAM model, run like the ISA simulator.
// Load a program, give it a DRAM (SparseMemory), run to HALT, ERROR or a cycle limit, and get
// back the cycles, the event stream as trace::RunEvents, the per-window counters and the
// memories. Add-ons see every cycle through ClockHooks.
#ifndef OTPU_SIM_RTL_RTL_HARNESS_H_
#define OTPU_SIM_RTL_RTL_HARNESS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/isa/act_ram.h"
#include "workloads/isa/run_events.h"
#include "sim/rtl/core_cycle.h"
#include "sim/rtl/dram_model.h"
#include "sim/rtl/event_collector.h"
#include "sim/rtl/rtl_configs.h"
#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"

namespace otpu::rtl {

class CoreModel;

// Why a run stopped.
enum class Stop { kHalt, kError, kCycleLimit };
// "halt", "error", "cycle limit".
const char* StopName(Stop stop);

struct RtlRunOptions {
  std::array<uint32_t, 8> args{};          // ARG0..7 -> R8..R15
  DramOptions mem;                         // ideal or stalling memory
  int64_t max_cycles = int64_t{1} << 32;   // the run stops with kCycleLimit after these
  uint32_t window = 64;                    // per-window counter window, cycles
  // Read the event bundle every cycle (instructions, windows, hooks). Off, a run reads only
  // the halt: cycles, ports and memories are still right; this measures the tap's cost.
  bool record_events = true;
};

struct RtlRun {
  Stop stop = Stop::kHalt;
  // kError: the pc and cause the core reports, and "pc 12 (MM): DRAM range outside DRAM"-style
  // text (the ISA simulator's message for the same pc names the same class of fault).
  uint32_t error_pc = 0;
  int error_cause = 0;
  std::string error;
  trace::RunEvents events;                   // cycles, retired, instructions
  std::vector<WindowRecord> windows;
  std::array<int64_t, 4> ports{};          // bmxu bdma amxu aq
  std::array<int64_t, kCoreUnits> lose{};  // cycles each unit was refused by TMEM
  DramStats dram;
  double seconds = 0;                      // wall time of the cycle loop (cycles / seconds = speed)
};

class RtlHarness {
 public:
  // A harness on the Verilated core of the built configuration `cfg` is (rtl_configs.h:
  // SelectBuiltConfig, so `sim` and `board` both work in one process); InvalidArgument naming
  // the field when `cfg` matches none of them.
  static StatusOr<std::unique_ptr<RtlHarness>> Create(const isa::Config& cfg);
  ~RtlHarness();

  // Copies the program into IMEM; InvalidArgument when it does not fit IMEM_WORDS.
  Status LoadProgram(const std::vector<isa::Instr>& code);
  Status LoadProgram(const isa::Program& prog) { return LoadProgram(prog.code); }

  // Runs the loaded program from pc 0 on `dram` (borrowed for the run; its size must be the
  // configuration's DRAM_BYTES). An ERROR or the cycle limit is a result, not a failure;
  // failures are a DRAM access outside `dram` or a broken event rule (Internal, naming it).
  StatusOr<RtlRun> Run(SparseMemory* dram, const RtlRunOptions& opts);

  // Hooks see every cycle of every later run; borrowed, called in the order added.
  void AddHook(ClockHook* hook) { hooks_.push_back(hook); }

  // TMEM words [first, first + count) (between runs).
  std::vector<uint32_t> ReadTmem(uint32_t first, uint32_t count);
  void WriteTmem(uint32_t first, const std::vector<uint32_t>& words);
  // The whole ACT RAM, and loading it (between runs).
  void ReadActRam(sim::ActRam* act);
  void WriteActRam(const sim::ActRam& act);

  const isa::Config& config() const { return cfg_; }

 private:
  RtlHarness(const isa::Config& cfg, std::unique_ptr<CoreModel> model);

  isa::Config cfg_;
  std::unique_ptr<CoreModel> model_;
  std::vector<isa::Instr> code_;   // the loaded program, to name the pc of an ERROR
  uint32_t prog_n_ = 0;
  std::vector<ClockHook*> hooks_;
};

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_RTL_HARNESS_H_
