#include "lens/build_profile.h"

#include <algorithm>

#include "lens/notes.h"
#include "lens/roofline.h"
#include "workloads/isa/cost.h"
#include "workloads/isa/disasm.h"

namespace otpu::lens {
namespace {

using isa::Opcode;

constexpr uint32_t kZeroRegs[isa::kNumRegs] = {};  // resolved instructions need no registers

struct Interval {
  int64_t start = 0, end = 0;  // [start, end)
};

// Windows of `width` cycles covering a run; cycles past the last window count in it.
class Windows {
 public:
  Windows(int64_t cycles, int64_t width)
      : width_(width), count_(std::max<int64_t>(1, (cycles + width - 1) / width)) {}
  int64_t count() const { return count_; }

  // Adds `amount` spread evenly over the cycles [start, end) (all of it at `start` when the
  // interval is empty). Cumulative rounding keeps the column total equal to `amount`.
  void Spread(std::vector<int64_t>& col, int64_t start, int64_t end, int64_t amount) const {
    if (amount == 0) return;
    if (end <= start) {
      col[Index(start)] += amount;
      return;
    }
    const __int128 total = amount, length = end - start;
    int64_t placed = 0;
    for (int64_t w = start / width_; w * width_ < end; ++w) {
      if (w >= count_ - 1) {
        col[count_ - 1] += amount - placed;
        return;
      }
      int64_t b = std::min(end, (w + 1) * width_);
      int64_t upto = int64_t(total * (b - start) / length);
      col[w] += upto - placed;
      placed = upto;
    }
  }

  // Adds the cycles of [start, end) that fall in each window.
  void AddCycles(std::vector<int64_t>& col, int64_t start, int64_t end) const {
    end = std::min(end, count_ * width_);
    for (int64_t w = start / width_; w * width_ < end; ++w) {
      col[w] += std::min(end, (w + 1) * width_) - std::max(start, w * width_);
    }
  }

 private:
  int64_t Index(int64_t cycle) const { return std::min(cycle / width_, count_ - 1); }
  int64_t width_;
  int64_t count_;
};

// Sorts and merges overlapping intervals.
std::vector<Interval> Merge(std::vector<Interval> v) {
  std::sort(v.begin(), v.end(),
            [](const Interval& a, const Interval& b) { return a.start < b.start; });
  std::vector<Interval> out;
  for (const Interval& i : v) {
    if (!out.empty() && i.start <= out.back().end) {
      out.back().end = std::max(out.back().end, i.end);
    } else {
      out.push_back(i);
    }
  }
  return out;
}

ProgramRow ProgramLine(const isa::Program& program, size_t pc) {
  const isa::Instr& in = program.code[pc];
  ProgramRow r;
  r.pc = int64_t(pc);
  r.name = isa::InstrName(in);
  r.detail = isa::InstrDetail(in, nullptr);
  r.comment = pc < program.comment.size() ? program.comment[pc] : "";
  r.source = pc < program.source.size() ? program.source[pc] : -1;
  r.words = in.w;
  r.regs = {in.ra(), in.rb(), in.rc(), in.rd()};
  r.flags = in.flags();
  r.opcode = in.opcode();
  return r;
}

InstrRow Row(const trace::InstrEvent& e, const isa::Program& program) {
  InstrRow r;
  r.slice = e.slice;
  r.idx = e.idx;
  r.pc = e.pc;
  r.unit = static_cast<int32_t>(e.unit);
  r.name = isa::InstrName(e.resolved);
  r.detail = isa::InstrDetail(e.resolved, kZeroRegs);
  r.dispatch = e.dispatch;
  r.ready = e.ready;
  r.release = e.release;
  r.start = e.start;
  r.end = e.end;
  r.source = e.pc < program.source.size() ? program.source[e.pc] : -1;
  for (const auto& [name, value] : e.counters) r.counters.push_back({name, value});
  r.work = e.work;
  r.port_b = e.port_b;
  r.port_a = e.port_a;
  return r;
}

// Adds one instruction's port transfers to its slice's totals and windows.
void AddTraffic(const trace::InstrEvent& e, int64_t end, const Windows& windows, Slice* s) {
  auto op = static_cast<Opcode>(e.resolved.opcode());
  Buckets& b = s->buckets;
  bool started = e.start >= 0;
  if (op == Opcode::kMM) {
    s->ports.bmxu += e.port_b;
    s->ports.amxu += e.port_a;
    if (started) windows.Spread(b.bm, e.start, end, e.port_b);
    if (started) windows.Spread(b.am, e.start, end, e.port_a);
  } else if (op == Opcode::kLD || op == Opcode::kST) {
    s->ports.bdma += e.port_b;
    if (started) windows.Spread(b.bd, e.start, end, e.port_b);
  } else if (op == Opcode::kQST) {
    s->ports.aq += e.port_a;
    if (started) windows.Spread(b.aq, e.start, end, e.port_a);
  }
}

}  // namespace

StatusOr<Profile> BuildProfile(ProfileKind kind, const std::string& name, const isa::Config& cfg,
                               const isa::Program& program, const trace::RunEvents& events,
                               int bucket_cycles) {
  if (bucket_cycles < 1) {
    return InvalidArgument("bucket of " + std::to_string(bucket_cycles) +
                           " cycles: a counter window must be at least 1 cycle");
  }
  Profile p;
  p.kind = kind;
  p.name = name;
  p.cycles = events.cycles;
  p.clock_mhz = 100;
  p.config = ConfigOf(cfg);
  p.peak_macs = cfg.PeakMacs();
  p.peak_bytes = cfg.PeakBytes();
  for (const isa::SourceLine& s : program.sources)
    p.sources.push_back({s.file, s.line, s.func, s.text});
  std::vector<ProgramRow>& prog = p.programs.emplace_back();
  for (size_t pc = 0; pc < program.size(); ++pc) prog.push_back(ProgramLine(program, pc));

  int slices = std::max(cfg.S, 1);
  for (const trace::InstrEvent& e : events.instrs) {
    OTPU_CHECK(e.slice >= 0);
    slices = std::max(slices, e.slice + 1);
  }
  const int64_t width =
      bucket_cycles == kOneWindow ? std::max<int64_t>(p.cycles, 1) : int64_t(bucket_cycles);
  const Windows windows(p.cycles, width);
  p.slices.resize(size_t(slices));
  for (Slice& s : p.slices) {
    s.ports.c = p.cycles;
    s.busy.assign(isa::kNumUnits, 0);
    s.lose.assign(isa::kNumUnits, 0);
    s.buckets.Resize(size_t(windows.count()));
    for (int64_t w = 0; w < windows.count(); ++w) {
      s.buckets.c[w] = std::min((w + 1) * width, std::max<int64_t>(p.cycles, 1)) - 1;
      s.buckets.n[w] = s.buckets.c[w] + 1 - w * width;
    }
  }

  // busy[slice][unit]: the intervals each unit had an instruction in.
  std::vector<std::vector<std::vector<Interval>>> busy(
      static_cast<size_t>(slices), std::vector<std::vector<Interval>>(isa::kNumUnits));
  p.instrs.reserve(events.instrs.size());
  for (const trace::InstrEvent& e : events.instrs) {
    p.instrs.push_back(Row(e, program));
    Slice& s = p.slices[size_t(e.slice)];
    // An instruction that started but never ended (a cut trace) runs to the end of the run.
    int64_t end = e.end >= 0 ? e.end : std::max(e.start, p.cycles);
    AddTraffic(e, end, windows, &s);
    if (e.start >= 0 && end > e.start)
      busy[size_t(e.slice)][size_t(e.unit)].push_back({e.start, end});
    isa::Cost cost = isa::CostOf(e.resolved, kZeroRegs, cfg);
    p.macs += cost.macs;
    p.bytes += cost.bytes;
  }

  std::vector<SliceRoofline> roofline;
  for (int si = 0; si < slices; ++si) {
    Slice& s = p.slices[size_t(si)];
    for (int u = 0; u < isa::kNumUnits; ++u) {
      for (const Interval& i : Merge(std::move(busy[size_t(si)][size_t(u)]))) {
        s.busy[size_t(u)] += i.end - i.start;
        if (u == int(isa::Unit::kMXU)) windows.AddCycles(s.buckets.mx, i.start, i.end);
        if (u == int(isa::Unit::kDMA)) windows.AddCycles(s.buckets.ld, i.start, i.end);
      }
    }
    roofline.push_back(SliceRooflineOf(s.ports));
  }
  p.roofline = RooflineOf(std::move(roofline), p.cycles);
  p.notes = MakeNotes(p);
  return p;
}

}  // namespace otpu::lens
