// The sequencer: fetch, registers, hardware loops, legality, and analytic timing. The units'
// semantics live in units.h, their legality in checks.h, the arithmetic in fp32.h.
#include "sim/isa/isa_sim.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "sim/isa/checks.h"
#include "sim/isa/units.h"
#include "workloads/isa/cost.h"
#include "workloads/isa/disasm.h"

namespace otpu::sim {
namespace {

using isa::Opcode;

// "pc 12 (MM): reason".
Status AtPc(uint32_t pc, const isa::Instr& in, const Status& reason) {
  return reason.WithContext("pc " + std::to_string(pc) + " (" + isa::InstrName(in) + ")");
}

Status AtPc(uint32_t pc, const isa::Instr& in, std::string reason) {
  return AtPc(pc, in, InvalidArgument(std::move(reason)));
}

// One active hardware loop: the body [start, end) still to run `remaining` more times
// (counting the iteration in progress).
struct LoopFrame {
  uint64_t start = 0, end = 0;
  uint64_t remaining = 0;
};

// The instruction as dispatched: w1..w3 hold the effective operands, ra/rb/rc are cleared.
isa::Instr Resolved(const isa::Instr& in, const uint32_t* regs) {
  isa::Instr out = in;
  out.w[1] = regs[in.ra()] + in.w[1];
  out.w[2] = regs[in.rb()] + in.w[2];
  out.w[3] = regs[in.rc()] + in.w[3];
  out.w[0] &= ~0x000FFF00u;
  return out;
}

}  // namespace

struct IsaSim::State {
  State(const isa::Config& c, SparseMemory* d)
      : cfg(c),
        dram(d),
        tmem(c.TMEM_WORDS, 0),
        act(c),
        machine{cfg, tmem, act, *d, {}, {}, {}, {}} {}

  isa::Config cfg;
  SparseMemory* dram;
  std::vector<isa::Instr> imem;
  std::vector<uint32_t> tmem;
  ActRam act;
  Machine machine;
};

namespace {
SparseMemory* NonNull(SparseMemory* dram) {
  OTPU_CHECK(dram != nullptr);
  return dram;
}
}  // namespace

IsaSim::IsaSim(const isa::Config& cfg, SparseMemory* dram)
    : state_(std::make_shared<State>(cfg, NonNull(dram))) {}

Status IsaSim::LoadProgram(const std::vector<isa::Instr>& code) {
  if (code.size() > state_->cfg.IMEM_WORDS) {
    return InvalidArgument("program of " + std::to_string(code.size()) +
                           " instructions does not fit IMEM (IMEM_WORDS=" +
                           std::to_string(state_->cfg.IMEM_WORDS) + ")");
  }
  state_->imem = code;
  return OkStatus();
}

const std::vector<uint32_t>& IsaSim::tmem() const { return state_->tmem; }
std::vector<uint32_t>& IsaSim::tmem() { return state_->tmem; }
SparseMemory& IsaSim::dram() { return *state_->dram; }
const isa::Config& IsaSim::config() const { return state_->cfg; }
const ActRam& IsaSim::act_ram() const { return state_->act; }
ActRam& IsaSim::act_ram() { return state_->act; }

StatusOr<trace::RunEvents> IsaSim::Run(const IsaRunOptions& opts) {
  State& s = *state_;
  const isa::Config& cfg = s.cfg;
  const MemSizes mem{s.tmem.size(), s.dram->size()};
  const uint64_t size = s.imem.size();

  uint32_t regs[isa::kNumRegs] = {};
  for (int i = 0; i < isa::kNumArgs; ++i) regs[isa::kFirstArgReg + i] = opts.args[i];

  trace::RunEvents ev;
  int64_t now = 0;        // end of the previous unit instruction
  int64_t unit_idx = 0;
  LoopFrame loops[isa::kMaxLoopDepth];
  int depth = 0;
  uint64_t pc = 0;

  while (true) {
    if (pc >= size) {
      return InvalidArgument("pc " + std::to_string(pc) + ": ran past the end of the program (" +
                             std::to_string(size) + " instructions) without HALT");
    }
    const isa::Instr& in = s.imem[pc];
    if (ev.retired >= opts.max_instructions) {
      return AtPc(pc, in, "max_instructions=" + std::to_string(opts.max_instructions) +
                              " exceeded (a runaway loop?)");
    }
    ++ev.retired;
    uint64_t next = pc + 1;
    const auto op = static_cast<Opcode>(in.opcode());
    isa::Unit unit;
    if (!isa::IsOpcode(in.opcode())) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", in.opcode());
      return AtPc(pc, in, std::string("opcode ") + hex + " is not defined");
    } else if (op == Opcode::kHALT) {
      break;
    } else if (op == Opcode::kLI) {
      if (in.rd() != 0) regs[in.rd()] = in.w[1];
    } else if (op == Opcode::kADDI) {
      if (in.rd() != 0) regs[in.rd()] = regs[in.ra()] + in.w[1];
    } else if (op == Opcode::kLOOP) {
      const uint64_t count = regs[in.ra()] + in.w[1];
      const uint64_t body = in.w[4];
      const uint64_t end = pc + 1 + body;
      if (body == 0) return AtPc(pc, in, "LOOP body of 0 instructions");
      if (depth == isa::kMaxLoopDepth) {
        return AtPc(pc, in, "LOOP nested more than " + std::to_string(isa::kMaxLoopDepth) +
                                " deep");
      }
      if (depth > 0 && end > loops[depth - 1].end) {
        return AtPc(pc, in, "LOOP body [" + std::to_string(pc + 1) + ", " + std::to_string(end) +
                                ") runs past the end of its enclosing body (pc " +
                                std::to_string(loops[depth - 1].end) + ")");
      }
      if (end > size) {
        return AtPc(pc, in, "LOOP body [" + std::to_string(pc + 1) + ", " + std::to_string(end) +
                                ") runs past the end of the program (" + std::to_string(size) +
                                " instructions)");
      }
      if (count == 0) {
        next = end;
      } else {
        loops[depth++] = LoopFrame{pc + 1, end, count};
      }
    } else if (isa::UnitOf(op, &unit)) {
      switch (op) {
        case Opcode::kLD:
        case Opcode::kST: {
          isa::DmaOp d = isa::DecodeDma(in, regs);
          if (Status st = CheckDma(d, cfg, mem); !st.ok()) return AtPc(pc, in, st);
          op == Opcode::kLD ? ExecLd(d, s.machine) : ExecSt(d, s.machine);
          break;
        }
        case Opcode::kMM: {
          isa::MmOp d = isa::DecodeMm(in, regs);
          if (Status st = CheckMm(d, cfg, mem); !st.ok()) return AtPc(pc, in, st);
          ExecMm(d, s.machine);
          break;
        }
        case Opcode::kQACT: {
          isa::QactOp d = isa::DecodeQact(in, regs);
          if (Status st = CheckQact(d, cfg, mem); !st.ok()) return AtPc(pc, in, st);
          ExecQact(d, s.machine);
          break;
        }
        case Opcode::kQST: {
          isa::QstOp d = isa::DecodeQst(in, regs);
          if (Status st = CheckQst(d, cfg, mem); !st.ok()) return AtPc(pc, in, st);
          ExecQst(d, s.machine);
          break;
        }
        default: {  // VOP
          isa::VopOp d = isa::DecodeVop(in, regs);
          if (Status st = CheckVop(d, in.w[4] & 0xFF, cfg, mem); !st.ok()) return AtPc(pc, in, st);
          ExecVop(d, s.machine);
          break;
        }
      }
      // Analytic timing: back to back, each lasting its nominal work.
      const isa::Cost cost = isa::CostOf(in, regs, cfg);
      if (opts.record_events) {
        trace::InstrEvent e;
        e.idx = unit_idx;
        e.pc = uint32_t(pc);
        e.unit = unit;
        e.resolved = Resolved(in, regs);
        e.dispatch = e.ready = e.start = now;
        e.release = op == Opcode::kMM ? now : -1;
        e.end = now + cost.work;
        e.work = cost.work;
        e.port_b = cost.port_b;
        e.port_a = cost.port_a;
        ev.instrs.push_back(std::move(e));
      }
      ++unit_idx;
      now += cost.work;
    }  // NOP: nothing

    // Close every loop body that ends here: repeat it, or leave it (possibly several at once).
    while (depth > 0 && next == loops[depth - 1].end) {
      if (--loops[depth - 1].remaining > 0) {
        next = loops[depth - 1].start;
        break;
      }
      --depth;
    }
    pc = next;
  }
  ev.cycles = std::max<int64_t>(1, now);
  return ev;
}

}  // namespace otpu::sim
