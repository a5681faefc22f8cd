#include "host/programs/regress/matrix.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "base/json.h"
#include "host/programs/regress/cell_filter.h"
#include "lens/file_io.h"
#include "workloads/list.h"
#include "workloads/models/content_hash.h"

namespace otpu::regress {
namespace {

using rapidjson::Value;

// Errors name the file and the field: "regress/smoke.json: workloads[2].memories[0]: ...".
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}
  Status Error(const std::string& field, const std::string& what) const {
    return InvalidArgument(path_ + ": " + field + ": " + what);
  }

  // Keys of `obj` must be among `known`.
  Status Keys(const Value& obj, const std::string& field, std::initializer_list<const char*> known) {
    for (auto it = obj.MemberBegin(); it != obj.MemberEnd(); ++it) {
      const std::string key(it->name.GetString(), it->name.GetStringLength());
      bool ok = false;
      for (const char* k : known) ok = ok || key == k;
      if (!ok) {
        std::string list;
        for (const char* k : known) list += std::string(list.empty() ? "" : ", ") + k;
        return Error(field.empty() ? key : field + "." + key, "unknown key (expected " + list + ")");
      }
    }
    return OkStatus();
  }

  StatusOr<std::vector<std::string>> Strings(const Value& v, const std::string& field) {
    if (!v.IsArray() || v.Empty()) return Error(field, "expected a non-empty array of strings");
    std::vector<std::string> out;
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      if (!v[i].IsString()) return Error(field + "[" + std::to_string(i) + "]", "expected a string");
      out.emplace_back(v[i].GetString(), v[i].GetStringLength());
    }
    return out;
  }

  StatusOr<int64_t> Int(const Value& v, const std::string& field, int64_t lo, int64_t hi) {
    if (!v.IsInt64() || v.GetInt64() < lo || v.GetInt64() > hi) {
      return Error(field, "expected an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
    }
    return v.GetInt64();
  }

 private:
  std::string path_;
};

// The axes a workload entry runs on (the matrix's defaults, overridden per workload).
struct Axes {
  std::vector<std::string> configs = {"sim"};
  std::vector<std::string> memories = {"axi"};
  std::vector<std::string> transports = {"sim"};
  int seeds = 1;
};

Status ReadAxes(Reader& r, const Value& obj, const std::string& field, Axes* axes) {
  if (obj.HasMember("configs")) {
    ASSIGN_OR_RETURN(axes->configs, r.Strings(obj["configs"], field + "configs"));
    for (size_t i = 0; i < axes->configs.size(); ++i) {
      if (!ConfigNamed(axes->configs[i]).ok()) {
        return r.Error(field + "configs[" + std::to_string(i) + "]",
                       "'" + axes->configs[i] + "' is not a configuration (sim or board)");
      }
    }
  }
  if (obj.HasMember("memories")) {
    ASSIGN_OR_RETURN(axes->memories, r.Strings(obj["memories"], field + "memories"));
    for (size_t i = 0; i < axes->memories.size(); ++i) {
      StatusOr<Memory> m = ParseMemory(axes->memories[i]);
      if (!m.ok()) return r.Error(field + "memories[" + std::to_string(i) + "]", m.status().message());
    }
  }
  if (obj.HasMember("transports")) {
    ASSIGN_OR_RETURN(axes->transports, r.Strings(obj["transports"], field + "transports"));
    for (size_t i = 0; i < axes->transports.size(); ++i) {
      if (axes->transports[i] != "sim" && axes->transports[i] != "card") {
        return r.Error(field + "transports[" + std::to_string(i) + "]",
                       "'" + axes->transports[i] + "' is not a transport (sim or card)");
      }
    }
  }
  if (obj.HasMember("seeds")) {
    ASSIGN_OR_RETURN(int64_t n, r.Int(obj["seeds"], field + "seeds", 1, 1000));
    axes->seeds = int(n);
  }
  return OkStatus();
}

StatusOr<isa::WFormat> ParseWFormat(const std::string& text) {
  for (isa::WFormat f : {isa::WFormat::kINT8, isa::WFormat::kINT4, isa::WFormat::kFP4}) {
    if (text == isa::WFormatName(f)) return f;
  }
  return InvalidArgument("'" + text + "' is not a weight format (int8, int4 or fp4)");
}

}  // namespace

std::string Memory::Name() const {
  std::string s = axi ? "axi" : (stall ? "" : "ideal");
  if (stall) s += std::string(axi ? " " : "") + "stall " + std::to_string(stall);
  return s;
}

std::string Memory::IdPart() const {
  std::string s = axi ? "axi" : (stall ? "" : "ideal");
  if (stall) s += std::string(axi ? "-" : "") + "stall" + std::to_string(stall);
  return s;
}

StatusOr<Memory> ParseMemory(const std::string& text) {
  ASSIGN_OR_RETURN(rtl::DramOptions o, rtl::ParseDramName(text));
  Memory m;
  m.axi = o.axi;
  m.stall = o.stall_percent;
  return m;
}

std::string Cell::FileName() const {
  std::string s = id;
  std::replace(s.begin(), s.end(), '/', '.');
  return s;
}

rtl::DramOptions Matrix::DramOf(const Cell& cell) const {
  rtl::DramOptions o;
  o.axi = cell.memory.axi;
  o.stall_percent = cell.memory.stall;
  o.seed = cell.seed;
  if (dram.latency > 0) o.latency = dram.latency;
  if (dram.queue_beats > 0) o.queue_beats = dram.queue_beats;
  if (dram.beats_per_cycle > 0) o.beats_per_cycle = dram.beats_per_cycle;
  return o;
}

StatusOr<isa::Config> ConfigNamed(const std::string& name) {
  if (name == "sim") return isa::Config::Sim();
  if (name == "board") return isa::Config::Board();
  return InvalidArgument("'" + name + "' is not a configuration (sim or board)");
}

uint64_t Hash64(const std::string& text) {
  models::ContentHasher h;
  h.Update(text.data(), text.size());
  return h.Digest()[0];
}

StatusOr<Matrix> ReadMatrix(const std::string& path) {
  // Regular files only: a FIFO would block the read, /dev/zero never end.
  StatusOr<std::string> text = lens::ReadWholeFile(path);
  if (!text.ok() && text.status().code() == StatusCode::kDataLoss) {
    return InvalidArgument(path + ": cannot read the matrix file: not a regular file");
  }
  if (!text.ok()) return NotFound(path + ": cannot read the matrix file");
  return ParseMatrix(*text, path);
}

StatusOr<Matrix> ParseMatrix(const std::string& json, const std::string& path) {
  Reader r(path);
  rapidjson::Document doc;
  if (Status s = ParseStrictJson(json, path, &doc); !s.ok()) return InvalidArgument(s.message());
  if (!doc.IsObject()) return r.Error("(top)", "expected an object");
  RETURN_IF_ERROR(r.Keys(doc, "", {"name", "description", "base_seed", "dram", "timeout_s",
                                   "defaults", "workloads", "exclude"}));
  Matrix m;
  m.path = path;
  if (!doc.HasMember("name") || !doc["name"].IsString() || doc["name"].GetStringLength() == 0) {
    return r.Error("name", "expected a non-empty string");
  }
  m.name = doc["name"].GetString();
  // The name is a directory under out/regress/ (the default --out): one path component of
  // letters, digits, '.', '_' and '-', not starting with '.', so it cannot climb out of it.
  const bool plain = m.name.size() <= 64 && m.name[0] != '.' &&
                     std::all_of(m.name.begin(), m.name.end(), [](char c) {
                       return std::isalnum(static_cast<unsigned char>(c)) || c == '.' ||
                              c == '_' || c == '-';
                     });
  if (!plain) {
    return r.Error("name", "expected at most 64 letters, digits, '.', '_' or '-', not starting "
                           "with '.' (it names the directory out/regress/NAME)");
  }
  if (doc.HasMember("description")) {
    if (!doc["description"].IsString()) return r.Error("description", "expected a string");
    m.description = doc["description"].GetString();
  }
  if (doc.HasMember("base_seed")) {
    if (!doc["base_seed"].IsUint64()) return r.Error("base_seed", "expected an unsigned integer");
    m.base_seed = doc["base_seed"].GetUint64();
  }
  if (doc.HasMember("timeout_s")) {
    if (!doc["timeout_s"].IsNumber() || doc["timeout_s"].GetDouble() <= 0) {
      return r.Error("timeout_s", "expected a positive number of seconds");
    }
    m.timeout_s = doc["timeout_s"].GetDouble();
  }
  if (doc.HasMember("dram")) {
    const Value& d = doc["dram"];
    if (!d.IsObject()) return r.Error("dram", "expected an object");
    RETURN_IF_ERROR(r.Keys(d, "dram", {"latency", "queue_beats", "beats_per_cycle"}));
    if (d.HasMember("latency")) {
      ASSIGN_OR_RETURN(int64_t v, r.Int(d["latency"], "dram.latency", 1, 4096));
      m.dram.latency = int(v);
    }
    if (d.HasMember("queue_beats")) {
      ASSIGN_OR_RETURN(int64_t v, r.Int(d["queue_beats"], "dram.queue_beats", 1, 4096));
      m.dram.queue_beats = int(v);
    }
    if (d.HasMember("beats_per_cycle")) {
      if (!d["beats_per_cycle"].IsNumber() || d["beats_per_cycle"].GetDouble() <= 0 ||
          d["beats_per_cycle"].GetDouble() > 1) {
        return r.Error("dram.beats_per_cycle", "expected a number in (0, 1]");
      }
      m.dram.beats_per_cycle = d["beats_per_cycle"].GetDouble();
    }
  }
  Axes defaults;
  if (doc.HasMember("defaults")) {
    const Value& d = doc["defaults"];
    if (!d.IsObject()) return r.Error("defaults", "expected an object");
    RETURN_IF_ERROR(r.Keys(d, "defaults", {"configs", "memories", "transports", "seeds"}));
    RETURN_IF_ERROR(ReadAxes(r, d, "defaults.", &defaults));
  }

  // exclude: objects of {workload, config, memory, transport}; a cell matching every key given
  // is dropped.
  std::vector<std::vector<std::pair<std::string, std::string>>> excludes;
  if (doc.HasMember("exclude")) {
    const Value& ex = doc["exclude"];
    if (!ex.IsArray()) return r.Error("exclude", "expected an array");
    for (rapidjson::SizeType i = 0; i < ex.Size(); ++i) {
      const std::string f = "exclude[" + std::to_string(i) + "]";
      if (!ex[i].IsObject() || ex[i].MemberCount() == 0) return r.Error(f, "expected an object");
      RETURN_IF_ERROR(r.Keys(ex[i], f, {"workload", "config", "memory", "transport"}));
      std::vector<std::pair<std::string, std::string>> rule;
      for (auto it = ex[i].MemberBegin(); it != ex[i].MemberEnd(); ++it) {
        if (!it->value.IsString()) return r.Error(f + "." + it->name.GetString(), "expected a string");
        std::string value = it->value.GetString();
        if (std::string(it->name.GetString()) == "memory") {
          StatusOr<Memory> mem = ParseMemory(value);
          if (!mem.ok()) return r.Error(f + ".memory", mem.status().message());
          value = mem->Name();
        }
        rule.emplace_back(it->name.GetString(), value);
      }
      excludes.push_back(std::move(rule));
    }
  }

  if (!doc.HasMember("workloads") || !doc["workloads"].IsArray() || doc["workloads"].Empty()) {
    return r.Error("workloads", "expected a non-empty array");
  }
  std::set<std::string> known;
  for (const workloads::WorkloadInfo& w : workloads::ListWorkloads()) known.insert(w.name);
  std::set<std::string> ids;
  const Value& ws = doc["workloads"];
  for (rapidjson::SizeType i = 0; i < ws.Size(); ++i) {
    const std::string f = "workloads[" + std::to_string(i) + "]";
    const Value& w = ws[i];
    if (!w.IsObject()) return r.Error(f, "expected an object");
    RETURN_IF_ERROR(r.Keys(w, f, {"name", "pos", "wformat", "configs", "memories", "transports",
                                  "seeds", "first_seed"}));
    if (!w.HasMember("name") || !w["name"].IsString()) return r.Error(f + ".name", "expected a string");
    const std::string name = w["name"].GetString();
    if (!known.count(name)) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      return r.Error(f + ".name", "unknown workload '" + name + "' (valid: " + list + ")");
    }
    int pos = -1;
    if (w.HasMember("pos")) {
      ASSIGN_OR_RETURN(int64_t v, r.Int(w["pos"], f + ".pos", 0, 1 << 20));
      pos = int(v);
    }
    isa::WFormat wf = isa::WFormat::kINT8;
    if (w.HasMember("wformat")) {
      if (!w["wformat"].IsString()) return r.Error(f + ".wformat", "expected a string");
      StatusOr<isa::WFormat> parsed = ParseWFormat(w["wformat"].GetString());
      if (!parsed.ok()) return r.Error(f + ".wformat", parsed.status().message());
      wf = *parsed;
    }
    Axes axes = defaults;
    RETURN_IF_ERROR(ReadAxes(r, w, f + ".", &axes));

    std::string head = name;
    if (pos >= 0) head += "+pos" + std::to_string(pos);
    if (wf != isa::WFormat::kINT8) head += std::string("+") + isa::WFormatName(wf);
    // The random workload's `seeds` are programs (each with its own data and DRAM stalls),
    // named in the id's head; the others' are DRAM-stall seeds, the id's sK.
    struct Head {
      std::string text;
      uint64_t program_seed = 0;
    };
    std::vector<Head> heads = {{head, 0}};
    int stall_seeds = axes.seeds;
    const bool random = name == "random" || name == "random-illegal";
    if (w.HasMember("first_seed") && !random) {
      return r.Error(f + ".first_seed", "only the random workloads take program seeds");
    }
    if (name == "random-illegal") {
      for (const std::string& t : axes.transports) {
        if (t == "card") {
          return r.Error(f + ".transports", "random-illegal runs on the sim transport only: a card's "
                                            "register map has no error pc or cause");
        }
      }
    }
    if (random) {
      if (pos >= 0 || wf != isa::WFormat::kINT8) {
        return r.Error(f, name + " takes no pos or wformat: its programs draw their own formats");
      }
      int64_t first = 0;
      if (w.HasMember("first_seed")) {
        ASSIGN_OR_RETURN(first, r.Int(w["first_seed"], f + ".first_seed", 0, 1 << 30));
      }
      heads.clear();
      for (int64_t s = first; s < first + axes.seeds; ++s) {
        heads.push_back({head + "+seed" + std::to_string(s), uint64_t(s)});
      }
      stall_seeds = 1;
    }
    for (const Head& h : heads) {
      for (const std::string& config : axes.configs) {
        for (const std::string& mem_text : axes.memories) {
          const Memory mem = *ParseMemory(mem_text);
          for (const std::string& transport : axes.transports) {
            for (int s = 0; s < stall_seeds; ++s) {
              Cell c;
              c.workload = name;
              c.program_seed = h.program_seed;
              c.pos = pos;
              c.wf = wf;
              c.config = config;
              c.memory = mem;
              c.transport = transport;
              c.seed_index = s;
              c.id = h.text + "/" + config + "/" + mem.IdPart() + "/" + transport + "/s" +
                     std::to_string(s);
              bool drop = false;
              for (const auto& rule : excludes) {
                bool all = true;
                for (const auto& [key, value] : rule) {
                  const std::string have = key == "workload" ? name
                                           : key == "config" ? config
                                           : key == "memory" ? mem.Name()
                                                             : transport;
                  all = all && have == value;
                }
                drop = drop || all;
              }
              if (drop) continue;
              if (!ids.insert(c.id).second) return r.Error(f, "cell " + c.id + " appears twice");
              c.seed = Hash64(std::to_string(m.base_seed) + ":" + c.id) >> 1;
              c.index = int(m.cells.size());
              m.cells.push_back(std::move(c));
            }
          }
        }
      }
    }
  }
  if (m.cells.empty()) return r.Error("workloads", "the matrix has no cells (all excluded)");
  return m;
}

StatusOr<std::vector<Cell>> SelectCells(const Matrix& m, const std::string& only, int shard,
                                        int shards) {
  if (shards < 1 || shard < 1 || shard > shards) {
    return InvalidArgument("--shard " + std::to_string(shard) + "/" + std::to_string(shards) +
                           ": expected K/M with 1 <= K <= M");
  }
  ASSIGN_OR_RETURN(const CellFilter filter, CellFilter::Create(only));
  std::vector<Cell> out;
  for (const Cell& c : m.cells) {
    ASSIGN_OR_RETURN(const bool match, filter.Matches(c.id));
    if (!match) continue;
    if (shards > 1 && int(Hash64(c.id) % uint64_t(shards)) != shard - 1) continue;
    out.push_back(c);
  }
  return out;
}

}  // namespace otpu::regress
