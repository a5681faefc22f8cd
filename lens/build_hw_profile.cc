#include "lens/build_hw_profile.h"

#include <algorithm>
#include <string>
#include <vector>

#include "lens/build_profile.h"
#include "lens/findings.h"
#include "lens/notes.h"
#include "lens/roofline.h"
#include "lens/trace/tokenizer.h"
#include "workloads/isa/trace_records.h"

namespace otpu::lens {
namespace {

// Window columns bm..fc are 0..8; fm fq fv fc (5..8) are the TMEM refusals of MXU QUANT VPU
// COLL.
constexpr int kFirstFreezeColumn = 5;
constexpr isa::Unit kFreezeUnits[] = {isa::Unit::kMXU, isa::Unit::kQUANT, isa::Unit::kVPU,
                                      isa::Unit::kCOLL};

// Replaces the slice's buckets, ports and losses with what the core counted itself.
void UseCoreCounters(const decode::TraceRun& run, Slice* s) {
  const auto& columns = Buckets::Columns();
  const size_t n = run.windows.size();
  s->buckets.Resize(n);
  for (size_t w = 0; w < n; ++w) {
    s->buckets.c[w] = run.windows[w].last;
    s->buckets.n[w] = run.windows[w].n;
  }
  // Column by column: one member lookup per column, not per window.
  for (int i = 0; i < decode::kWindowColumns; ++i) {
    std::vector<int64_t>& col = s->buckets.*columns[size_t(2 + i)].second;
    for (size_t w = 0; w < n; ++w) col[w] = run.windows[w].columns[size_t(i)];
  }
  s->ports.bmxu = run.ports[0];
  s->ports.bdma = run.ports[1];
  s->ports.amxu = run.ports[2];
  s->ports.aq = run.ports[3];
  std::fill(s->lose.begin(), s->lose.end(), 0);
  for (const decode::WindowCounts& win : run.windows) {
    for (int i = 0; i < 4; ++i) {
      s->lose[size_t(kFreezeUnits[i])] += win.columns[size_t(kFirstFreezeColumn + i)];
    }
  }
}

// True when a record carries a cycle in [31:0] (a head record).
bool HasCycle(trace::Record r) {
  using T = isa::RecordType;
  switch (T(trace::TypeOf(r))) {
    case T::kDISPATCH: case T::kSTART: case T::kRELEASE: case T::kEND: case T::kUNIT:
    case T::kWINDOW_P: case T::kWINDOW_Q: case T::kHALT:
      return true;
    default:
      return false;
  }
}

// "between cycles 1200 and 5400 (812 lines), ..." for at most three gaps, from the cycles
// around the chunks the records came in (a gap lies between two drains, so between chunks).
template <typename Mark>
std::string GapText(const std::vector<Mark>& marks, const std::vector<TraceGapRange>& gaps) {
  std::string text;
  const size_t shown = std::min<size_t>(gaps.size(), 3);
  for (size_t g = 0; g < shown; ++g) {
    int64_t a = -1, b = -1;
    for (const Mark& m : marks) {
      if (m.start >= gaps[g].from && a < 0) a = m.before;
      if (m.start >= gaps[g].to && m.first >= 0) {
        b = m.first;
        break;
      }
    }
    if (a < 0 && !marks.empty() && marks.back().start < gaps[g].from) a = marks.back().before;
    text += (g ? ", " : "") + std::string("between cycles ") +
            (a < 0 ? std::string("0") : std::to_string(a)) + " and " +
            (b < 0 ? std::string("the end") : std::to_string(b)) + " (" +
            std::to_string(gaps[g].lines) + " lines)";
  }
  if (gaps.size() > shown) text += " and " + std::to_string(gaps.size() - shown) + " more";
  return text;
}

// The loss warnings of a hw profile, most important first.
template <typename Mark>
std::vector<Note> LossNotes(const HwTrace& t, const decode::DecodeStats& stats,
                            const std::vector<Mark>& marks,
                            const std::vector<TraceGapRange>& gaps) {
  std::vector<Note> notes;
  if (t.drop > 0) {
    std::string where;
    if (t.keep == "stream") {
      where = ": the host fell behind the stream and the unit dropped whole bundles";
      if (!gaps.empty()) where += ", " + GapText(marks, gaps);
    }
    notes.push_back({NoteLevel::kWarn, "capture queue dropped " + std::to_string(t.drop) +
                                           " events (TRACE_DROP)" + where});
  }
  if (t.damaged > 0) {
    notes.push_back({NoteLevel::kWarn,
                     std::to_string(t.damaged) +
                         (t.damaged == 1 ? " damaged trace record group was skipped"
                                         : " damaged trace record groups were skipped") +
                         " (a cycle going backwards, past the run's CYCLES or after its halt)"});
  }
  if (t.lost > 0 && t.keep == "stream") {
    notes.push_back({NoteLevel::kWarn, std::to_string(t.lost) + " of " + std::to_string(t.count) +
                                           " records were not drained"});
  } else if (t.lost > 0) {
    const std::string head = std::to_string(t.lost) + " of " + std::to_string(t.count) +
                             " records did not fit the buffer: ";
    notes.push_back({NoteLevel::kWarn,
                     t.keep == "last"
                         ? head + "the run before cycle " + std::to_string(stats.first_cycle) +
                               " is missing, the ring kept the last ones"
                         : head + "the run after cycle " + std::to_string(stats.traced_to) +
                               " is missing"});
  }
  return notes;
}

}  // namespace

StatusOr<Profile> BuildRtlProfile(const std::string& name, const isa::Config& cfg,
                                  const isa::Program& program, const decode::TraceRun& run,
                                  int window_cycles, const std::string& mem) {
  if (window_cycles < 1) {
    return InvalidArgument("bucket of " + std::to_string(window_cycles) +
                           " cycles: a counter window must be at least 1 cycle");
  }
  // The core's own windows replace the buckets below: build none by cycle count (a damaged
  // trace may claim billions of cycles).
  ASSIGN_OR_RETURN(Profile p, BuildProfile(ProfileKind::kRtl, name, cfg, program, run.events,
                                           kOneWindow));
  p.config.MEM = mem;
  Slice& s = p.slices[0];
  UseCoreCounters(run, &s);
  std::vector<SliceRoofline> roofline = p.roofline.per_slice;
  roofline[0] = SliceRooflineOf(s.ports);
  p.roofline = RooflineOf(std::move(roofline), p.cycles);
  p.notes = MakeNotes(p);
  // The causes of lost MXU cycles come right after the verdict (docs/profile.md).
  std::vector<Note> lost = LostCycleNotes(p);
  p.notes.insert(p.notes.begin() + std::min<size_t>(1, p.notes.size()), lost.begin(), lost.end());
  p.mxu_gaps = FindMxuGaps(p);
  return p;
}

HwProfileBuilder::HwProfileBuilder(const isa::Config& cfg, const isa::Program& program,
                                   int64_t cycles)
    : cfg_(cfg), program_(program), decoder_(program, cfg_, cycles) {}

Status HwProfileBuilder::Feed(const trace::Record* records, size_t n) {
  ChunkMark mark{records_, last_cycle_, -1};
  for (size_t i = 0; i < n && mark.first < 0; ++i) {
    if (HasCycle(records[i])) mark.first = int64_t(records[i] & 0xFFFFFFFFu);
  }
  for (size_t i = n; i > 0; --i) {
    if (HasCycle(records[i - 1])) {
      last_cycle_ = int64_t(records[i - 1] & 0xFFFFFFFFu);
      break;
    }
  }
  if (n > 0) marks_.push_back(mark);
  records_ += int64_t(n);
  return decoder_.Feed(records, n);
}

StatusOr<Profile> HwProfileBuilder::Finish(const std::string& name, const TraceRegisters& regs,
                                           int window_cycles, const std::string& mem) {
  ASSIGN_OR_RETURN(decode::StreamDecoded stream, decoder_.Finish());
  const decode::Decoded& decoded = stream.decoded;
  ASSIGN_OR_RETURN(Profile p,
                   BuildRtlProfile(name, cfg_, program_, decoded.run, window_cycles, mem));
  p.kind = ProfileKind::kHw;
  HwTrace t;
  t.count = regs.count;
  t.drop = regs.drop;
  t.depth = regs.depth;
  t.keep = regs.stream ? "stream" : regs.keep_last ? "last" : "first";
  t.wrapped = !regs.stream && regs.keep_last && regs.count > regs.depth;
  // Streaming keeps every record COUNT counts (the unit drops whole bundles instead, in DROP).
  t.lost = std::max<int64_t>(
      0, regs.stream ? regs.count - stream.records : regs.count - regs.depth);
  t.records = stream.records;
  t.open_at_end = decoded.stats.open_at_end;
  t.traced_to = decoded.stats.traced_to;
  t.damaged = decoded.stats.damaged;
  t.complete = t.drop == 0 && t.lost == 0 && stream.cut_head == 0 && stream.cut_tail == 0 &&
               decoded.stats.orphans == 0 && decoded.stats.damaged == 0 && decoded.run.halted;
  std::vector<Note> loss = LossNotes(t, decoded.stats, marks_, regs.gaps);
  // Loss warnings go right after the verdict (docs/profile.md).
  p.notes.insert(p.notes.begin() + std::min<size_t>(1, p.notes.size()), loss.begin(), loss.end());
  p.hwtrace = t;
  return p;
}

StatusOr<Profile> BuildHwProfile(const std::string& name, const isa::Config& cfg,
                                 const isa::Program& program,
                                 std::span<const trace::Record> records,
                                 const TraceRegisters& regs, int window_cycles,
                                 const std::string& mem) {
  HwProfileBuilder builder(cfg, program, regs.cycles);
  RETURN_IF_ERROR(builder.Feed(records.data(), records.size()));
  return builder.Finish(name, regs, window_cycles, mem);
}

}  // namespace otpu::lens
