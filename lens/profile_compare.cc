#include "lens/profile_compare.h"

#include <algorithm>
#include <optional>

#include "base/strings.h"
#include "workloads/isa/defs.h"

namespace otpu::lens {
namespace {

std::string CounterText(const CounterSet& s) {
  std::string t;
  for (const CounterValue& c : s) t += (t.empty() ? "" : " ") + c.name + "=" + std::to_string(c.value);
  return "{" + t + "}";
}

// "end 1234 (rtl) vs 1240 (hw)".
std::string Num(const char* what, int64_t a, int64_t b) {
  return StrFormat("%s %lld (rtl) vs %lld (hw)", what, (long long)a, (long long)b);
}

}  // namespace

bool SameTimesAndCounters(const InstrRow& a, const InstrRow& b) {
  for (const auto& [name, field] : kInstrTimes) {
    if (a.*field != b.*field) return false;
  }
  return a.counters == b.counters;
}

std::string FirstDivergence(const Profile& rtl, const Profile& hw) {
  const size_t n = std::min(rtl.instrs.size(), hw.instrs.size());
  for (size_t i = 0; i < n; ++i) {
    const InstrRow &a = rtl.instrs[i], &b = hw.instrs[i];
    const std::string where = StrFormat("instruction %zu (pc %lld %s): ", i, (long long)a.pc,
                                        a.name.c_str());
    if (a.pc != b.pc) return where + Num("pc", a.pc, b.pc);
    if (a.unit != b.unit) return where + Num("unit", a.unit, b.unit);
    if (a.name != b.name) return where + "name " + a.name + " (rtl) vs " + b.name + " (hw)";
    if (a.detail != b.detail) return where + "detail '" + a.detail + "' (rtl) vs '" + b.detail + "' (hw)";
    for (const auto& [name, field] : kInstrTimes) {
      if (a.*field != b.*field) return where + Num(name, a.*field, b.*field);
    }
    if (a.counters != b.counters) {
      return where + "counters " + CounterText(a.counters) + " (rtl) vs " + CounterText(b.counters) + " (hw)";
    }
    if (a.work != b.work) return where + Num("work", a.work, b.work);
    if (a.port_b != b.port_b) return where + Num("port_b", a.port_b, b.port_b);
    if (a.port_a != b.port_a) return where + Num("port_a", a.port_a, b.port_a);
    if (a.source != b.source) return where + Num("source", a.source, b.source);
  }
  if (rtl.instrs.size() != hw.instrs.size()) {
    return Num("instructions", int64_t(rtl.instrs.size()), int64_t(hw.instrs.size()));
  }
  if (rtl.cycles != hw.cycles) return Num("cycles", rtl.cycles, hw.cycles);
  if (rtl.slices.size() != hw.slices.size()) {
    return Num("slices", int64_t(rtl.slices.size()), int64_t(hw.slices.size()));
  }
  for (size_t s = 0; s < rtl.slices.size(); ++s) {
    const Slice &a = rtl.slices[s], &b = hw.slices[s];
    if (!(a.ports == b.ports)) return StrFormat("slice %zu: port totals differ", s);
    for (size_t u = 0; u < a.busy.size() && u < b.busy.size(); ++u) {
      if (a.busy[u] != b.busy[u]) return StrFormat("slice %zu: ", s) + Num(("busy." + rtl.units[u]).c_str(), a.busy[u], b.busy[u]);
    }
    for (size_t u = 0; u < a.lose.size() && u < b.lose.size(); ++u) {
      if (a.lose[u] != b.lose[u]) return StrFormat("slice %zu: ", s) + Num(("lose." + rtl.units[u]).c_str(), a.lose[u], b.lose[u]);
    }
    for (const auto& [name, member] : Buckets::Columns()) {
      const std::vector<int64_t>&x = a.buckets.*member, &y = b.buckets.*member;
      for (size_t w = 0; w < std::min(x.size(), y.size()); ++w) {
        if (x[w] != y[w]) {
          return StrFormat("slice %zu: bucket %s of window %zu: %lld (rtl) vs %lld (hw)", s, name, w,
                           (long long)x[w], (long long)y[w]);
        }
      }
      if (x.size() != y.size()) return StrFormat("slice %zu: bucket %s: ", s, name) + Num("windows", int64_t(x.size()), int64_t(y.size()));
    }
  }
  if (!(rtl.roofline == hw.roofline)) return Num("roofline.bound", rtl.roofline.bound, hw.roofline.bound);
  if (rtl.macs != hw.macs) return Num("macs", rtl.macs, hw.macs);
  if (rtl.bytes != hw.bytes) return Num("bytes", rtl.bytes, hw.bytes);
  if (!(rtl.mxu_gaps == hw.mxu_gaps)) return Num("mxu_gaps", int64_t(rtl.mxu_gaps.size()), int64_t(hw.mxu_gaps.size()));
  if (!(rtl.programs == hw.programs)) return "programs differ";
  if (!(rtl.sources == hw.sources)) return "sources differ";
  for (size_t i = 0; i < std::max(rtl.notes.size(), hw.notes.size()); ++i) {
    const std::string a = i < rtl.notes.size() ? rtl.notes[i].text : "(none)";
    const std::string b = i < hw.notes.size() ? hw.notes[i].text : "(none)";
    if (a != b) return StrFormat("note %zu: '%s' (rtl) vs '%s' (hw)", i, a.c_str(), b.c_str());
  }
  return "";
}

std::string FirstDivergenceInTrace(const Profile& rtl, const Profile& hw,
                                   int64_t traced_to, int bucket_cycles) {
  if (rtl.cycles != hw.cycles) return Num("cycles", rtl.cycles, hw.cycles);
  if (hw.instrs.size() > rtl.instrs.size()) {
    return Num("instructions", int64_t(rtl.instrs.size()), int64_t(hw.instrs.size()));
  }
  for (size_t i = 0; i < rtl.instrs.size(); ++i) {
    const InstrRow& a = rtl.instrs[i];
    const std::string where = StrFormat("instruction %zu (pc %lld %s): ", i, (long long)a.pc,
                                        a.name.c_str());
    if (i >= hw.instrs.size()) {
      if (a.dispatch >= 0 && a.dispatch <= traced_to) {
        return where + StrFormat("dispatched at %lld, inside the trace (to %lld), but missing",
                                 (long long)a.dispatch, (long long)traced_to);
      }
      continue;
    }
    const InstrRow& b = hw.instrs[i];
    if (a.pc != b.pc) return where + Num("pc", a.pc, b.pc);
    if (a.name != b.name) return where + "name " + a.name + " (rtl) vs " + b.name + " (hw)";
    for (const auto& [name, field] : kInstrTimes) {
      const int64_t x = a.*field, y = b.*field;
      // An event after the cut is missing from the trace (-1); anything it holds must agree.
      // `ready` travels in the start record (SPEC 5), so it is known only once started.
      const int64_t seen_at = field == &InstrRow::ready ? a.start : x;
      if (y == -1 && (x == -1 || seen_at == -1 || seen_at > traced_to)) continue;
      if (x != y) return where + Num(name, x, y);
    }
    if (b.end != -1 && a.counters != b.counters) {
      return where + "counters " + CounterText(a.counters) + " (rtl) vs " + CounterText(b.counters) + " (hw)";
    }
  }
  if (bucket_cycles > 0 && !rtl.slices.empty() && !hw.slices.empty()) {
    for (const auto& [name, member] : Buckets::Columns()) {
      const std::vector<int64_t>&x = rtl.slices[0].buckets.*member, &y = hw.slices[0].buckets.*member;
      for (size_t w = 0; w < std::min(x.size(), y.size()); ++w) {
        // A window's P and Q records follow its last cycle: the one just before the cut may
        // have lost its Q record with the cut.
        if (int64_t(w + 2) * bucket_cycles - 1 > traced_to) break;
        if (x[w] != y[w]) {
          return StrFormat("bucket %s of window %zu: %lld (rtl) vs %lld (hw)", name, w,
                           (long long)x[w], (long long)y[w]);
        }
      }
    }
  }
  return "";
}

std::string BoardCounterDivergence(const Profile& rtl, const Profile& hw) {
  if (!hw.board) return "";
  auto counter = [&](const char* name) -> std::optional<int64_t> {
    for (const CounterValue& c : *hw.board) {
      if (c.name == name) return c.value;
    }
    return std::nullopt;
  };
  if (!counter("RUNNING")) return "";  // no free-running counters (register map 1)
  auto busy = [&](isa::Unit u) {
    int64_t t = 0;
    for (const Slice& s : rtl.slices) t += size_t(u) < s.busy.size() ? s.busy[size_t(u)] : 0;
    return t;
  };
  int64_t lose = 0, starve = 0, requests = 0;
  for (const Slice& s : rtl.slices) {
    for (int64_t v : s.lose) lose += v;
    for (size_t w = 0; w < s.buckets.size(); ++w) {
      starve += s.buckets.ms[w];
      requests += s.buckets.bm[w] + s.buckets.bd[w] + s.buckets.am[w] + s.buckets.aq[w];
    }
  }
  const std::pair<const char*, int64_t> expected[] = {
      {"RUNNING", rtl.cycles},
      {"DMA_BUSY", busy(isa::Unit::kDMA)},
      {"MXU_BUSY", busy(isa::Unit::kMXU)},
      {"QNT_BUSY", busy(isa::Unit::kQUANT)},
      {"VPU_BUSY", busy(isa::Unit::kVPU)},
      {"TMEM_DENY", lose},
      {"MXU_STARVE", starve},
  };
  for (const auto& [name, want] : expected) {
    const std::optional<int64_t> got = counter(name);
    if (got && *got != want) {
      return StrFormat("board counter %s %lld, but the core's events give %lld", name,
                       (long long)*got, (long long)want);
    }
  }
  const std::optional<int64_t> rd = counter("DRAM_RD"), wr = counter("DRAM_WR");
  if (rd && wr && *rd + *wr != requests) {
    return StrFormat("board counters DRAM_RD + DRAM_WR %lld, but the core's events give %lld "
                     "accepted port requests",
                     (long long)(*rd + *wr), (long long)requests);
  }
  return "";
}

}  // namespace otpu::lens
