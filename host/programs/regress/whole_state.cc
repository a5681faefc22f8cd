#include "host/programs/regress/whole_state.h"

#include <algorithm>

#include "base/strings.h"
#include "host/card.h"
#include "workloads/isa/disasm.h"

namespace otpu::regress {
namespace {

using workloads::DramRange;

// Calls `f(lo, hi)` for each half-open range of `space` that `in` (effective operands) writes.
template <typename F>
void ForEachWrite(const isa::Config& cfg, const isa::Instr& in, const std::string& space, F f) {
  constexpr uint32_t kZero[isa::kNumRegs] = {};
  const auto op = static_cast<isa::Opcode>(in.opcode());
  if (space == "DRAM" && op == isa::Opcode::kST) {
    const isa::DmaOp d = isa::DecodeDma(in, kZero);
    for (uint64_t r = 0; r < d.rows; ++r) {
      const uint64_t lo = d.dram.imm + r * d.dram_stride;
      f(lo, lo + 4 * uint64_t(d.n));
    }
  } else if (space == "DRAM" && op == isa::Opcode::kQST) {
    const isa::QstOp q = isa::DecodeQst(in, kZero);
    const uint64_t s = q.perrow ? 1 : q.n / uint32_t(cfg.D);
    for (uint64_t r = 0; r < q.rows; ++r) {
      const uint64_t row = q.dst.imm + r * q.dst_stride;
      if (q.elem_stride == 1) {
        f(row, row + q.n);
      } else {
        for (uint64_t j = 0; j < q.n; ++j) f(row + j * q.elem_stride, row + j * q.elem_stride + 1);
      }
      f(q.scales.imm + 4 * r * s, q.scales.imm + 4 * (r + 1) * s);
    }
  } else if (space == "TMEM" && op == isa::Opcode::kLD) {
    const isa::DmaOp d = isa::DecodeDma(in, kZero);
    for (uint64_t r = 0; r < d.rows; ++r) {
      f(d.tmem.imm + r * d.tmem_stride, d.tmem.imm + r * d.tmem_stride + d.n);
    }
  } else if (space == "TMEM" && op == isa::Opcode::kMM) {
    const isa::MmOp m = isa::DecodeMm(in, kZero);
    for (uint64_t i = 0; i < m.m; ++i) f(m.out.imm + i * m.out_stride, m.out.imm + i * m.out_stride + m.n);
  } else if (space == "TMEM" && op == isa::Opcode::kVOP) {
    const isa::VopOp v = isa::DecodeVop(in, kZero);
    const uint64_t len = isa::IsReductionFn(v.fn) ? 1 : v.n;
    for (uint64_t r = 0; r < v.m; ++r) f(v.dst.imm + r * v.dst_stride, v.dst.imm + r * v.dst_stride + len);
  } else if (space == "ACT" && op == isa::Opcode::kQACT) {
    const isa::QactOp q = isa::DecodeQact(in, kZero);
    const uint64_t blocks = q.k / uint32_t(cfg.D), per_row = uint64_t(cfg.ACT_BLOCKS);
    for (uint64_t r = 0; r < q.rows; ++r) {
      const uint64_t lo = (q.act_row + r) * per_row + q.act_block;
      f(lo, lo + blocks);
    }
  }
}

// Which memory the dump's word at `addr` holds: "TMEM word 0x40", "ACT row 3 block 2 lane 5",
// or "DRAM 0x100000"; `*space` and `*key` for WriteLog::LastWriter.
std::string Place(const isa::Config& cfg, const workloads::StateDump& dump, uint64_t addr,
                  std::string* space, uint64_t* key) {
  if (addr >= dump.tmem.addr && addr < dump.tmem.addr + dump.tmem.bytes) {
    *space = "TMEM";
    *key = (addr - dump.tmem.addr) / 4;
    return StrFormat("TMEM word 0x%llx", (unsigned long long)*key);
  }
  if (addr >= dump.act.addr && addr < dump.act.addr + dump.act.bytes) {
    const uint64_t word = (addr - dump.act.addr) / 4, d = uint64_t(cfg.D);
    const uint64_t lane = word % d, row = word / d % uint64_t(cfg.ACT_ROWS);
    const uint64_t block = word / d / uint64_t(cfg.ACT_ROWS);
    *space = "ACT";
    *key = row * uint64_t(cfg.ACT_BLOCKS) + block;
    return StrFormat("ACT row %llu block %llu element %llu (value x scale)",
                     (unsigned long long)row, (unsigned long long)block,
                     (unsigned long long)(block * d + lane));
  }
  *space = "DRAM";
  *key = addr;
  return StrFormat("DRAM 0x%llx", (unsigned long long)(addr & ~uint64_t{3}));
}

}  // namespace

Status WriteLog::Load(const workloads::WorkloadRun& run) {
  step_ = -1;
  entries_.clear();
  return isa_->Load(run);
}

Status WriteLog::WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) {
  return isa_->WriteDram(addr, bytes);
}

StatusOr<trace::RunEvents> WriteLog::Run(const workloads::Step& step) {
  ++step_;
  workloads::Step all = step;
  all.traced = true;  // the events of every step, not only the traced ones
  ASSIGN_OR_RETURN(trace::RunEvents ev, isa_->Run(all));
  for (const trace::InstrEvent& e : ev.instrs) entries_.push_back({step_, e.idx, e.pc, e.resolved});
  if (!step.traced) ev.instrs.clear();
  return ev;
}

std::vector<DramRange> WriteLog::DramWrites(const isa::Config& cfg) const {
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const Entry& e : entries_) {
    ForEachWrite(cfg, e.resolved, "DRAM", [&](uint64_t lo, uint64_t hi) { spans.push_back({lo, hi}); });
  }
  std::sort(spans.begin(), spans.end());
  std::vector<DramRange> out;
  for (const auto& [lo, hi] : spans) {
    if (!out.empty() && lo <= out.back().addr + out.back().bytes) {
      out.back().bytes = std::max(out.back().addr + out.back().bytes, hi) - out.back().addr;
    } else {
      out.push_back({lo, hi - lo});
    }
  }
  return out;
}

std::string WriteLog::LastWriter(const isa::Config& cfg, const std::string& space,
                                 uint64_t addr) const {
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    bool hit = false;
    ForEachWrite(cfg, it->resolved, space,
                 [&](uint64_t lo, uint64_t hi) { hit = hit || (addr >= lo && addr < hi); });
    if (hit) {
      constexpr uint32_t kZero[isa::kNumRegs] = {};
      return StrFormat("step %d unit instruction #%lld at pc %u: %s", it->step,
                       (long long)it->idx, it->pc,
                       isa::Disassemble(it->resolved, kZero).c_str());
    }
  }
  return "";
}

Status DumpOnIsa(lens::IsaStepRunner& isa, const workloads::StateDump& dump) {
  sim::IsaSim* sim = isa.sim();
  if (sim == nullptr) return Internal("state dump: the ISA simulator ran nothing");
  for (const workloads::DramWrite& w : dump.writes) sim->dram().Write(w.addr, w.bytes.data(), w.bytes.size());
  RETURN_IF_ERROR(sim->LoadProgram(dump.program).WithContext("state dump on the ISA simulator"));
  sim::IsaRunOptions o;
  o.record_events = false;
  return sim->Run(o).status().WithContext("state dump on the ISA simulator");
}

StatusOr<SparseMemory> DumpOnBoard(host::BoardIface& board, const workloads::StateDump& dump,
                                   const std::vector<DramRange>& ranges,
                                   std::chrono::milliseconds timeout) {
  ASSIGN_OR_RETURN(std::unique_ptr<host::Card> card, host::Card::Probe(&board));
  for (const workloads::DramWrite& w : dump.writes) {
    RETURN_IF_ERROR(card->WriteDram(w.addr, w.bytes.data(), w.bytes.size()));
  }
  // Where the board runner puts every program (below kImageBase): the workload's is done.
  constexpr uint64_t kProgramAddr = 0;
  RETURN_IF_ERROR(card->WriteProgram(dump.program, kProgramAddr));
  host::RunOptions ro;
  ro.timeout = timeout;
  RETURN_IF_ERROR(card->Run(ro).status().WithContext("state dump on the board"));
  SparseMemory out(card->info().config.DRAM_BYTES);
  std::vector<DramRange> all = ranges;
  all.push_back(dump.tmem);
  all.push_back(dump.act);
  for (const DramRange& r : all) {
    std::vector<uint8_t> bytes(r.bytes);
    RETURN_IF_ERROR(card->ReadDram(r.addr, bytes.data(), bytes.size()));
    out.Write(r.addr, bytes.data(), bytes.size());
  }
  return out;
}

Verdict WholeState(const isa::Config& cfg, const workloads::StateDump& dump,
                   const std::vector<DramRange>& ranges, const SparseMemory& isa,
                   const SparseMemory& board, const WriteLog* log) {
  std::vector<DramRange> all = ranges;
  all.push_back(dump.tmem);
  all.push_back(dump.act);
  uint64_t dram_bytes = 0;
  for (const DramRange& r : ranges) dram_bytes += r.bytes;
  for (const DramRange& r : all) {
    const std::vector<uint8_t> a = isa.ReadBytes(r.addr, r.bytes);
    const std::vector<uint8_t> b = board.ReadBytes(r.addr, r.bytes);
    const auto diff = std::mismatch(a.begin(), a.end(), b.begin());
    if (diff.first == a.end()) continue;
    const uint64_t at = r.addr + uint64_t(diff.first - a.begin());
    const uint64_t word = at & ~uint64_t{3};
    std::string space;
    uint64_t key = 0;
    const std::string where = Place(cfg, dump, at, &space, &key);
    std::string msg = StrFormat("%s differs from the ISA simulator's: 0x%08x (board) vs 0x%08x (ISA)",
                                where.c_str(), board.Read32(word), isa.Read32(word));
    const std::string writer = log ? log->LastWriter(cfg, space, key) : "";
    msg += writer.empty() ? "; no instruction of the workload wrote it"
                          : "; last written by " + writer;
    return Verdict{"correctness", Outcome::kFail, msg, ""};
  }
  return Verdict{"correctness", Outcome::kPass,
                 StrFormat("whole state equals the ISA simulator's: %llu DRAM bytes written, %u "
                           "TMEM words, %d ACT RAM rows",
                           (unsigned long long)dram_bytes, cfg.TMEM_WORDS, cfg.ACT_ROWS),
                 ""};
}

Verdict WithWholeState(Verdict outputs, const Verdict& whole) {
  if (outputs.outcome != Outcome::kPass) return outputs;
  if (whole.outcome != Outcome::kPass) return whole;
  outputs.message += "; " + whole.message;
  return outputs;
}

}  // namespace otpu::regress
