#include "lens/summary.h"

#include <algorithm>
#include <cstdio>

#include "lens/attribution.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace otpu::lens {
namespace {

std::string Format(const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

double Frac(double a, double b) { return b > 0 ? a / b : 0; }

// Port-B chunks: the slices' port counters, or, for a counters-only board profile (whose
// bmxu/bdma stay 0, docs/profile.md), the roofline's per-slice port-B transfers.
int64_t PortB(const Profile& p) {
  int64_t n = 0;
  for (const Slice& s : p.slices) n += s.ports.bmxu + s.ports.bdma;
  if (n == 0) {
    for (const SliceRoofline& r : p.roofline.per_slice) n += r.portb;
  }
  return n;
}

// False for a counters-only profile: no instructions and no counter windows, so where port B's
// idle cycles went is not recorded.
bool HasTrace(const Profile& p) {
  return !p.instrs.empty() || (!p.slices.empty() && p.slices[0].buckets.size() > 0);
}

}  // namespace

std::string SummaryText(const ProfileFile& file, const std::string& path) {
  std::string out = path + ": " + std::to_string(file.profiles.size()) + " profile" +
                    (file.profiles.size() == 1 ? "" : "s") + "\n";
  for (size_t i = 0; i < file.profiles.size(); ++i) {
    const Profile& p = file.profiles[i];
    const Analysis a = Analyze(p);
    const double cyc = double(p.cycles);
    out += Format("\nprofile %zu: %s (%s)\n", i, p.name.c_str(), KindName(p.kind));
    out += Format("  cycles          %lld (%.2f us at %g MHz)\n", (long long)p.cycles, cyc / p.clock_mhz, p.clock_mhz);
    out += Format("  roofline        %.1f%% (bound %lld cycles)\n", 100 * p.roofline.efficiency, (long long)p.roofline.bound);
    out += Format("  port-B busy     %.1f%% (%lld chunks)\n", 100 * Frac(double(PortB(p)), cyc), (long long)PortB(p));
    out += Format("  MACs per cycle  %.2f of %lld peak (%.1f%%)\n", Frac(double(p.macs), cyc), (long long)p.peak_macs,
                  100 * Frac(Frac(double(p.macs), cyc), double(p.peak_macs)));
    out += Format("  instructions    %zu\n", p.instrs.size());
    const bool busy_counted = HasTrace(p) || (!p.slices.empty() && !p.slices[0].busy.empty());
    if (!busy_counted) out += "  units           busy not counted (no trace, no busy counters)\n";
    else out += "  units           busy cycles  utilisation  TMEM losses\n";
    for (size_t u = 0; u < p.units.size() && busy_counted; ++u) {
      int64_t lose = p.slices.empty() || u >= p.slices[0].lose.size() ? 0 : p.slices[0].lose[u];
      out += Format("    %-13s %11.0f  %10.1f%%  %11lld\n", p.units[u].c_str(), a.unit_busy[u],
                    100 * Frac(a.unit_busy[u], cyc), (long long)lose);
    }
    if (!HasTrace(p)) {
      const double busy = std::min(cyc, double(PortB(p)));
      out += Format("  where port B's cycles went: not recorded (counters only, no trace)\n");
      out += Format("    %-31s %11.0f  %5.1f%%\n", "streaming", busy, 100 * Frac(busy, cyc));
      out += Format("    %-31s %11.0f  %5.1f%%\n", "idle, cause not recorded", cyc - busy,
                    100 * Frac(cyc - busy, cyc));
    }
    if (HasTrace(p)) out += Format("  where port B's cycles went (%lld windows%s)\n", (long long)a.windows,
                  a.rebuilt_windows ? ", rebuilt from the instructions" : "");
    for (int c = 0; c < kNumCauses && HasTrace(p); ++c) {
      out += Format("    %-31s %11.0f  %5.1f%%\n", Causes()[size_t(c)].label, a.causes[size_t(c)],
                    100 * Frac(a.causes[size_t(c)], a.total));
    }
    if (HasTrace(p))
      out += "  classes         count         busy         work     wait dep    wait unit   port B   port A\n";
    std::vector<ClassStats> cls = a.classes;
    std::stable_sort(cls.begin(), cls.end(), [](const ClassStats& x, const ClassStats& y) { return x.busy > y.busy; });
    for (const ClassStats& c : cls) {
      out += Format("    %-11s %7lld %12.0f %12.0f %12.0f %12.0f %8.0f %8.0f\n", c.name.c_str(), (long long)c.count,
                    c.busy, c.work, c.wait_dep, c.wait_unit, c.port_b, c.port_a);
    }
    if (!p.notes.empty()) out += "  findings\n";
    for (const Note& n : p.notes) out += Format("    [%s] ", NoteLevelName(n.level)) + n.text + "\n";
  }
  return out;
}

std::string SummaryJson(const ProfileFile& file, const std::string& path) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  auto key = [&](const char* k) { w.Key(k); };
  w.StartObject();
  key("file");
  w.String(path.c_str());
  key("profiles");
  w.StartArray();
  for (const Profile& p : file.profiles) {
    const Analysis a = Analyze(p);
    const double cyc = double(p.cycles);
    w.StartObject();
    key("name"); w.String(p.name.c_str());
    key("kind"); w.String(KindName(p.kind));
    key("cycles"); w.Int64(p.cycles);
    key("clock_mhz"); w.Double(p.clock_mhz);
    key("time_us"); w.Double(cyc / p.clock_mhz);
    key("roofline_efficiency"); w.Double(p.roofline.efficiency);
    key("roofline_bound"); w.Int64(p.roofline.bound);
    key("port_b_busy"); w.Double(Frac(double(PortB(p)), cyc));
    key("macs_per_cycle"); w.Double(Frac(double(p.macs), cyc));
    key("peak_macs"); w.Int64(p.peak_macs);
    key("instrs"); w.Int64(int64_t(p.instrs.size()));
    key("units");
    w.StartArray();
    for (size_t u = 0; u < p.units.size(); ++u) {
      w.StartObject();
      key("name"); w.String(p.units[u].c_str());
      key("busy"); w.Double(a.unit_busy[u]);
      key("utilisation"); w.Double(Frac(a.unit_busy[u], cyc));
      key("tmem_losses");
      w.Int64(p.slices.empty() || u >= p.slices[0].lose.size() ? 0 : p.slices[0].lose[u]);
      w.EndObject();
    }
    w.EndArray();
    key("trace"); w.Bool(HasTrace(p));
    key("windows"); w.Int64(HasTrace(p) ? a.windows : 0);
    key("cycles_went");
    if (HasTrace(p)) {
      w.StartObject();
      for (int c = 0; c < kNumCauses; ++c) {
        key(Causes()[size_t(c)].key);
        w.Double(a.causes[size_t(c)]);
      }
      w.EndObject();
    } else {
      w.Null();  // counters only: the causes of idle port-B cycles were not recorded
    }
    key("classes");
    w.StartArray();
    for (const ClassStats& c : a.classes) {
      w.StartObject();
      key("name"); w.String(c.name.c_str());
      key("unit"); w.String(size_t(c.unit) < p.units.size() ? p.units[size_t(c.unit)].c_str() : "?");
      key("count"); w.Int64(c.count);
      key("busy"); w.Double(c.busy);
      key("work"); w.Double(c.work);
      key("wait_dep"); w.Double(c.wait_dep);
      key("wait_unit"); w.Double(c.wait_unit);
      key("port_b"); w.Double(c.port_b);
      key("port_a"); w.Double(c.port_a);
      w.EndObject();
    }
    w.EndArray();
    key("notes");
    w.StartArray();
    for (const Note& n : p.notes) {
      w.StartObject();
      key("level"); w.String(NoteLevelName(n.level));
      key("text"); w.String(n.text.c_str());
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buf.GetString()) + "\n";
}

}  // namespace otpu::lens
