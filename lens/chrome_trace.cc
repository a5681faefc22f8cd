#include "lens/chrome_trace.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "lens/file_io.h"
#include "lens/gzip.h"
#include "lens/otpuprof.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace otpu::lens {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

// Overlapping instructions of one unit go to extra threads (tid = unit * kLaneStride + lane).
constexpr int kLaneStride = 16;

// The argument's key is the one trace viewers read for that metadata event: `labels` for
// process_labels (Perfetto and chrome://tracing ignore a `name` there), `name` otherwise.
void Meta(Writer& w, const char* name, int pid, int tid, const std::string& value, bool sort = false) {
  w.StartObject();
  w.Key("ph"); w.String("M");
  w.Key("name"); w.String(name);
  w.Key("pid"); w.Int(pid);
  w.Key("tid"); w.Int(tid);
  w.Key("args");
  w.StartObject();
  if (sort) {
    w.Key("sort_index"); w.Int(std::stoi(value));
  } else {
    w.Key(std::string_view(name) == "process_labels" ? "labels" : "name");
    w.String(value.c_str());
  }
  w.EndObject();
  w.EndObject();
}

void Counter(Writer& w, int pid, const char* name, double ts, double value) {
  w.StartObject();
  w.Key("ph"); w.String("C");
  w.Key("name"); w.String(name);
  w.Key("pid"); w.Int(pid);
  w.Key("ts"); w.Double(ts);
  w.Key("args");
  w.StartObject();
  w.Key("value"); w.Double(value);
  w.EndObject();
  w.EndObject();
}

// True when an `hw` trace lost anything (docs/profile.md `hwtrace`).
bool Incomplete(const HwTrace& t) {
  return !t.complete || t.drop > 0 || t.lost > 0 || t.wrapped || t.open_at_end > 0;
}

// What the trace buffer kept and lost, as an object (the keys of docs/profile.md `hwtrace`).
void HwTraceObject(Writer& w, const HwTrace& t) {
  w.StartObject();
  w.Key("count"); w.Int64(t.count);
  w.Key("drop"); w.Int64(t.drop);
  w.Key("depth"); w.Int64(t.depth);
  w.Key("keep"); w.String(t.keep.c_str());
  w.Key("wrapped"); w.Bool(t.wrapped);
  w.Key("lost"); w.Int64(t.lost);
  w.Key("records"); w.Int64(t.records);
  w.Key("open_at_end"); w.Int64(t.open_at_end);
  w.Key("traced_to"); w.Int64(t.traced_to);
  w.Key("complete"); w.Bool(t.complete);
  w.EndObject();
}

void Profile1(Writer& w, const Profile& p, int pid) {
  const double us = 1.0 / (p.clock_mhz > 0 ? p.clock_mhz : 100);
  Meta(w, "process_name", pid, 0, p.name + " (" + KindName(p.kind) + ")");
  if (p.hwtrace && Incomplete(*p.hwtrace)) {
    // Trace loss where Perfetto shows it: a label on the process and a marker at the cut.
    const HwTrace& t = *p.hwtrace;
    Meta(w, "process_labels", pid, 0,
         "INCOMPLETE TRACE: traced to cycle " + std::to_string(t.traced_to) + ", " +
             std::to_string(t.lost) + " records lost, " + std::to_string(t.drop) + " dropped" +
             (t.wrapped ? ", ring wrapped" : "") + ", " + std::to_string(t.open_at_end) +
             " open at end");
    if (t.traced_to >= 0 && t.traced_to + 1 < p.cycles) {
      w.StartObject();
      w.Key("ph"); w.String("i");
      w.Key("s"); w.String("p");
      w.Key("name"); w.String("trace ends (traced_to)");
      w.Key("pid"); w.Int(pid);
      w.Key("tid"); w.Int(0);
      w.Key("ts"); w.Double(double(t.traced_to + 1) * us);
      w.Key("args");
      HwTraceObject(w, t);
      w.EndObject();
    }
  }
  // Lanes: instructions of a unit in start order, each in the first lane free at its start.
  std::vector<size_t> order(p.instrs.size());
  std::iota(order.begin(), order.end(), 0);
  auto start = [&](size_t i) { return p.instrs[i].start >= 0 ? p.instrs[i].start : p.cycles; };
  auto end = [&](size_t i) { return std::max(p.instrs[i].end >= 0 ? p.instrs[i].end : p.cycles, start(i)); };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return start(a) < start(b); });
  std::vector<std::vector<int64_t>> lane_end(p.units.size());
  std::vector<int> lane(p.instrs.size(), 0);
  for (size_t i : order) {
    auto& ends = lane_end[size_t(std::clamp<int32_t>(p.instrs[i].unit, 0, int32_t(p.units.size()) - 1))];
    size_t k = 0;
    while (k < ends.size() && ends[k] > start(i)) ++k;
    if (k == ends.size()) {
      if (k + 1 >= size_t(kLaneStride)) k = 0;
      else ends.push_back(0);
    }
    ends[k] = std::max(ends[k], end(i));
    lane[i] = int(k);
  }
  for (size_t u = 0; u < p.units.size(); ++u) {
    for (size_t k = 0; k < lane_end[u].size(); ++k) {
      int tid = int(u) * kLaneStride + int(k) + 1;
      Meta(w, "thread_name", pid, tid, p.units[u] + (k ? " " + std::to_string(k + 1) : ""));
      Meta(w, "thread_sort_index", pid, tid, std::to_string(tid), true);
    }
  }
  for (size_t i : order) {
    const InstrRow& r = p.instrs[i];
    w.StartObject();
    w.Key("ph"); w.String("X");
    w.Key("name"); w.String(r.name.c_str());
    w.Key("cat"); w.String(size_t(r.unit) < p.units.size() ? p.units[size_t(r.unit)].c_str() : "?");
    w.Key("pid"); w.Int(pid);
    w.Key("tid"); w.Int(std::clamp<int32_t>(r.unit, 0, int32_t(p.units.size()) - 1) * kLaneStride + lane[i] + 1);
    w.Key("ts"); w.Double(double(start(i)) * us);
    w.Key("dur"); w.Double(double(end(i) - start(i)) * us);
    w.Key("args");
    w.StartObject();
    w.Key("idx"); w.Int64(r.idx);
    w.Key("pc"); w.Int64(r.pc);
    w.Key("detail"); w.String(r.detail.c_str());
    w.Key("dispatch"); w.Int64(r.dispatch);
    w.Key("ready"); w.Int64(r.ready);
    if (r.release >= 0) { w.Key("release"); w.Int64(r.release); }
    w.Key("start"); w.Int64(r.start);
    w.Key("end"); w.Int64(r.end);
    w.Key("work"); w.Int64(r.work);
    w.Key("port_b"); w.Int64(r.port_b);
    w.Key("port_a"); w.Int64(r.port_a);
    for (const CounterValue& c : r.counters) { w.Key(c.name.c_str()); w.Int64(c.value); }
    if (r.source >= 0 && size_t(r.source) < p.sources.size()) {
      const Source& s = p.sources[size_t(r.source)];
      w.Key("source"); w.String((s.file + ":" + std::to_string(s.line)).c_str());
    }
    w.EndObject();
    w.EndObject();
  }
  // Flow events for the scoreboard dependencies: an instruction that waited (ready > dispatch)
  // waited last on the youngest older instruction whose end is its ready (docs/lens-app.md); an
  // arrow from inside that producer's slice to the start of the waiting one.
  std::vector<size_t> by_idx(p.instrs.size());
  std::iota(by_idx.begin(), by_idx.end(), 0);
  std::stable_sort(by_idx.begin(), by_idx.end(), [&](size_t a, size_t b) { return p.instrs[a].idx < p.instrs[b].idx; });
  std::unordered_map<int64_t, size_t> last_by_end;
  auto tid_of = [&](size_t i) {
    return std::clamp<int32_t>(p.instrs[i].unit, 0, int32_t(p.units.size()) - 1) * kLaneStride + lane[i] + 1;
  };
  int64_t flow_id = int64_t(pid) << 32;
  for (size_t i : by_idx) {
    const InstrRow& r = p.instrs[i];
    if (r.dispatch >= 0 && r.ready > r.dispatch && r.start >= 0) {
      auto it = last_by_end.find(r.ready);
      if (it != last_by_end.end() && end(it->second) > start(it->second)) {
        const size_t prod = it->second;
        ++flow_id;
        for (int k = 0; k < 2; ++k) {
          w.StartObject();
          w.Key("ph"); w.String(k == 0 ? "s" : "f");
          w.Key("id"); w.Int64(flow_id);
          w.Key("name"); w.String("dependency");
          w.Key("cat"); w.String("dependency");
          w.Key("pid"); w.Int(pid);
          w.Key("tid"); w.Int(tid_of(k == 0 ? prod : i));
          // Inside the producer's last cycle; at the consumer's start ("e": its enclosing slice).
          w.Key("ts"); w.Double((k == 0 ? double(end(prod)) - 0.5 : double(start(i))) * us);
          if (k == 1) { w.Key("bp"); w.String("e"); }
          w.EndObject();
        }
      }
    }
    if (r.end >= 0) last_by_end[r.end] = i;
  }
  if (p.slices.empty()) return;
  const Buckets& b = p.slices[0].buckets;
  const double depth = std::max(1, p.config.FIFO_DEPTH);
  for (size_t k = 0; k < b.size(); ++k) {
    const double n = std::max<int64_t>(1, b.n[k]);
    const double ts = double(b.c[k] + 1 - b.n[k]) * us;
    Counter(w, pid, "port B chunks/cycle", ts, double(b.bm[k] + b.bd[k]) / n);
    Counter(w, pid, "MXU busy", ts, double(b.mx[k]) / n);
    Counter(w, pid, "DRAM stalls", ts, double(b.bs[k] + b.as[k]) / n);
    Counter(w, pid, "TMEM losses", ts, double(b.fm[k] + b.fq[k] + b.fv[k] + b.fc[k]) / n);
    Counter(w, pid, "FIFO level", ts, double(b.ff[k]) / depth);
  }
}

}  // namespace

std::string ChromeTraceJson(const ProfileFile& file) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  w.Key("displayTimeUnit"); w.String("ns");
  w.Key("traceEvents");
  w.StartArray();
  for (size_t i = 0; i < file.profiles.size(); ++i) Profile1(w, file.profiles[i], int(i) + 1);
  w.EndArray();
  // Trace-loss metadata per profile (Perfetto shows the trace's "metadata" in its info page).
  w.Key("metadata");
  w.StartObject();
  w.Key("otpu_profiles");
  w.StartArray();
  for (const Profile& p : file.profiles) {
    w.StartObject();
    w.Key("name"); w.String(p.name.c_str());
    w.Key("kind"); w.String(KindName(p.kind));
    w.Key("cycles"); w.Int64(p.cycles);
    w.Key("trace_complete"); w.Bool(!p.hwtrace || !Incomplete(*p.hwtrace));
    if (p.hwtrace) {
      w.Key("hwtrace");
      HwTraceObject(w, *p.hwtrace);
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize());
}

Status WriteChromeTrace(const ProfileFile& file, const std::string& out) {
  const bool gzip = out.size() >= 3 && out.compare(out.size() - 3, 3, ".gz") == 0;
  if (!gzip) return WriteFileAtomically(out, ChromeTraceJson(file));
  StatusOr<std::string> gz = GzipCompress(ChromeTraceJson(file), kGzipLevel);
  if (!gz.ok()) return gz.status().WithContext(out);
  return WriteFileAtomically(out, *gz);
}

}  // namespace otpu::lens
