#include "lens/notes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <queue>

namespace otpu::lens {
namespace {

std::string Percent(double share) { return std::to_string(int(std::lround(100 * share))) + "%"; }

Note Verdict(const Profile& p) {
  if (p.roofline.bound == 0) {
    return {NoteLevel::kInfo, "no DRAM traffic: the roofline does not bound this run (" +
                                  std::to_string(p.cycles) + " cycles)"};
  }
  int64_t portb = 0, porta = 0;
  for (const SliceRoofline& s : p.roofline.per_slice) {
    portb = std::max(portb, s.portb);
    porta = std::max(porta, s.porta);
  }
  const bool by_b = portb >= porta;
  const double eff = p.roofline.efficiency;
  NoteLevel level = eff >= kGoodEfficiency  ? NoteLevel::kGood
                    : eff >= kBadEfficiency ? NoteLevel::kWarn
                                            : NoteLevel::kBad;
  std::string text = "runs at " + Percent(eff) +
                     " of the DRAM roofline: " + std::to_string(p.cycles) + " cycles where port " +
                     (by_b ? "B" : "A") + " needs " + std::to_string(by_b ? portb : porta) +
                     (by_b ? " chunk" : " word") + " transfers";
  return {level, text};
}

struct Hot {
  int64_t cycles = 0;  // wall cycles it was the oldest instruction in flight
  int64_t runs = 0;
  size_t row = 0;  // one of its instrs rows
};

// Gives every cycle to the oldest instruction in flight (lowest idx), so overlapped work is
// not counted twice, and sums the cycles per (slice, pc).
std::map<std::pair<int32_t, int64_t>, Hot> WallCyclesPerPc(const Profile& p) {
  std::map<std::pair<int32_t, int64_t>, Hot> hot;
  struct Span {
    int64_t start, end, idx;
    size_t row;
  };
  std::vector<Span> spans;
  for (size_t i = 0; i < p.instrs.size(); ++i) {
    const InstrRow& r = p.instrs[i];
    Hot& h = hot[{r.slice, r.pc}];
    ++h.runs;
    h.row = i;
    int64_t end = r.end >= 0 ? r.end : p.cycles;
    if (r.start >= 0 && end > r.start) spans.push_back({r.start, end, r.idx, i});
  }
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.start < b.start; });
  auto older = [](const Span& a, const Span& b) { return a.idx > b.idx; };
  std::priority_queue<Span, std::vector<Span>, decltype(older)> active(older);
  size_t next = 0;
  int64_t t = spans.empty() ? 0 : spans[0].start;
  while (true) {
    while (next < spans.size() && spans[next].start <= t) active.push(spans[next++]);
    while (!active.empty() && active.top().end <= t) active.pop();  // ended ones, lazily
    if (active.empty()) {
      if (next == spans.size()) break;
      t = spans[next].start;
      continue;
    }
    int64_t until = active.top().end;
    if (next < spans.size()) until = std::min(until, spans[next].start);
    const InstrRow& r = p.instrs[active.top().row];
    hot[{r.slice, r.pc}].cycles += until - t;
    t = until;
  }
  return hot;
}

Note Hotspot(const Profile& p, const Hot& h) {
  const InstrRow& r = p.instrs[h.row];
  std::string what = r.name;
  if (size_t(r.slice) < p.programs.size() && r.pc >= 0 &&
      size_t(r.pc) < p.programs[size_t(r.slice)].size()) {
    const ProgramRow& pr = p.programs[size_t(r.slice)][size_t(r.pc)];
    what = pr.name + (pr.detail.empty() ? "" : " " + pr.detail);
  }
  std::string text = "pc " + std::to_string(r.pc) + " " + what + ": " +
                     Percent(p.cycles > 0 ? double(h.cycles) / double(p.cycles) : 0) +
                     " of cycles (" + std::to_string(h.cycles) + " in " + std::to_string(h.runs) +
                     (h.runs == 1 ? " run)" : " runs)");
  if (r.source >= 0 && size_t(r.source) < p.sources.size()) {
    const Source& s = p.sources[size_t(r.source)];
    text += " at " + s.file + ":" + std::to_string(s.line) + (s.text.empty() ? "" : " " + s.text);
  }
  return {NoteLevel::kInfo, text};
}

}  // namespace

std::vector<Note> MakeNotes(const Profile& p) {
  std::vector<Note> notes = {Verdict(p)};
  std::map<std::pair<int32_t, int64_t>, Hot> per_pc = WallCyclesPerPc(p);
  std::vector<const Hot*> order;
  for (const auto& [key, h] : per_pc) {
    if (h.cycles > 0) order.push_back(&h);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const Hot* a, const Hot* b) { return a->cycles > b->cycles; });
  for (size_t i = 0; i < order.size() && i < size_t(kHotspotNotes); ++i) {
    notes.push_back(Hotspot(p, *order[i]));
  }
  return notes;
}

}  // namespace otpu::lens
