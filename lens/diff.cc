#include "lens/diff.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <tuple>
#include <utility>

#include "lens/profile_compare.h"

namespace otpu::lens {
namespace {

// A card counter that counts the host's polling around the run, not the run: never compared.
bool HostDependentCounter(const std::string& name) { return name == "UPTIME"; }

// Run-level figures of a profile, by name, in a fixed order.
std::vector<std::pair<std::string, double>> Figures(const Profile& p) {
  std::vector<std::pair<std::string, double>> f;
  f.emplace_back("cycles", double(p.cycles));
  f.emplace_back("roofline.bound", double(p.roofline.bound));
  f.emplace_back("roofline.efficiency", p.roofline.efficiency);
  f.emplace_back("macs", double(p.macs));
  f.emplace_back("bytes", double(p.bytes));
  f.emplace_back("instructions", double(p.instrs.size()));
  Ports ports;
  std::vector<int64_t> busy(p.units.size()), lose(p.units.size());
  std::vector<int64_t> buckets(Buckets::kNumColumns);
  for (const Slice& s : p.slices) {
    ports.bmxu += s.ports.bmxu;
    ports.bdma += s.ports.bdma;
    ports.amxu += s.ports.amxu;
    ports.aq += s.ports.aq;
    for (size_t u = 0; u < busy.size() && u < s.busy.size(); ++u) busy[u] += s.busy[u];
    for (size_t u = 0; u < lose.size() && u < s.lose.size(); ++u) lose[u] += s.lose[u];
    int col = 0;
    for (const auto& [name, member] : Buckets::Columns()) {
      for (int64_t v : s.buckets.*member) buckets[col] += v;
      ++col;
    }
  }
  f.emplace_back("ports.bmxu", double(ports.bmxu));
  f.emplace_back("ports.bdma", double(ports.bdma));
  f.emplace_back("ports.amxu", double(ports.amxu));
  f.emplace_back("ports.aq", double(ports.aq));
  for (size_t u = 0; u < busy.size(); ++u) f.emplace_back("busy." + p.units[u], double(busy[u]));
  for (size_t u = 0; u < lose.size(); ++u) f.emplace_back("lose." + p.units[u], double(lose[u]));
  int col = 0;
  for (const auto& [name, member] : Buckets::Columns()) {
    // `c` is each window's last cycle: its sum says nothing `cycles` does not.
    if (std::string(name) != "c") f.emplace_back(std::string("buckets.") + name, double(buckets[col]));
    ++col;
  }
  if (p.board) {
    for (const CounterValue& c : *p.board) {
      if (!HostDependentCounter(c.name)) f.emplace_back("board." + c.name, double(c.value));
    }
  }
  return f;
}

int64_t Counter(const CounterSet& set, const std::string& name) {
  for (const CounterValue& c : set) {
    if (c.name == name) return c.value;
  }
  return 0;
}

std::string SourceOf(const Profile& p, int32_t source) {
  if (source < 0 || size_t(source) >= p.sources.size()) return "";
  const Source& s = p.sources[size_t(source)];
  return s.file + ":" + std::to_string(s.line);
}

// Picks what took the difference of one changed instruction.
void Explain(const InstrRow& a, const InstrRow& b, InstrDelta* d) {
  const int64_t dur = (b.end - b.start) - (a.end - a.start);
  std::string best;
  int64_t best_delta = 0;
  auto consider = [&](const std::string& name, int64_t delta) {
    if (std::llabs(delta) > std::llabs(best_delta)) {
      best = name;
      best_delta = delta;
    }
  };
  if (dur != 0) {
    for (const CounterValue& c : b.counters) consider(c.name, c.value - Counter(a.counters, c.name));
    for (const CounterValue& c : a.counters) {
      bool in_b = false;
      for (const CounterValue& x : b.counters) in_b = in_b || x.name == c.name;
      if (!in_b) consider(c.name, -c.value);
    }
    if (best.empty()) {
      best = "work";
      best_delta = dur;
    }
  } else {
    consider("dispatch", b.dispatch - a.dispatch);
    consider("dependencies", (b.ready - b.dispatch) - (a.ready - a.dispatch));
    consider("wait for its unit", (b.start - b.ready) - (a.start - a.ready));
    if (best.empty()) {
      for (const CounterValue& c : b.counters) consider(c.name, c.value - Counter(a.counters, c.name));
    }
  }
  d->cause = best;
  d->cause_delta = best_delta;
}

std::string Num(double v) {
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%" PRId64, int64_t(v));
  } else {
    std::snprintf(buf, sizeof buf, "%.6g", v);
  }
  return buf;
}

std::string Signed(int64_t v) { return (v > 0 ? "+" : "") + std::to_string(v); }

}  // namespace

bool ProfileDiff::equal() const {
  if (!only_base.empty() || !only_new.empty()) return false;
  for (const ProfileDelta& p : profiles) {
    if (!p.equal()) return false;
  }
  return true;
}

ProfileDelta DiffProfile(const Profile& base, const Profile& now) {
  ProfileDelta d;
  d.name = now.name;
  const auto fa = Figures(base), fb = Figures(now);
  std::map<std::string, double> before(fa.begin(), fa.end());
  for (const auto& [name, value] : fb) {
    auto it = before.find(name);
    const double old = it == before.end() ? 0.0 : it->second;
    if (it == before.end() || old != value) d.fields.push_back({name, old, value});
    if (it != before.end()) before.erase(it);
  }
  for (const auto& [name, value] : fa) {
    if (before.count(name)) d.fields.push_back({name, value, 0.0});
  }

  // (pc, occurrence) -> row of the baseline.
  std::map<std::pair<int64_t, int64_t>, const InstrRow*> base_rows;
  std::map<int64_t, int64_t> seen;
  for (const InstrRow& r : base.instrs) base_rows[{r.pc, seen[r.pc]++}] = &r;
  seen.clear();
  for (const InstrRow& b : now.instrs) {
    const int64_t occ = seen[b.pc]++;
    auto it = base_rows.find({b.pc, occ});
    if (it == base_rows.end()) {
      ++d.instrs_unmatched;
      continue;
    }
    const InstrRow& a = *it->second;
    base_rows.erase(it);
    ++d.instrs_compared;
    if (SameTimesAndCounters(a, b)) continue;
    ++d.instrs_changed;
    InstrDelta x;
    x.pc = b.pc;
    x.occurrence = occ;
    x.idx = b.idx;
    x.name = b.name;
    x.source = SourceOf(now, b.source);
    x.cycles_before = a.end - a.start;
    x.cycles_after = b.end - b.start;
    x.start_before = a.start;
    x.start_after = b.start;
    x.end_before = a.end;
    x.end_after = b.end;
    x.dispatch_before = a.dispatch;
    x.dispatch_after = b.dispatch;
    Explain(a, b, &x);
    d.instrs.push_back(std::move(x));
  }
  d.instrs_unmatched += int64_t(base_rows.size());
  // Those whose own cycles changed first (by how much), then those that only moved (by how far).
  std::stable_sort(d.instrs.begin(), d.instrs.end(), [](const InstrDelta& x, const InstrDelta& y) {
    const int64_t dx = std::llabs(x.cycles_after - x.cycles_before);
    const int64_t dy = std::llabs(y.cycles_after - y.cycles_before);
    if (dx != dy) return dx > dy;
    return std::llabs(x.end_after - x.end_before) > std::llabs(y.end_after - y.end_before);
  });
  return d;
}

ProfileDiff DiffProfiles(const std::vector<Profile>& base, const std::vector<Profile>& now) {
  ProfileDiff diff;
  std::vector<bool> used(base.size(), false);
  auto find = [&](const Profile& p, bool same_kind) -> int {
    for (size_t i = 0; i < base.size(); ++i) {
      if (!used[i] && base[i].name == p.name && (!same_kind || base[i].kind == p.kind)) {
        return int(i);
      }
    }
    return -1;
  };
  std::vector<const Profile*> unmatched;
  for (const Profile& p : now) {
    int i = find(p, true);
    if (i < 0) i = find(p, false);
    if (i < 0) {
      unmatched.push_back(&p);
      continue;
    }
    used[size_t(i)] = true;
    diff.profiles.push_back(DiffProfile(base[size_t(i)], p));
  }
  // One profile on each side under different names (two recordings named after their
  // files): still a comparison, not two unmatched profiles.
  std::vector<size_t> left;
  for (size_t i = 0; i < base.size(); ++i) {
    if (!used[i]) left.push_back(i);
  }
  if (left.size() == 1 && unmatched.size() == 1) {
    diff.profiles.push_back(DiffProfile(base[left[0]], *unmatched[0]));
    return diff;
  }
  for (size_t i : left) diff.only_base.push_back(base[i].name);
  for (const Profile* p : unmatched) diff.only_new.push_back(p->name);
  return diff;
}

std::string DiffText(const ProfileDiff& diff, size_t top) {
  std::string out;
  if (diff.equal()) {
    return diff.profiles.size() == 1 ? "equal: profile \"" + diff.profiles[0].name + "\"\n"
                                     : "equal: " + std::to_string(diff.profiles.size()) +
                                           " profiles\n";
  }
  for (const std::string& n : diff.only_base) out += "only in the baseline: profile \"" + n + "\"\n";
  for (const std::string& n : diff.only_new) out += "only in the new file: profile \"" + n + "\"\n";
  for (const ProfileDelta& p : diff.profiles) {
    if (p.equal()) {
      out += "profile \"" + p.name + "\": equal\n";
      continue;
    }
    out += "profile \"" + p.name + "\": differs\n";
    for (const FieldDelta& f : p.fields) {
      char buf[256];
      std::string rel;
      if (f.before != 0) {
        char r[32];
        std::snprintf(r, sizeof r, " (%+.2f%%)", 100.0 * (f.after - f.before) / std::fabs(f.before));
        rel = r;
      }
      std::snprintf(buf, sizeof buf, "  %-22s %s -> %s%s\n", f.field.c_str(), Num(f.before).c_str(),
                    Num(f.after).c_str(), rel.c_str());
      out += buf;
    }
    out += "  instructions: " + std::to_string(p.instrs_compared) + " compared, " +
           std::to_string(p.instrs_changed) + " changed, " + std::to_string(p.instrs_unmatched) +
           " unmatched";
    if (p.instrs.empty()) {
      out += "\n";
      continue;
    }
    out += "; moved most:\n";
    for (size_t i = 0; i < p.instrs.size() && i < top; ++i) {
      const InstrDelta& x = p.instrs[i];
      out += "    pc " + std::to_string(x.pc) + " " + x.name;
      if (x.occurrence > 0) out += " (run " + std::to_string(x.occurrence + 1) + ")";
      if (!x.source.empty()) out += " at " + x.source;
      out += ": " + std::to_string(x.cycles_before) + " -> " + std::to_string(x.cycles_after) +
             " cycles (" + Signed(x.cycles_after - x.cycles_before) + "), " + x.cause + " " +
             Signed(x.cause_delta) + "; start " + std::to_string(x.start_before) + " -> " +
             std::to_string(x.start_after) + ", end " + std::to_string(x.end_before) + " -> " +
             std::to_string(x.end_after) + "\n";
    }
    if (p.instrs.size() > top) {
      out += "    ... and " + std::to_string(p.instrs.size() - top) + " more\n";
    }
  }
  return out;
}

std::string DiffJson(const ProfileDiff& diff) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  auto str = [&](const std::string& s) { w.String(s.c_str(), rapidjson::SizeType(s.size())); };
  auto num = [&](double v) {
    if (v == std::floor(v) && std::fabs(v) < 9e15) w.Int64(int64_t(v));
    else w.Double(v);
  };
  w.StartObject();
  w.Key("equal");
  w.Bool(diff.equal());
  w.Key("only_base");
  w.StartArray();
  for (const std::string& n : diff.only_base) str(n);
  w.EndArray();
  w.Key("only_new");
  w.StartArray();
  for (const std::string& n : diff.only_new) str(n);
  w.EndArray();
  w.Key("profiles");
  w.StartArray();
  for (const ProfileDelta& p : diff.profiles) {
    w.StartObject();
    w.Key("name");
    str(p.name);
    w.Key("equal");
    w.Bool(p.equal());
    w.Key("fields");
    w.StartArray();
    for (const FieldDelta& f : p.fields) {
      w.StartObject();
      w.Key("field");
      str(f.field);
      w.Key("before");
      num(f.before);
      w.Key("after");
      num(f.after);
      w.EndObject();
    }
    w.EndArray();
    w.Key("instrs_compared");
    w.Int64(p.instrs_compared);
    w.Key("instrs_changed");
    w.Int64(p.instrs_changed);
    w.Key("instrs_unmatched");
    w.Int64(p.instrs_unmatched);
    w.Key("instrs");
    w.StartArray();
    for (const InstrDelta& x : p.instrs) {
      w.StartObject();
      w.Key("pc");
      w.Int64(x.pc);
      w.Key("occurrence");
      w.Int64(x.occurrence);
      w.Key("idx");
      w.Int64(x.idx);
      w.Key("name");
      str(x.name);
      w.Key("source");
      str(x.source);
      for (const auto& [key, before, after] :
           {std::tuple{"cycles", x.cycles_before, x.cycles_after},
            std::tuple{"start", x.start_before, x.start_after},
            std::tuple{"end", x.end_before, x.end_after},
            std::tuple{"dispatch", x.dispatch_before, x.dispatch_after}}) {
        w.Key(key);
        w.StartArray();
        w.Int64(before);
        w.Int64(after);
        w.EndArray();
      }
      w.Key("cause");
      str(x.cause);
      w.Key("cause_delta");
      w.Int64(x.cause_delta);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(sb.GetString(), sb.GetSize()) + "\n";
}

}  // namespace otpu::lens
