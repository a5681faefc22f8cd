#include "lens/attribution.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string_view>

namespace otpu::lens {
namespace {

constexpr int64_t kRebuiltWindow = 64;
// A file without buckets may claim any number of cycles (1e9 took 4.5 GB): past
// this many windows they widen instead, so memory follows the file, not a number in it.
constexpr int64_t kMaxRebuiltWindows = int64_t{1} << 18;

// Effective times of an instruction: what the app draws (lens/app/js/model.js).
struct Times {
  double ds, rs, s, e;
};

Times TimesOf(const InstrRow& r, int64_t cycles) {
  Times t;
  t.s = r.start >= 0 ? double(r.start) : double(cycles);
  t.rs = r.ready >= 0 ? std::min(double(r.ready), t.s) : t.s;
  t.ds = r.dispatch >= 0 ? std::min(double(r.dispatch), t.rs) : t.rs;
  t.e = r.end >= 0 ? std::max(double(r.end), t.s) : std::max(double(cycles), t.s);
  return t;
}

// The bucket columns the attribution reads (the others only matter to rebuilt windows, or not
// at all): converting all 17 to doubles was a fifth of the analysis.
const std::set<std::string_view> kAttributed = {"n",  "bm", "bd", "bs", "ms", "mb",
                                                "fm", "fq", "fv", "fc", "mx"};

struct Windows {
  std::vector<double> ws, we;                  // [ws, we) of each window
  std::map<std::string, std::vector<double>> col;
  size_t size() const { return ws.size(); }
};

// Adds intervals [st, en) to `out` per window: their overlap, or `amount` spread evenly.
void Spread(const Windows& w, double st, double en, double amount, bool by_amount,
            std::vector<double>* out) {
  if (en <= st) return;
  double rate = by_amount ? amount / (en - st) : 1;
  size_t k = size_t(std::upper_bound(w.we.begin(), w.we.end(), st) - w.we.begin());
  for (; k < w.size() && w.ws[k] < en; ++k) {
    double ov = std::min(en, w.we[k]) - std::max(st, w.ws[k]);
    if (ov > 0) (*out)[k] += ov * rate;
  }
}

}  // namespace

const std::array<CauseInfo, kNumCauses>& Causes() {
  static const std::array<CauseInfo, kNumCauses> kCauses = {{
      {"stream", "streaming", "port B moved a chunk (MM weights or LD/ST data)"},
      {"dram", "DRAM not ready", "a port-B request waited for DRAM (bucket bs)"},
      {"starved", "MXU starved", "the MXU could consume but its weight FIFO was empty (ms)"},
      {"notcons", "MXU not consuming", "the weight FIFO was full, so the streamer stopped (mb)"},
      {"tmem", "TMEM arbitration", "a unit was frozen by the TMEM arbiter (fm fq fv fc)"},
      {"mxcomp", "MXU computing between streams", "the MXU had an instruction but no chunk moved (mx - bm)"},
      {"vpu", "waiting on VPU work", "the vector unit was busy while port B idled"},
      {"quant", "waiting on quantizer work", "the quantizer was busy while port B idled"},
      {"dma", "waiting on DMA work", "the DMA was busy without moving a port-B chunk"},
      {"none", "nothing in flight", "no unit had work: dispatch, dependencies, the end of the run"},
  }};
  return kCauses;
}

Analysis Analyze(const Profile& p) {
  Analysis a;
  const size_t nu = p.units.size();
  auto unit_id = [&](const char* name, int dflt) {
    auto it = std::find(p.units.begin(), p.units.end(), name);
    return it == p.units.end() ? dflt : int(it - p.units.begin());
  };
  const int kDma = unit_id("DMA", 0), kMxu = unit_id("MXU", 1), kQuant = unit_id("QUANT", 2),
            kVpu = unit_id("VPU", 3);

  // Windows: the buckets of slice 0, or rebuilt from the instructions.
  Windows w;
  const Buckets* b = p.slices.empty() ? nullptr : &p.slices[0].buckets;
  if (b && b->size() > 0) {
    for (const auto& [name, member] : Buckets::Columns()) {
      if (!kAttributed.count(name)) continue;
      const std::vector<int64_t>& v = b->*member;
      std::vector<double>& c = w.col[name];
      c.assign(b->size(), 0);
      if (v.size() == b->size()) std::copy(v.begin(), v.end(), c.begin());
    }
    for (size_t k = 0; k < b->size(); ++k) {
      w.we.push_back(double(b->c[k]) + 1);
      w.ws.push_back(w.we.back() - double(b->n[k]));
    }
  } else {
    a.rebuilt_windows = true;
    const int64_t cycles = std::max<int64_t>(p.cycles, 0);
    const int64_t width =
        std::max(kRebuiltWindow, (cycles + kMaxRebuiltWindows - 1) / kMaxRebuiltWindows);
    const int64_t n = (cycles + width - 1) / width;
    for (const auto& [name, member] : Buckets::Columns()) w.col[name].assign(size_t(n), 0);
    for (int64_t k = 0; k < n; ++k) {
      w.ws.push_back(double(k * width));
      w.we.push_back(double(std::min((k + 1) * width, cycles)));
      w.col["n"][size_t(k)] = w.we.back() - w.ws.back();
    }
  }
  a.windows = int64_t(w.size());

  // Classes, and each unit's runs in start order.
  std::map<std::string, size_t> class_of;
  std::vector<std::vector<std::pair<double, double>>> runs(nu);
  std::vector<double> &col_bm = w.col["bm"], &col_bd = w.col["bd"], &col_am = w.col["am"],
                      &col_aq = w.col["aq"];
  for (const InstrRow& r : p.instrs) {
    Times t = TimesOf(r, p.cycles);
    auto [it, fresh] = class_of.try_emplace(r.name, a.classes.size());
    if (fresh) a.classes.push_back({r.name, r.unit});
    ClassStats& c = a.classes[it->second];
    c.count++;
    c.busy += t.e - t.s;
    c.work += double(r.work);
    c.wait_dep += t.rs - t.ds;
    c.wait_unit += t.s - t.rs;
    c.port_b += double(r.port_b);
    c.port_a += double(r.port_a);
    if (size_t(r.unit) < nu) runs[size_t(r.unit)].push_back({t.s, t.e});
    if (a.rebuilt_windows) {
      double en = std::max(t.e, t.s + 1);
      if (r.unit == kMxu) Spread(w, t.s, en, double(r.port_b), true, &col_bm);
      if (r.unit == kDma) Spread(w, t.s, en, double(r.port_b), true, &col_bd);
      if (r.unit == kMxu) Spread(w, t.s, en, double(r.port_a), true, &col_am);
      if (r.unit == kQuant) Spread(w, t.s, en, double(r.port_a), true, &col_aq);
    }
  }
  // Busy windows of the units the attribution reads them of (MXU and DMA in place of missing
  // buckets too): the union of their runs. Every unit's busy total.
  std::vector<std::vector<double>> busy(nu);
  for (int u : {kVpu, kQuant, kDma}) {
    if (size_t(u) < nu) busy[size_t(u)].assign(w.size(), 0);
  }
  if (a.rebuilt_windows && size_t(kMxu) < nu) busy[size_t(kMxu)].assign(w.size(), 0);
  std::vector<double> union_total(nu, 0);
  for (size_t u = 0; u < nu; ++u) {
    std::stable_sort(runs[u].begin(), runs[u].end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });
    double cs = -1, ce = -1;
    auto flush = [&] {
      if (cs < 0) return;
      if (!busy[u].empty()) Spread(w, cs, ce, 0, false, &busy[u]);
      union_total[u] += ce - cs;
    };
    for (auto [s, e] : runs[u]) {
      if (e <= s) continue;
      if (cs < 0 || s > ce) {
        flush();
        cs = s;
        ce = e;
      } else {
        ce = std::max(ce, e);
      }
    }
    flush();
  }
  if (a.rebuilt_windows) {
    if (size_t(kMxu) < nu) w.col["mx"] = busy[size_t(kMxu)];
    if (size_t(kDma) < nu) w.col["ld"] = busy[size_t(kDma)];
  }
  for (size_t u = 0; u < nu; ++u) {
    const std::vector<int64_t>* pb = p.slices.empty() ? nullptr : &p.slices[0].busy;
    a.unit_busy.push_back(pb && u < pb->size() ? double((*pb)[u]) : union_total[u]);
  }

  // The attribution, window by window (the order is the definition).
  const std::vector<double> zero(w.size(), 0);
  auto busy_of = [&](int u) -> const std::vector<double>& {
    return size_t(u) < nu && !busy[size_t(u)].empty() ? busy[size_t(u)] : zero;
  };
  // The columns once, by reference: a string-keyed lookup per column and window was most of
  // the hw profile build on a long run (a window per 64 cycles).
  auto& c = w.col;
  const std::vector<double> &cn = c["n"], &cbm = c["bm"], &cbd = c["bd"], &cbs = c["bs"],
                            &cms = c["ms"], &cmb = c["mb"], &cfm = c["fm"], &cfq = c["fq"],
                            &cfv = c["fv"], &cfc = c["fc"], &cmx = c["mx"];
  const std::vector<double> &bvpu = busy_of(kVpu), &bquant = busy_of(kQuant),
                            &bdma = busy_of(kDma);
  a.window_start = w.ws;
  a.window_end = w.we;
  a.per_window.assign(w.size(), {});
  for (size_t k = 0; k < w.size(); ++k) {
    std::array<double, kNumCauses>& here = a.per_window[k];
    double n = cn[k];
    double stream = std::min(n, cbm[k] + cbd[k]);
    double rest = n - stream;
    here[0] = stream;
    const double amounts[] = {cbs[k],
                              cms[k],
                              cmb[k],
                              cfm[k] + cfq[k] + cfv[k] + cfc[k],
                              cmx[k] - cbm[k],
                              bvpu[k],
                              bquant[k],
                              bdma[k] - cbd[k]};
    for (int q = 0; q < 8; ++q) {
      double v = std::min(rest, std::max(0.0, amounts[q]));
      here[size_t(q + 1)] = v;
      rest -= v;
    }
    here[kNumCauses - 1] = rest;
    for (int q = 0; q < kNumCauses; ++q) a.causes[size_t(q)] += here[size_t(q)];
  }
  a.total = std::accumulate(a.causes.begin(), a.causes.end(), 0.0);
  return a;
}

}  // namespace otpu::lens
