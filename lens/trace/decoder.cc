#include "lens/trace/decoder.h"

#include <string>

#include "workloads/isa/cost.h"
#include "workloads/isa/defs.h"
#include "workloads/isa/instr.h"

namespace otpu::lens::decode {
namespace {

constexpr uint32_t kZeroRegs[isa::kNumRegs] = {};  // resolved instructions need no registers
constexpr uint32_t kRegFieldMask = 0x000FFF00u;    // ra rb rc: zero in a resolved instruction

std::string At(const Group& g) {
  return "record " + std::to_string(g.index) + " (" + RecordLetter(g.type()) + ")";
}

// One pass over the groups, in the order the trace unit wrote them (the event collector's
// order within a cycle: dispatch, starts, release, ends, windows, halt).
class Decoder {
 public:
  Decoder(const isa::Program& program, const isa::Config& cfg, int64_t cycles)
      : program_(program), cfg_(cfg), cycles_(cycles) {
    slot_idx_.fill(-1);
  }

  Status Add(const Group& g) {
    ++out_.stats.groups;
    // Every head but O/V/R carries its cycle in bits 31:0 (SPEC 5).
    if (halted_ || !Plausible(uint32_t(g.head))) {
      ++out_.stats.damaged;
      return OkStatus();
    }
    switch (RecordType(g.type())) {
      case RecordType::kDISPATCH: return AddDispatch(g);
      case RecordType::kSTART: AddStart(g); break;
      case RecordType::kRELEASE: {
        const SlotCycle s = SlotCycle::Decode(g.head);
        if (trace::InstrEvent* e = InSlot(s.slot)) e->release = Extend(s.cycle);
        break;
      }
      case RecordType::kEND: AddEnd(g); break;
      case RecordType::kUNIT: AddUnit(g); break;
      case RecordType::kWINDOW_P:
      case RecordType::kWINDOW_Q: AddWindow(g); break;
      case RecordType::kHALT: {
        TraceRun& run = out_.run;
        run.halted = true;
        halted_ = true;
        run.events.cycles = Extend(SlotCycle::Decode(g.head).cycle) + 1;
        for (int i = 0; i < kHaltPorts; ++i) run.ports[size_t(i)] = ValueOf(g.values[size_t(i)]);
        break;
      }
      default: break;  // the tokenizer lets only heads through
    }
    return OkStatus();
  }

  int64_t cycle() const { return have_cycle_ ? last_ : -1; }

  Decoded Finish() {
    for (const trace::InstrEvent& e : out_.run.events.instrs) out_.stats.open_at_end += e.end < 0;
    out_.stats.traced_to = have_cycle_ ? last_ : -1;
    return std::move(out_);
  }

 private:
  // Whether a record's 32-bit cycle can follow the previous one: not backwards (a step of
  // 2^31 or more is read as backwards) and, when CYCLES is known, inside the run.
  bool Plausible(uint32_t c) const {
    if (!have_cycle_) return cycles_ < 0 || int64_t(c) < cycles_;
    const uint32_t step = uint32_t(c - uint32_t(last_));
    if (step >= 0x80000000u) return false;
    return cycles_ < 0 || last_ + int64_t(step) < cycles_;
  }

  // The full cycle of a 32-bit record cycle: the first at or after the previous one.
  int64_t Extend(uint32_t c) {
    if (!have_cycle_) {
      have_cycle_ = true;
      last_ = c;
      out_.stats.first_cycle = c;
    } else {
      last_ += uint32_t(c - uint32_t(last_));
    }
    return last_;
  }

  trace::InstrEvent* InSlot(uint32_t slot) {
    const int64_t idx = slot_idx_[slot & 0xF];
    if (idx < 0) {
      ++out_.stats.orphans;
      return nullptr;
    }
    return &out_.run.events.instrs[size_t(idx)];
  }

  Status AddDispatch(const Group& g) {
    const Dispatch d = Dispatch::Decode(g.head);
    const OperandWords o = DecodeOperands(g.values[0], g.values[1]);
    if (d.pc >= program_.size()) {
      return DataLoss(At(g) + ": pc " + std::to_string(d.pc) + " is outside the program (" +
                      std::to_string(program_.size()) + " instructions)");
    }
    trace::InstrEvent e;
    e.resolved = program_.code[d.pc];
    if (e.resolved.opcode() != o.op || !isa::UnitOf(isa::Opcode(o.op), &e.unit)) {
      return DataLoss(At(g) + ": pc " + std::to_string(d.pc) + " holds opcode " +
                      std::to_string(e.resolved.opcode()) + " but the trace says " +
                      std::to_string(o.op) + " (another program?)");
    }
    // An operand without a register (r0 reads as 0) is the program's immediate as it stands,
    // so the trace must repeat it: a different value is a damaged O record, even where the
    // profile would not show it (an operand the opcode ignores).
    const uint8_t regs[3] = {e.resolved.ra(), e.resolved.rb(), e.resolved.rc()};
    const uint32_t traced[3] = {o.w1, o.w2, o.w3};
    for (int i = 0; i < 3; ++i) {
      if (regs[i] == 0 && traced[i] != e.resolved.w[i + 1]) {
        return DataLoss(At(g) + ": pc " + std::to_string(d.pc) + " has the immediate w" +
                        std::to_string(i + 1) + " = " + std::to_string(e.resolved.w[i + 1]) +
                        " but the trace says " + std::to_string(traced[i]));
      }
    }
    e.resolved.w[0] &= ~kRegFieldMask;
    e.resolved.w[1] = o.w1;
    e.resolved.w[2] = o.w2;
    e.resolved.w[3] = o.w3;
    e.idx = int64_t(out_.run.events.instrs.size());
    e.pc = d.pc;
    e.dispatch = Extend(d.cycle);
    const isa::Cost cost = isa::CostOf(e.resolved, kZeroRegs, cfg_);
    e.work = cost.work;
    e.port_b = cost.port_b;
    e.port_a = cost.port_a;
    slot_idx_[d.slot] = e.idx;
    out_.run.events.instrs.push_back(std::move(e));
    return OkStatus();
  }

  void AddStart(const Group& g) {
    const Start s = Start::Decode(g.head);
    const int64_t now = Extend(s.cycle);
    trace::InstrEvent* e = InSlot(s.slot);
    if (e == nullptr) return;
    if (s.unit != uint32_t(e->unit)) {
      ++out_.stats.damaged;  // the slot's instruction runs on another unit: not its start
      return;
    }
    e->start = now;
    const uint32_t delay =
        s.saturated() ? uint32_t(uint32_t(now) - ReadyOf(g.values[0])) : s.delay;
    if (int64_t(delay) > now - out_.stats.first_cycle) {
      ++out_.stats.damaged;  // ready before the trace began: keep the start, not the wait
      e->ready = now;
      return;
    }
    e->ready = now - int64_t(delay);
  }

  void AddEnd(const Group& g) {
    const SlotCycle s = SlotCycle::Decode(g.head);
    const int64_t now = Extend(s.cycle);
    ended_ = -1;
    trace::InstrEvent* e = InSlot(s.slot);
    if (e == nullptr) return;
    e->end = now + 1;  // the first cycle the unit is free again
    trace::NameUnitCounters(e->unit, {}, &e->counters);
    ended_ = e->idx;
    slot_idx_[s.slot] = -1;
  }

  void AddUnit(const Group& g) {
    const UnitCounters u = UnitCounters::Decode(g.head);
    const int64_t now = Extend(u.cycle);
    // U belongs to the E just before it, in the same cycle and unit.
    if (ended_ < 0) {
      ++out_.stats.orphans;
      return;
    }
    trace::InstrEvent& e = out_.run.events.instrs[size_t(ended_)];
    ended_ = -1;
    if (e.end != now + 1 || uint32_t(e.unit) != u.unit) {
      ++out_.stats.orphans;
      return;
    }
    std::array<uint32_t, 4> v{};
    for (int i = 0; i < g.num_values; ++i) v[size_t(i)] = ValueOf(g.values[size_t(i)]);
    trace::NameUnitCounters(e.unit, v, &e.counters);
  }

  void AddWindow(const Group& g) {
    const Window w = Window::Decode(g.head);
    const int64_t now = Extend(w.cycle);
    std::vector<WindowCounts>& windows = out_.run.windows;
    if (w.type == RecordType::kWINDOW_P) {
      WindowCounts c;
      c.last = now;
      c.n = w.n;
      for (int i = 0; i < kWindowPColumns; ++i) c.columns[size_t(i)] = ValueOf(g.values[size_t(i)]);
      windows.push_back(c);
      p_waiting_ = true;
      return;
    }
    // Q completes the P of the same cycle.
    const bool completes = p_waiting_ && windows.back().last == now;
    p_waiting_ = false;
    if (!completes) {
      ++out_.stats.orphans;
      return;
    }
    for (int i = 0; i < kWindowQColumns; ++i) {
      windows.back().columns[size_t(kWindowPColumns + i)] = ValueOf(g.values[size_t(i)]);
    }
  }

  const isa::Program& program_;
  const isa::Config& cfg_;
  const int64_t cycles_;  // CYCLES, -1 unknown
  Decoded out_;
  std::array<int64_t, 16> slot_idx_{};
  int64_t ended_ = -1;   // the instruction whose E came last, until its U
  bool p_waiting_ = false;  // the last window has its P but not yet its Q
  bool have_cycle_ = false;
  bool halted_ = false;  // records after the halt left the run
  int64_t last_ = 0;
};

}  // namespace

// The tokenizer's sink: every group straight into the decoder.
class StreamDecoder::Impl : public GroupSink {
 public:
  Impl(const isa::Program& program, const isa::Config& cfg, int64_t cycles)
      : decoder(program, cfg, cycles), tokenizer(this) {}
  Status Add(const Group& g) override { return decoder.Add(g); }

  Decoder decoder;
  Tokenizer tokenizer;
  bool finished = false;
};

StreamDecoder::StreamDecoder(const isa::Program& program, const isa::Config& cfg,
                             int64_t cycles)
    : impl_(std::make_unique<Impl>(program, cfg, cycles)) {}

StreamDecoder::~StreamDecoder() = default;

Status StreamDecoder::Feed(const Record* records, size_t n) {
  if (impl_->finished) return FailedPrecondition("trace decoder: Feed after Finish");
  return impl_->tokenizer.Feed(records, n);
}

int64_t StreamDecoder::cycle() const { return impl_->decoder.cycle(); }

StatusOr<StreamDecoded> StreamDecoder::Finish() {
  if (impl_->finished) return FailedPrecondition("trace decoder: Finish called twice");
  impl_->finished = true;
  // A stream that failed gives its error, as Feed did.
  RETURN_IF_ERROR(impl_->tokenizer.Feed(nullptr, 0));
  impl_->tokenizer.Finish();
  StreamDecoded out;
  out.records = int64_t(impl_->tokenizer.records());
  out.cut_head = impl_->tokenizer.cut_head();
  out.cut_tail = impl_->tokenizer.cut_tail();
  out.decoded = impl_->decoder.Finish();
  return out;
}

StatusOr<Decoded> Decode(const Tokens& tokens, const isa::Program& program,
                         const isa::Config& cfg, int64_t cycles) {
  Decoder d(program, cfg, cycles);
  for (const Group& g : tokens.groups) RETURN_IF_ERROR(d.Add(g));
  return d.Finish();
}

}  // namespace otpu::lens::decode
