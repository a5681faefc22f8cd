// The bit-exact ISA simulator: the golden model of docs/isa.md. Executes a program
// sequentially on TMEM, ACT RAM and a DRAM it is given, and reports analytic timing
// (instructions back to back, each lasting its nominal work).
#ifndef OTPU_SIM_ISA_ISA_SIM_H_
#define OTPU_SIM_ISA_ISA_SIM_H_

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/isa/act_ram.h"
#include "workloads/isa/run_events.h"
#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"

namespace otpu::sim {

struct IsaRunOptions {
  std::array<uint32_t, 8> args{};   // ARG0..7 -> R8..R15
  bool record_events = true;        // fill trace::RunEvents::instrs
  int64_t max_instructions = int64_t{1} << 34;  // dispatches before giving up (runaway loops)
};

class IsaSim {
 public:
  // `dram` is borrowed and must outlive the simulator; its size is the DRAM the program sees.
  IsaSim(const isa::Config& cfg, SparseMemory* dram);

  // Copies the program into IMEM; InvalidArgument when it does not fit IMEM_WORDS.
  Status LoadProgram(const std::vector<isa::Instr>& code);
  Status LoadProgram(const isa::Program& prog) { return LoadProgram(prog.code); }

  // Runs from pc 0 to HALT. An illegal instruction returns InvalidArgument naming the pc,
  // e.g. "pc 12 (MM): k=100 is not a multiple of D=32"; state changes before it stay.
  StatusOr<trace::RunEvents> Run(const IsaRunOptions& opts);

  // Memories, for tests and for comparing with the RTL.
  const std::vector<uint32_t>& tmem() const;
  std::vector<uint32_t>& tmem();
  SparseMemory& dram();
  const isa::Config& config() const;
  // ACT RAM (int8 values and per-block scales), for tests and for comparing with the RTL.
  const ActRam& act_ram() const;
  ActRam& act_ram();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace otpu::sim

#endif  // OTPU_SIM_ISA_ISA_SIM_H_
