#include "lens/findings.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "lens/attribution.h"

namespace otpu::lens {
namespace {

// Cause indexes in Causes() order.
enum Cause { kStream, kDram, kStarved, kNotCons, kTmem, kMxComp, kVpu, kQuant, kDma, kNone };

int UnitId(const Profile& p, const char* name) {
  auto it = std::find(p.units.begin(), p.units.end(), name);
  return it == p.units.end() ? -1 : int(it - p.units.begin());
}

int64_t Counter(const InstrRow& r, const char* name) {
  for (const CounterValue& c : r.counters) {
    if (c.name == name) return c.value;
  }
  return 0;
}

// "950", "5.4k", "91k", "1.2M".
std::string Short(double v) {
  auto fmt = [](double x, const char* unit) {
    char buf[32];
    std::snprintf(buf, sizeof buf, x < 10 ? "%.1f%s" : "%.0f%s", x, unit);
    return std::string(buf);
  };
  if (v >= 1e6) return fmt(v / 1e6, "M");
  if (v >= 1e4) return fmt(v / 1e3, "k");
  return std::to_string(int64_t(std::llround(v)));
}

// "9.6%".
std::string Percent1(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * share);
  return buf;
}

// "pc 20 MM <operands> at workloads/kernels/mlp.cc:141".
std::string Where(const Profile& p, const InstrRow& r) {
  std::string what = r.name;
  if (size_t(r.slice) < p.programs.size() && r.pc >= 0 &&
      size_t(r.pc) < p.programs[size_t(r.slice)].size()) {
    const ProgramRow& pr = p.programs[size_t(r.slice)][size_t(r.pc)];
    what = pr.name + (pr.detail.empty() ? "" : " " + pr.detail);
  }
  std::string text = "pc " + std::to_string(r.pc) + " " + what;
  if (r.source >= 0 && size_t(r.source) < p.sources.size()) {
    const Source& s = p.sources[size_t(r.source)];
    text += " at " + s.file + ":" + std::to_string(s.line);
  }
  return text;
}

// Scores per (slice, pc) and one row of each, to name the pc with the highest score.
struct Blame {
  std::map<std::pair<int32_t, int64_t>, std::pair<double, size_t>> score;
  void Add(const Profile& p, size_t row, double v) {
    if (v <= 0) return;
    auto& s = score[{p.instrs[row].slice, p.instrs[row].pc}];
    s.first += v;
    s.second = row;
  }
  // The row of the highest-scoring pc, or -1.
  int64_t Best() const {
    double best = 0;
    int64_t row = -1;
    for (const auto& [key, s] : score) {
      if (s.first > best) {
        best = s.first;
        row = int64_t(s.second);
      }
    }
    return row;
  }
};

// Blames a cause's cycles on instructions of `units` by how much of each window they ran in.
void BlameByWindows(const Profile& p, const Analysis& a, int cause, const std::vector<int>& units,
                    Blame* blame) {
  for (size_t i = 0; i < p.instrs.size(); ++i) {
    const InstrRow& r = p.instrs[i];
    if (std::find(units.begin(), units.end(), r.unit) == units.end() || r.start < 0) continue;
    const double st = double(r.start), en = double(r.end >= 0 ? r.end : p.cycles);
    size_t k = size_t(std::upper_bound(a.window_end.begin(), a.window_end.end(), st) -
                      a.window_end.begin());
    for (; k < a.per_window.size() && a.window_start[k] < en; ++k) {
      const double n = a.window_end[k] - a.window_start[k];
      const double ov = std::min(en, a.window_end[k]) - std::max(st, a.window_start[k]);
      if (ov > 0 && n > 0) blame->Add(p, i, a.per_window[k][size_t(cause)] * ov / n);
    }
  }
}

}  // namespace

std::vector<Note> LostCycleNotes(const Profile& p) {
  const Analysis a = Analyze(p);
  const int mxu = UnitId(p, "MXU"), dma = UnitId(p, "DMA"), quant = UnitId(p, "QUANT"),
            vpu = UnitId(p, "VPU");
  std::vector<int> order;
  for (int q = kDram; q < kNone; ++q) {
    if (a.causes[size_t(q)] >= 0.5) order.push_back(q);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return a.causes[size_t(x)] > a.causes[size_t(y)]; });
  // The cycles the counter windows cover (all of the run unless the trace was cut).
  const double traced = a.window_end.empty() ? 0 : a.window_end.back() - a.window_start.front();
  std::vector<Note> notes;
  for (int q : order) {
    if (notes.size() == size_t(kCauseNotes)) break;
    Blame blame;
    const char* counter = q == kStarved ? "starve" : q == kNotCons ? "bp" : q == kTmem ? "frz"
                                                                                      : nullptr;
    if (counter) {
      for (size_t i = 0; i < p.instrs.size(); ++i) {
        blame.Add(p, i, double(Counter(p.instrs[i], counter)));
      }
    }
    if (blame.Best() < 0) {
      std::vector<int> units = q == kDram  ? std::vector<int>{mxu, dma}
                               : q == kVpu   ? std::vector<int>{vpu}
                               : q == kQuant ? std::vector<int>{quant}
                               : q == kDma   ? std::vector<int>{dma}
                               : q == kTmem  ? std::vector<int>{mxu, quant, vpu}
                                             : std::vector<int>{mxu};
      BlameByWindows(p, a, q, units, &blame);
    }
    const double cycles = a.causes[size_t(q)];
    const double share = p.cycles > 0 ? cycles / double(p.cycles) : 0;
    std::string text = std::string(Causes()[size_t(q)].label) + " for " + Short(cycles) + " cycles (";
    // A cut trace's windows cover only part of the run: the share of the run alone would read
    // as if the rest had none of this cause, so both shares are given.
    if (traced > 0 && traced < double(p.cycles)) {
      text += Percent1(share) + " of the run, " + Percent1(cycles / traced) + " of the traced part)";
    } else {
      text += std::to_string(int(std::lround(100 * share))) + "%)";
    }
    const int64_t row = blame.Best();
    if (row >= 0) text += " during " + Where(p, p.instrs[size_t(row)]);
    notes.push_back({share >= kCauseWarnShare ? NoteLevel::kWarn : NoteLevel::kInfo, text});
  }
  return notes;
}

std::vector<MxuGap> FindMxuGaps(const Profile& p) {
  const int mxu = UnitId(p, "MXU");
  std::vector<const InstrRow*> mm;
  for (const InstrRow& r : p.instrs) {
    if (r.unit == mxu && r.start >= 0) mm.push_back(&r);
  }
  std::stable_sort(mm.begin(), mm.end(),
                   [](const InstrRow* x, const InstrRow* y) { return x->start < y->start; });
  std::vector<MxuGap> gaps;
  int64_t t = 0;  // the MXU is busy until t
  for (const InstrRow* r : mm) {
    if (r->start > t) {
      std::string cause = r->dispatch < 0 || r->dispatch > t ? "dispatch"
                          : r->ready > t                      ? "deps"
                                                              : "dram_dep";
      gaps.push_back({t, r->start, cause});
    }
    t = std::max(t, r->end >= 0 ? r->end : p.cycles);
  }
  if (!mm.empty() && t < p.cycles) gaps.push_back({t, p.cycles, "end"});
  return gaps;
}

}  // namespace otpu::lens
