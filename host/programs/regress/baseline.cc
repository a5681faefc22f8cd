#include "host/programs/regress/baseline.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <numeric>

#include "base/json.h"

namespace otpu::regress {
namespace {

using rapidjson::Value;

constexpr const char* kFormat = "otpu-regress-baseline";
constexpr int kVersion = 1;

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

}  // namespace

std::string BaselineJson(const std::string& id, const lens::Profile& p) {
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
  j += "\"format\":" + Str(kFormat) + ",\"version\":" + std::to_string(kVersion) + ",\n";
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
  for (size_t i = 0; i < p.instrs.size(); ++i) {
    const lens::InstrRow& r = p.instrs[i];
    j += std::string(i ? ",\n" : "\n") + "[" + std::to_string(r.pc) + "," + Str(r.name) + "," +
         std::to_string(r.dispatch) + "," + std::to_string(r.ready) + "," +
         std::to_string(r.release) + "," + std::to_string(r.start) + "," + std::to_string(r.end) +
         "," + Counters(r.counters, false) + "]";
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
    return bad("version", "expected 1 (or older)");
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
  p.instrs.reserve(rows.Size());
  for (rapidjson::SizeType i = 0; i < rows.Size(); ++i) {
    const std::string f = "instrs[" + std::to_string(i) + "]";
    const Value& r = rows[i];
    if (!r.IsArray() || r.Size() != 8 || !r[1].IsString()) {
      return bad(f, "expected [pc, name, dispatch, ready, release, start, end, counters]");
    }
    lens::InstrRow row;
    row.idx = int64_t(i);
    int64_t* fields[] = {&row.pc, nullptr, &row.dispatch, &row.ready, &row.release, &row.start,
                         &row.end};
    for (int k = 0; k < 7; ++k) {
      if (k == 1) continue;
      if (!r[k].IsInt64()) return bad(f + "[" + std::to_string(k) + "]", "expected an integer");
      *fields[k] = r[k].GetInt64();
    }
    row.name = r[1].GetString();
    RETURN_IF_ERROR(counters(r[7], f + "[7]", &row.counters));
    p.instrs.push_back(std::move(row));
  }
  return p;
}

lens::ProfileDelta CompareWithBaseline(const lens::Profile& baseline, const lens::Profile& now) {
  // The baseline keeps no sources; name the instructions from the new profile's.
  return lens::DiffProfile(baseline, now);
}

}  // namespace otpu::regress
