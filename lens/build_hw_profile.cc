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
  s->buckets.Resize(run.windows.size());
  for (size_t w = 0; w < run.windows.size(); ++w) {
    const decode::WindowCounts& win = run.windows[w];
    s->buckets.c[w] = win.last;
    s->buckets.n[w] = win.n;
    for (int i = 0; i < decode::kWindowColumns; ++i) {
      (s->buckets.*columns[size_t(2 + i)].second)[w] = win.columns[size_t(i)];
    }
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

// The cycle of the nearest record at or before `i` (backwards) or at or after it (forwards)
// that carries one in [31:0] (a head record), -1 when there is none.
int64_t CycleNear(std::span<const trace::Record> records, int64_t i, bool backwards) {
  using T = isa::RecordType;
  const auto has_cycle = [](trace::Record r) {
    switch (T(trace::TypeOf(r))) {
      case T::kDISPATCH: case T::kSTART: case T::kRELEASE: case T::kEND: case T::kUNIT:
      case T::kWINDOW_P: case T::kWINDOW_Q: case T::kHALT:
        return true;
      default:
        return false;
    }
  };
  const int64_t n = int64_t(records.size());
  for (int64_t k = std::clamp<int64_t>(i, 0, n - 1); k >= 0 && k < n; k += backwards ? -1 : 1) {
    if (has_cycle(records[size_t(k)])) return int64_t(records[size_t(k)] & 0xFFFFFFFFu);
  }
  return -1;
}

// "between cycles 1200 and 5400 (812 lines), ..." for at most three gaps.
std::string GapText(std::span<const trace::Record> records, const std::vector<TraceGapRange>& gaps) {
  std::string text;
  const size_t shown = std::min<size_t>(gaps.size(), 3);
  for (size_t g = 0; g < shown; ++g) {
    const int64_t a = CycleNear(records, gaps[g].from - 1, /*backwards=*/true);
    const int64_t b = CycleNear(records, gaps[g].to, /*backwards=*/false);
    text += (g ? ", " : "") + std::string("between cycles ") +
            (a < 0 ? std::string("0") : std::to_string(a)) + " and " +
            (b < 0 ? std::string("the end") : std::to_string(b)) + " (" +
            std::to_string(gaps[g].lines) + " lines)";
  }
  if (gaps.size() > shown) text += " and " + std::to_string(gaps.size() - shown) + " more";
  return text;
}

// The loss warnings of a hw profile, most important first.
std::vector<Note> LossNotes(const HwTrace& t, const decode::DecodeStats& stats,
                            std::span<const trace::Record> records,
                            const std::vector<TraceGapRange>& gaps) {
  std::vector<Note> notes;
  if (t.drop > 0) {
    std::string where;
    if (t.keep == "stream") {
      where = ": the host fell behind the stream and the unit dropped whole bundles";
      if (!gaps.empty()) where += ", " + GapText(records, gaps);
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

StatusOr<Profile> BuildHwProfile(const std::string& name, const isa::Config& cfg,
                                 const isa::Program& program,
                                 std::span<const trace::Record> records,
                                 const TraceRegisters& regs, int window_cycles,
                                 const std::string& mem) {
  ASSIGN_OR_RETURN(decode::Tokens tokens, decode::Tokenize(records));
  ASSIGN_OR_RETURN(decode::Decoded decoded, decode::Decode(tokens, program, cfg, regs.cycles));
  ASSIGN_OR_RETURN(Profile p,
                   BuildRtlProfile(name, cfg, program, decoded.run, window_cycles, mem));
  p.kind = ProfileKind::kHw;
  HwTrace t;
  t.count = regs.count;
  t.drop = regs.drop;
  t.depth = regs.depth;
  t.keep = regs.stream ? "stream" : regs.keep_last ? "last" : "first";
  t.wrapped = !regs.stream && regs.keep_last && regs.count > regs.depth;
  // Streaming keeps every record COUNT counts (the unit drops whole bundles instead, in DROP).
  t.lost = std::max<int64_t>(
      0, regs.stream ? regs.count - int64_t(records.size()) : regs.count - regs.depth);
  t.records = int64_t(records.size());
  t.open_at_end = decoded.stats.open_at_end;
  t.traced_to = decoded.stats.traced_to;
  t.damaged = decoded.stats.damaged;
  t.complete = t.drop == 0 && t.lost == 0 && tokens.cut_head == 0 && tokens.cut_tail == 0 &&
               decoded.stats.orphans == 0 && decoded.stats.damaged == 0 && decoded.run.halted;
  std::vector<Note> loss = LossNotes(t, decoded.stats, records, regs.gaps);
  // Loss warnings go right after the verdict (docs/profile.md).
  p.notes.insert(p.notes.begin() + std::min<size_t>(1, p.notes.size()), loss.begin(), loss.end());
  p.hwtrace = t;
  return p;
}

}  // namespace otpu::lens
