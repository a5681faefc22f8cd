#include "host/programs/regress/baseline.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <numeric>

#include "base/json.h"

namespace otpu::regress {
namespace {

using rapidjson::Value;

constexpr const char* kFormat = "otpu-regress-baseline";
// 1: instruction rows of absolute cycles. 2: rows of durations, waits and references to the
// event they waited for (EncodeRows), so a shift moves the line of what changed, not its echo.
constexpr int kVersion = 2;

// One JSON value as text (numbers in their shortest exact form).
template <typename Fn>
std::string Emit(Fn&& fn) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  fn(w);
  return std::string(sb.GetString(), sb.GetSize());
}

std::string Str(const std::string& s) {
  return Emit([&](auto& w) { w.String(s.c_str(), rapidjson::SizeType(s.size())); });
}

std::string Dbl(double v) { return Emit([&](auto& w) { w.Double(v); }); }

std::string Ints(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

std::string Counters(const lens::CounterSet& set, bool skip_uptime) {
  std::string s = "{";
  bool first = true;
  for (const lens::CounterValue& c : set) {
    if (skip_uptime && c.name == "UPTIME") continue;  // the host's polling, not the run
    s += (first ? "" : ",") + Str(c.name) + ":" + std::to_string(c.value);
    first = false;
  }
  return s + "}";
}


// One event time of a version-2 row: what it is relative to (docs/regress.md "Baselines").
struct RelTime {
  enum Kind { kNone, kOffset, kEndOf } kind = kNone;
  int64_t value = 0;  // kOffset: cycles after the base; kEndOf: rows back
  int64_t after = 0;  // kEndOf: cycles after that row's end
};
struct RelativeRow {
  RelTime dispatch, ready, release, start, end;
};

// null (did not happen), an offset (an integer), "eK" (the end of the row K rows earlier) or
// "eK+N" (N cycles after it).
std::string Time(const RelTime& t) {
  if (t.kind == RelTime::kNone) return "null";
  if (t.kind == RelTime::kEndOf) {
    return "\"e" + std::to_string(t.value) + (t.after ? "+" + std::to_string(t.after) : "") + "\"";
  }
  return std::to_string(t.value);
}

// Version 2's rows. Each time is written relative to the event it most likely waited for, so
// that when an earlier instruction moves, the rows that only followed it keep their text:
// - dispatch: cycles after the previous dispatch (of the last row that had one);
// - ready (and release, start): 0 when it equals its base (dispatch; ready; ready); else, when an
//   earlier row ended after the base and at or before it, "eK" or "eK+N": N cycles after the end
//   of the row K rows back that ended last (the producer it waited for, the instruction before
//   it on its unit, the slot or FIFO space it waited for); else cycles after the base;
// - end: cycles after the start (the instruction's busy time).
// A base that did not happen (-1) counts as cycle 0, so the time is absolute.
std::vector<RelativeRow> EncodeRows(const std::vector<lens::InstrRow>& rows) {
  std::vector<RelativeRow> out(rows.size());
  int64_t prev_dispatch = 0;
  std::map<int64_t, size_t> ends;  // cycle -> latest row ending there, ordered by cycle
  auto rel = [&](int64_t t, int64_t base, size_t i) {
    RelTime r;
    if (t < 0) return r;
    base = std::max<int64_t>(base, 0);
    if (t == base) return RelTime{RelTime::kOffset, 0};
    // The latest end at or before t, when it is later than the base: what t most likely
    // followed (exactly, or some cycles after it).
    auto it = ends.upper_bound(t);
    if (it != ends.begin() && std::prev(it)->first > base) {
      --it;
      return RelTime{RelTime::kEndOf, int64_t(i - it->second), t - it->first};
    }
    return RelTime{RelTime::kOffset, t - base};
  };
  for (size_t i = 0; i < rows.size(); ++i) {
    const lens::InstrRow& r = rows[i];
    RelativeRow& x = out[i];
    if (r.dispatch >= 0) {
      x.dispatch = {RelTime::kOffset, r.dispatch - prev_dispatch};
      prev_dispatch = r.dispatch;
    }
    x.ready = rel(r.ready, r.dispatch, i);
    x.release = rel(r.release, r.ready, i);
    x.start = rel(r.start, r.ready, i);
    if (r.end >= 0) x.end = {RelTime::kOffset, r.end - std::max<int64_t>(r.start, 0)};
    if (r.end >= 0) ends[r.end] = i;
  }
  return out;
}

}  // namespace

std::string BaselineJson(const std::string& id, const lens::Profile& p, BaselineLayout layout) {
  lens::Ports ports;
  std::vector<int64_t> busy(p.units.size()), lose(p.units.size());
  std::vector<int64_t> totals(lens::Buckets::kNumColumns);
  for (const lens::Slice& s : p.slices) {
    ports.bmxu += s.ports.bmxu;
    ports.bdma += s.ports.bdma;
    ports.amxu += s.ports.amxu;
    ports.aq += s.ports.aq;
    ports.c = std::max(ports.c, s.ports.c);
    for (size_t u = 0; u < busy.size() && u < s.busy.size(); ++u) busy[u] += s.busy[u];
    for (size_t u = 0; u < lose.size() && u < s.lose.size(); ++u) lose[u] += s.lose[u];
    int col = 0;
    for (const auto& [name, member] : lens::Buckets::Columns()) {
      totals[size_t(col++)] += std::accumulate((s.buckets.*member).begin(),
                                               (s.buckets.*member).end(), int64_t{0});
    }
  }
  std::string j = "{\n";
  j += "\"format\":" + Str(kFormat) + ",\"version\":" +
       std::to_string(layout == BaselineLayout::kRelative ? kVersion : 1) + ",\n";
  j += "\"cell\":" + Str(id) + ",\n";
  j += "\"profile\":" + Str(p.name) + ",\"kind\":" + Str(lens::KindName(p.kind)) + ",\n";
  j += "\"cycles\":" + std::to_string(p.cycles) + ",\"roofline\":{\"bound\":" +
       std::to_string(p.roofline.bound) + ",\"efficiency\":" + Dbl(p.roofline.efficiency) + "},\n";
  j += "\"macs\":" + std::to_string(p.macs) + ",\"bytes\":" + std::to_string(p.bytes) + ",\n";
  j += "\"units\":[";
  for (size_t u = 0; u < p.units.size(); ++u) j += (u ? "," : "") + Str(p.units[u]);
  j += "],\n";
  j += "\"ports\":{\"bmxu\":" + std::to_string(ports.bmxu) + ",\"bdma\":" +
       std::to_string(ports.bdma) + ",\"amxu\":" + std::to_string(ports.amxu) + ",\"aq\":" +
       std::to_string(ports.aq) + ",\"c\":" + std::to_string(ports.c) + "},\n";
  j += "\"busy\":" + Ints(busy) + ",\"lose\":" + Ints(lose) + ",\n";
  j += "\"buckets\":{";
  int col = 0;
  for (const auto& [name, member] : lens::Buckets::Columns()) {
    j += (col ? "," : "") + Str(name) + ":" + std::to_string(totals[size_t(col)]);
    ++col;
  }
  j += "},\n";
  if (p.board) j += "\"board\":" + Counters(*p.board, true) + ",\n";
  j += "\"instrs\":[";
  const std::vector<RelativeRow> rel = layout == BaselineLayout::kRelative ? EncodeRows(p.instrs)
                                                                            : std::vector<RelativeRow>{};
  for (size_t i = 0; i < p.instrs.size(); ++i) {
    const lens::InstrRow& r = p.instrs[i];
    j += std::string(i ? ",\n" : "\n") + "[" + std::to_string(r.pc) + "," + Str(r.name) + ",";
    if (layout == BaselineLayout::kRelative) {
      const RelativeRow& x = rel[i];
      j += Time(x.dispatch) + "," + Time(x.ready) + "," + Time(x.release) + "," + Time(x.start) + "," + Time(x.end);
    } else {
      j += std::to_string(r.dispatch) + "," + std::to_string(r.ready) + "," +
           std::to_string(r.release) + "," + std::to_string(r.start) + "," + std::to_string(r.end);
    }
    j += "," + Counters(r.counters, false) + "]";
  }
  j += "\n]}\n";
  return j;
}

StatusOr<lens::Profile> ParseBaseline(const std::string& json, const std::string& path) {
  auto bad = [&](const std::string& field, const std::string& what) {
    return InvalidArgument(path + ": " + field + ": " + what);
  };
  rapidjson::Document doc;
  if (Status s = ParseStrictJson(json, "", &doc); !s.ok()) return bad("(top)", s.message());
  if (!doc.IsObject()) return bad("(top)", "expected an object");
  if (!doc.HasMember("format") || !doc["format"].IsString() ||
      std::string(doc["format"].GetString()) != kFormat) {
    return bad("format", std::string("expected \"") + kFormat + "\"");
  }
  if (!doc.HasMember("version") || !doc["version"].IsInt() || doc["version"].GetInt() > kVersion) {
    return bad("version", "expected " + std::to_string(kVersion) + " (or older)");
  }
  auto i64 = [&](const Value& obj, const char* key, const std::string& field,
                 int64_t* out) -> Status {
    if (!obj.IsObject() || !obj.HasMember(key) || !obj[key].IsInt64()) {
      return bad(field, "expected an integer");
    }
    *out = obj[key].GetInt64();
    return OkStatus();
  };
  auto counters = [&](const Value& v, const std::string& field,
                      lens::CounterSet* out) -> Status {
    if (!v.IsObject()) return bad(field, "expected an object of counters");
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
      if (!it->value.IsInt64()) return bad(field + "." + it->name.GetString(), "expected an integer");
      out->push_back({it->name.GetString(), it->value.GetInt64()});
    }
    return OkStatus();
  };
  lens::Profile p;
  if (doc.HasMember("profile") && doc["profile"].IsString()) p.name = doc["profile"].GetString();
  if (doc.HasMember("kind") && doc["kind"].IsString()) {
    lens::ParseKind(doc["kind"].GetString(), &p.kind);
  }
  RETURN_IF_ERROR(i64(doc, "cycles", "cycles", &p.cycles));
  RETURN_IF_ERROR(i64(doc, "macs", "macs", &p.macs));
  RETURN_IF_ERROR(i64(doc, "bytes", "bytes", &p.bytes));
  if (!doc.HasMember("roofline")) return bad("roofline", "missing");
  RETURN_IF_ERROR(i64(doc["roofline"], "bound", "roofline.bound", &p.roofline.bound));
  if (!doc["roofline"].HasMember("efficiency") || !doc["roofline"]["efficiency"].IsNumber()) {
    return bad("roofline.efficiency", "expected a number");
  }
  p.roofline.efficiency = doc["roofline"]["efficiency"].GetDouble();
  if (!doc.HasMember("units") || !doc["units"].IsArray()) return bad("units", "expected an array");
  p.units.clear();
  for (const Value& u : doc["units"].GetArray()) {
    if (!u.IsString()) return bad("units", "expected strings");
    p.units.push_back(u.GetString());
  }
  lens::Slice s;
  if (!doc.HasMember("ports")) return bad("ports", "missing");
  RETURN_IF_ERROR(i64(doc["ports"], "bmxu", "ports.bmxu", &s.ports.bmxu));
  RETURN_IF_ERROR(i64(doc["ports"], "bdma", "ports.bdma", &s.ports.bdma));
  RETURN_IF_ERROR(i64(doc["ports"], "amxu", "ports.amxu", &s.ports.amxu));
  RETURN_IF_ERROR(i64(doc["ports"], "aq", "ports.aq", &s.ports.aq));
  RETURN_IF_ERROR(i64(doc["ports"], "c", "ports.c", &s.ports.c));
  for (const char* key : {"busy", "lose"}) {
    if (!doc.HasMember(key) || !doc[key].IsArray()) return bad(key, "expected an array");
    std::vector<int64_t>& v = std::string(key) == "busy" ? s.busy : s.lose;
    for (const Value& x : doc[key].GetArray()) {
      if (!x.IsInt64()) return bad(key, "expected integers");
      v.push_back(x.GetInt64());
    }
  }
  if (!doc.HasMember("buckets") || !doc["buckets"].IsObject()) return bad("buckets", "expected an object");
  s.buckets.Resize(1);
  for (const auto& [name, member] : lens::Buckets::Columns()) {
    RETURN_IF_ERROR(i64(doc["buckets"], name, std::string("buckets.") + name, &(s.buckets.*member)[0]));
  }
  p.slices.push_back(std::move(s));
  if (doc.HasMember("board")) {
    p.board.emplace();
    RETURN_IF_ERROR(counters(doc["board"], "board", &*p.board));
  }
  if (!doc.HasMember("instrs") || !doc["instrs"].IsArray()) return bad("instrs", "expected an array");
  const Value& rows = doc["instrs"];
  const bool relative = doc["version"].GetInt() >= 2;
  p.instrs.reserve(rows.Size());
  int64_t prev_dispatch = 0;
  for (rapidjson::SizeType i = 0; i < rows.Size(); ++i) {
    const std::string f = "instrs[" + std::to_string(i) + "]";
    const Value& r = rows[i];
    if (!r.IsArray() || r.Size() != 8 || !r[1].IsString() || !r[0].IsInt64()) {
      return bad(f, "expected [pc, name, dispatch, ready, release, start, end, counters]");
    }
    lens::InstrRow row;
    row.idx = int64_t(i);
    row.pc = r[0].GetInt64();
    row.name = r[1].GetString();
    if (!relative) {
      int64_t* fields[] = {&row.dispatch, &row.ready, &row.release, &row.start, &row.end};
      for (int k = 0; k < 5; ++k) {
        if (!r[k + 2].IsInt64()) return bad(f + "[" + std::to_string(k + 2) + "]", "expected an integer");
        *fields[k] = r[k + 2].GetInt64();
      }
    } else {
      // The inverse of EncodeRows: null, an offset from the base, or "eK" (row i-K's end).
      auto time = [&](int k, int64_t base, int64_t* out) -> Status {
        const Value& v = r[k];
        const std::string field = f + "[" + std::to_string(k) + "]";
        if (v.IsNull()) {
          *out = -1;
        } else if (v.IsInt64()) {
          *out = std::max<int64_t>(base, 0) + v.GetInt64();
          if (*out < 0) return bad(field, "a time before cycle 0");
        } else if (v.IsString() && v.GetStringLength() > 1 && v.GetString()[0] == 'e') {
          const std::string text(v.GetString() + 1);
          const size_t plus = text.find('+');
          const std::string n = text.substr(0, plus), after = plus == std::string::npos ? "0" : text.substr(plus + 1);
          auto digits = [](const std::string& d) {
            return !d.empty() && d.size() <= 12 && d.find_first_not_of("0123456789") == std::string::npos;
          };
          if (!digits(n) || !digits(after)) return bad(field, "expected null, an integer, \"eK\" or \"eK+N\"");
          const int64_t back = std::stoll(n);
          if (back < 1 || back > int64_t(i) || p.instrs[size_t(int64_t(i) - back)].end < 0) {
            return bad(field, "\"" + std::string(v.GetString()) + "\" names no earlier row's end");
          }
          *out = p.instrs[size_t(int64_t(i) - back)].end + std::stoll(after);
        } else {
          return bad(field, "expected null, an integer, \"eK\" or \"eK+N\"");
        }
        return OkStatus();
      };
      RETURN_IF_ERROR(time(2, prev_dispatch, &row.dispatch));
      if (row.dispatch >= 0) prev_dispatch = row.dispatch;
      RETURN_IF_ERROR(time(3, row.dispatch, &row.ready));
      RETURN_IF_ERROR(time(4, row.ready, &row.release));
      RETURN_IF_ERROR(time(5, row.ready, &row.start));
      if (!r[6].IsNull() && !r[6].IsInt64()) return bad(f + "[6]", "expected null or an integer");
      RETURN_IF_ERROR(time(6, row.start, &row.end));
    }
    RETURN_IF_ERROR(counters(r[7], f + "[7]", &row.counters));
    p.instrs.push_back(std::move(row));
  }
  return p;
}

lens::ProfileDelta CompareWithBaseline(const lens::Profile& baseline, const lens::Profile& now) {
  // The baseline keeps no sources; name the instructions from the new profile's.
  return lens::DiffProfile(baseline, now);
}

std::vector<MovedInstr> MovedByPc(const lens::ProfileDelta& d) {
  std::map<std::pair<int64_t, std::string>, MovedInstr> by;
  for (const lens::InstrDelta& x : d.instrs) {
    MovedInstr& m = by[{x.pc, x.name}];
    m.pc = x.pc;
    m.name = x.name;
    if (m.source.empty()) m.source = x.source;
    ++m.runs;
    m.d_busy += (x.cycles_after - x.cycles_before);
    const int64_t d_end = x.end_after - x.end_before;
    if (std::llabs(d_end) > std::llabs(m.d_end)) m.d_end = d_end;
  }
  std::vector<MovedInstr> out;
  for (auto& [k, m] : by) out.push_back(std::move(m));
  std::stable_sort(out.begin(), out.end(), [](const MovedInstr& a, const MovedInstr& b) {
    if (std::llabs(a.d_busy) != std::llabs(b.d_busy)) return std::llabs(a.d_busy) > std::llabs(b.d_busy);
    return std::llabs(a.d_end) > std::llabs(b.d_end);
  });
  return out;
}

}  // namespace otpu::regress
