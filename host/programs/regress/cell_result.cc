#include "host/programs/regress/cell_result.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <iterator>

#include "base/json.h"
#include "workloads/version.h"

namespace otpu::regress {

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kPass: return "pass";
    case Outcome::kFail: return "fail";
    case Outcome::kError: return "error";
    case Outcome::kSkip: return "skip";
  }
  return "?";
}

bool ParseOutcome(const std::string& name, Outcome* o) {
  for (Outcome x : {Outcome::kPass, Outcome::kFail, Outcome::kError, Outcome::kSkip}) {
    if (name == OutcomeName(x)) {
      *o = x;
      return true;
    }
  }
  return false;
}

CellResult ErrorResult(const std::string& id, int index, const std::string& why) {
  CellResult r;
  r.id = id;
  r.index = index;
  for (const char* name : kVerdictNames) r.verdicts.push_back({name, Outcome::kError, why, ""});
  return r;
}

Outcome CellResult::outcome() const {
  bool fail = false;
  for (const Verdict& v : verdicts) {
    if (v.outcome == Outcome::kError) return Outcome::kError;
    fail = fail || v.outcome == Outcome::kFail;
  }
  if (verdicts.empty()) return Outcome::kError;
  return fail ? Outcome::kFail : Outcome::kPass;
}

std::string CellResultJson(const CellResult& r) {
  rapidjson::StringBuffer sb;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(sb);
  w.SetIndent(' ', 1);
  auto str = [&](const char* key, const std::string& v) {
    w.Key(key);
    w.String(v.c_str(), rapidjson::SizeType(v.size()));
  };
  w.StartObject();
  str("id", r.id);
  w.Key("index");
  w.Int(r.index);
  str("outcome", OutcomeName(r.outcome()));
  str("matrix", r.matrix);
  str("workload", r.workload);
  str("config", r.config);
  str("memory", r.memory);
  str("transport", r.transport);
  w.Key("seed");
  w.Uint64(r.seed);
  str("key", r.key);
  str("command", r.command);
  str("run", r.run);
  w.Key("reused");
  w.Bool(r.reused);
  w.Key("wall_s");
  w.Double(r.wall_s);
  str("started", r.started);
  str("hostname", r.hostname);
  w.Key("cycles");
  w.Int64(r.cycles);
  w.Key("efficiency");
  w.Double(r.efficiency);
  str("profile", r.profile);
  str("accepted", r.accepted);
  w.Key("moved");  // [pc, name, source, runs, d_busy, d_end]
  w.StartArray();
  for (const MovedInstr& m : r.moved) {
    w.StartArray();
    w.Int64(m.pc);
    w.String(m.name.c_str(), rapidjson::SizeType(m.name.size()));
    w.String(m.source.c_str(), rapidjson::SizeType(m.source.size()));
    w.Int64(m.runs);
    w.Int64(m.d_busy);
    w.Int64(m.d_end);
    w.EndArray();
  }
  w.EndArray();
  str("tool_version", r.tool_version.empty() ? VersionString() : r.tool_version);
  if (!r.waves.empty()) str("waves", r.waves);
  if (r.divergence_cycle >= 0) {
    w.Key("divergence");
    w.StartObject();
    w.Key("run");
    w.Int(r.divergence_run);
    w.Key("cycle");
    w.Int64(r.divergence_cycle);
    w.EndObject();
  }
  if (r.has_coverage) {
    w.Key("coverage");
    w.StartArray();
    for (const std::string& b : r.coverage) w.String(b.c_str(), rapidjson::SizeType(b.size()));
    w.EndArray();
  }
  w.Key("verdicts");
  w.StartArray();
  for (const Verdict& v : r.verdicts) {
    w.StartObject();
    str("name", v.name);
    str("outcome", OutcomeName(v.outcome));
    str("message", v.message);
    str("detail", v.detail);
    w.Key("time_s");
    w.Double(v.time_s);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(sb.GetString(), sb.GetSize()) + "\n";
}

StatusOr<CellResult> ParseCellResult(const std::string& json, const std::string& path) {
  auto bad = [&](const std::string& what) { return InvalidArgument(path + ": " + what); };
  rapidjson::Document doc;
  if (Status s = ParseStrictJson(json, "", &doc); !s.ok()) {
    return bad("not a cell result (" + s.message() + ")");
  }
  if (!doc.IsObject()) return bad("not a cell result (expected an object)");
  CellResult r;
  auto get_str = [&](const char* key, std::string* out) -> Status {
    if (!doc.HasMember(key) || !doc[key].IsString()) return bad(std::string(key) + ": expected a string");
    *out = doc[key].GetString();
    return OkStatus();
  };
  RETURN_IF_ERROR(get_str("id", &r.id));
  RETURN_IF_ERROR(get_str("matrix", &r.matrix));
  RETURN_IF_ERROR(get_str("workload", &r.workload));
  RETURN_IF_ERROR(get_str("config", &r.config));
  RETURN_IF_ERROR(get_str("memory", &r.memory));
  RETURN_IF_ERROR(get_str("transport", &r.transport));
  RETURN_IF_ERROR(get_str("key", &r.key));
  RETURN_IF_ERROR(get_str("command", &r.command));
  RETURN_IF_ERROR(get_str("profile", &r.profile));
  RETURN_IF_ERROR(get_str("accepted", &r.accepted));
  if (doc.HasMember("tool_version") && doc["tool_version"].IsString()) {
    r.tool_version = doc["tool_version"].GetString();
  }
  // Optional: results written before cells recorded them have none.
  for (auto [key, out] : {std::pair{"started", &r.started}, std::pair{"hostname", &r.hostname}}) {
    if (doc.HasMember(key) && doc[key].IsString()) *out = doc[key].GetString();
  }
  // Optional: results written before the roll-up have no "moved".
  if (doc.HasMember("moved")) {
    if (!doc["moved"].IsArray()) return bad("moved: expected an array");
    for (const rapidjson::Value& m : doc["moved"].GetArray()) {
      if (!m.IsArray() || m.Size() != 6 || !m[0].IsInt64() || !m[1].IsString() || !m[2].IsString() ||
          !m[3].IsInt64() || !m[4].IsInt64() || !m[5].IsInt64()) {
        return bad("moved: expected [pc, name, source, runs, d_busy, d_end] rows");
      }
      r.moved.push_back({m[0].GetInt64(), m[1].GetString(), m[2].GetString(), m[3].GetInt64(),
                         m[4].GetInt64(), m[5].GetInt64()});
    }
  }
  if (doc.HasMember("waves") && doc["waves"].IsString()) r.waves = doc["waves"].GetString();
  if (doc.HasMember("divergence")) {
    const rapidjson::Value& d = doc["divergence"];
    if (!d.IsObject() || !d.HasMember("run") || !d["run"].IsInt() || d["run"].GetInt() < 0 ||
        !d.HasMember("cycle") || !d["cycle"].IsInt64() || d["cycle"].GetInt64() < 0) {
      return bad("divergence: expected {run, cycle} of non-negative integers");
    }
    r.divergence_run = d["run"].GetInt();
    r.divergence_cycle = d["cycle"].GetInt64();
  }
  // Optional: a cell that stopped before collecting coverage, and older results, have none.
  if (doc.HasMember("coverage")) {
    if (!doc["coverage"].IsArray()) return bad("coverage: expected an array of bin names");
    for (const rapidjson::Value& b : doc["coverage"].GetArray()) {
      if (!b.IsString()) return bad("coverage: expected an array of bin names");
      r.coverage.push_back(b.GetString());
    }
    r.has_coverage = true;
  }
  // Results written before runs had ids have none: stale for any run that has one.
  if (doc.HasMember("run") && doc["run"].IsString()) r.run = doc["run"].GetString();
  if (!doc.HasMember("index") || !doc["index"].IsInt()) return bad("index: expected an integer");
  r.index = doc["index"].GetInt();
  if (!doc.HasMember("seed") || !doc["seed"].IsUint64()) return bad("seed: expected an integer");
  r.seed = doc["seed"].GetUint64();
  if (!doc.HasMember("reused") || !doc["reused"].IsBool()) return bad("reused: expected a bool");
  r.reused = doc["reused"].GetBool();
  if (!doc.HasMember("wall_s") || !doc["wall_s"].IsNumber()) return bad("wall_s: expected a number");
  r.wall_s = doc["wall_s"].GetDouble();
  if (!doc.HasMember("cycles") || !doc["cycles"].IsInt64()) return bad("cycles: expected an integer");
  r.cycles = doc["cycles"].GetInt64();
  if (!doc.HasMember("efficiency") || !doc["efficiency"].IsNumber()) {
    return bad("efficiency: expected a number");
  }
  r.efficiency = doc["efficiency"].GetDouble();
  if (!doc.HasMember("verdicts") || !doc["verdicts"].IsArray()) return bad("verdicts: expected an array");
  for (const rapidjson::Value& v : doc["verdicts"].GetArray()) {
    Verdict x;
    if (!v.IsObject() || !v.HasMember("name") || !v["name"].IsString() || !v.HasMember("outcome") ||
        !v["outcome"].IsString() || !ParseOutcome(v["outcome"].GetString(), &x.outcome) ||
        !v.HasMember("message") || !v["message"].IsString()) {
      return bad("verdicts: expected {name, outcome, message, detail}");
    }
    x.name = v["name"].GetString();
    x.message = v["message"].GetString();
    if (v.HasMember("detail") && v["detail"].IsString()) x.detail = v["detail"].GetString();
    if (v.HasMember("time_s")) {
      if (!v["time_s"].IsNumber() || v["time_s"].GetDouble() < 0) {
        return bad("verdicts: time_s: expected a number of seconds");
      }
      x.time_s = v["time_s"].GetDouble();
    }
    r.verdicts.push_back(std::move(x));
  }
  // Exactly the verdicts a cell gives, in order: a result missing one, or with a name no cell
  // writes, was not written by a cell and must never count as a pass.
  const size_t n = std::size(kVerdictNames);
  bool known = r.verdicts.size() == n;
  for (size_t i = 0; known && i < n; ++i) known = r.verdicts[i].name == kVerdictNames[i];
  if (!known) {
    std::string names;
    for (const char* v : kVerdictNames) names += (names.empty() ? "" : ", ") + std::string(v);
    return bad("verdicts: expected exactly " + names + ", in this order");
  }
  return r;
}

}  // namespace otpu::regress
