// ProfileFileFromBytes: a RapidJSON SAX parse of the streamed text (profile_text_stream.h,
// within read_limits.h) that sends instruction rows to structs and the rest to a small
// Document, then the Document into structs, key by key.
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "lens/profile_json.h"
#include "lens/profile_sax.h"
#include "lens/profile_number_stream.h"
#include "lens/profile_text_stream.h"
#include "lens/read_limits.h"
#include "base/json.h"

namespace otpu::lens {
namespace {

using Value = ProfileDocument::ValueType;

std::string Join(const std::string& path, const char* key) {
  return path.empty() ? std::string(key) : path + "." + key;
}
std::string Index(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

const char* TypeName(const Value& v) {
  if (v.IsNull()) return "null";
  if (v.IsBool()) return "a boolean";
  if (v.IsObject()) return "an object";
  if (v.IsArray()) return "an array";
  if (v.IsString()) return "a string";
  if (v.IsInt64()) return "an integer";
  return "a number";
}

Status TypeError(const std::string& path, const char* want, const Value& v) {
  return DataLoss(path + ": expected " + want + ", got " + TypeName(v));
}

// Typed getters: one per field type, so Req/Opt below can pick one by overload.
Status Get(const Value& v, const std::string& path, int64_t* out) {
  if (v.IsInt64()) {
    *out = v.GetInt64();
  } else if (v.IsDouble() && std::trunc(v.GetDouble()) == v.GetDouble() &&
             std::fabs(v.GetDouble()) < 9.2e18) {
    *out = int64_t(v.GetDouble());  // other writers may print 1e6
  } else {
    return TypeError(path, "an integer", v);
  }
  return OkStatus();
}
Status Get(const Value& v, const std::string& path, int32_t* out) {
  int64_t x = 0;
  RETURN_IF_ERROR(Get(v, path, &x));
  if (x < std::numeric_limits<int32_t>::min() || x > std::numeric_limits<int32_t>::max()) {
    return DataLoss(path + ": " + std::to_string(x) + " is out of range");
  }
  *out = int32_t(x);
  return OkStatus();
}
Status Get(const Value& v, const std::string& path, uint32_t* out) {
  int64_t x = 0;
  RETURN_IF_ERROR(Get(v, path, &x));
  if (x < 0 || x > std::numeric_limits<uint32_t>::max()) {
    return DataLoss(path + ": " + std::to_string(x) + " is not a 32-bit word");
  }
  *out = uint32_t(x);
  return OkStatus();
}
Status Get(const Value& v, const std::string& path, double* out) {
  if (!v.IsNumber()) return TypeError(path, "a number", v);
  *out = v.GetDouble();
  return OkStatus();
}
Status Get(const Value& v, const std::string& path, bool* out) {
  if (!v.IsBool()) return TypeError(path, "a boolean", v);
  *out = v.GetBool();
  return OkStatus();
}
Status Get(const Value& v, const std::string& path, std::string* out) {
  if (!v.IsString()) return TypeError(path, "a string", v);
  out->assign(v.GetString(), v.GetStringLength());
  return OkStatus();
}
// The integer columns the SAX handler read into vectors (ProfileSaxHandler::columns), by key
// path; set while ProfileFileFromBytes turns the Document into structs, whose Get calls below
// have no other way to it.
thread_local std::unordered_map<std::string, std::vector<int64_t>>* read_columns = nullptr;

Status Get(const Value& v, const std::string& path, std::vector<int64_t>* out) {
  if (!v.IsArray()) return TypeError(path, "an array of integers", v);
  if (v.Empty() && read_columns) {
    if (auto it = read_columns->find(path); it != read_columns->end()) {
      *out = std::move(it->second);
      read_columns->erase(it);
      return OkStatus();
    }
  }
  out->resize(v.Size());
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    if (v[i].IsInt64()) {
      (*out)[i] = v[i].GetInt64();  // the common case, without building a path
    } else {
      RETURN_IF_ERROR(Get(v[i], Index(path, i), &(*out)[i]));
    }
  }
  return OkStatus();
}
Status Get(const Value& v, const std::string& path, CounterSet* out) {
  if (!v.IsObject()) return TypeError(path, "an object of counters", v);
  out->clear();
  for (const auto& m : v.GetObject()) {
    CounterValue c;
    c.name.assign(m.name.GetString(), m.name.GetStringLength());
    RETURN_IF_ERROR(Get(m.value, Join(path, c.name.c_str()), &c.value));
    out->push_back(std::move(c));
  }
  return OkStatus();
}

// A key that may be absent (the field keeps its default) or must be present.
template <typename T>
Status Opt(const Value& obj, const std::string& path, const char* key, T* out) {
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd()) return OkStatus();
  return Get(it->value, Join(path, key), out);
}
template <typename T>
Status Req(const Value& obj, const std::string& path, const char* key, T* out) {
  if (!obj.HasMember(key)) {
    return DataLoss((path.empty() ? std::string() : path + ": ") + "missing required key \"" + key +
                    "\"");
  }
  return Opt(obj, path, key, out);
}

// Calls `each(element, element_path)` for every element of the array at `key` (if present).
template <typename F>
Status OptArray(const Value& obj, const std::string& path, const char* key, F each) {
  auto it = obj.FindMember(key);
  if (it == obj.MemberEnd()) return OkStatus();
  std::string p = Join(path, key);
  if (!it->value.IsArray()) return TypeError(p, "an array", it->value);
  for (rapidjson::SizeType i = 0; i < it->value.Size(); ++i) {
    RETURN_IF_ERROR(each(it->value[i], Index(p, i)));
  }
  return OkStatus();
}

Status ExpectObject(const Value& v, const std::string& path) {
  return v.IsObject() ? OkStatus() : TypeError(path.empty() ? "file" : path, "an object", v);
}

Status ReadConfig(const Value& v, const std::string& path, ProfileConfig* c) {
  RETURN_IF_ERROR(ExpectObject(v, path));
  int64_t s = c->S, d = c->D, mcols = c->MCOLS, lanes = c->LANES, cl = c->CL;
  int64_t act = c->ACT_BLOCKS, fifo = c->FIFO_DEPTH, win = c->WIN;
  RETURN_IF_ERROR(Opt(v, path, "S", &s));
  RETURN_IF_ERROR(Opt(v, path, "D", &d));
  RETURN_IF_ERROR(Opt(v, path, "MCOLS", &mcols));
  RETURN_IF_ERROR(Opt(v, path, "LANES", &lanes));
  RETURN_IF_ERROR(Opt(v, path, "CL", &cl));
  RETURN_IF_ERROR(Opt(v, path, "ACT_BLOCKS", &act));
  RETURN_IF_ERROR(Opt(v, path, "TMEM_WORDS", &c->TMEM_WORDS));
  RETURN_IF_ERROR(Opt(v, path, "DRAM_BYTES", &c->DRAM_BYTES));
  RETURN_IF_ERROR(Opt(v, path, "IMEM_WORDS", &c->IMEM_WORDS));
  RETURN_IF_ERROR(Opt(v, path, "FIFO_DEPTH", &fifo));
  RETURN_IF_ERROR(Opt(v, path, "WIN", &win));
  RETURN_IF_ERROR(Opt(v, path, "MEM", &c->MEM));
  for (int64_t x : {s, d, mcols, lanes, cl, act, fifo, win}) {
    if (x < 0 || x > std::numeric_limits<int>::max()) {
      return DataLoss(path + ": size " + std::to_string(x) + " is out of range");
    }
  }
  c->S = int(s), c->D = int(d), c->MCOLS = int(mcols), c->LANES = int(lanes), c->CL = int(cl);
  c->ACT_BLOCKS = int(act), c->FIFO_DEPTH = int(fifo), c->WIN = int(win);
  return OkStatus();
}

Status ReadRoofline(const Value& v, const std::string& path, Roofline* r) {
  RETURN_IF_ERROR(ExpectObject(v, path));
  RETURN_IF_ERROR(Opt(v, path, "bound", &r->bound));
  RETURN_IF_ERROR(Opt(v, path, "efficiency", &r->efficiency));
  return OptArray(v, path, "per_slice", [&](const Value& s, const std::string& p) {
    RETURN_IF_ERROR(ExpectObject(s, p));
    SliceRoofline sr;
    RETURN_IF_ERROR(Opt(s, p, "portb", &sr.portb));
    RETURN_IF_ERROR(Opt(s, p, "porta", &sr.porta));
    RETURN_IF_ERROR(Opt(s, p, "bound", &sr.bound));
    r->per_slice.push_back(sr);
    return OkStatus();
  });
}

Status ReadBuckets(const Value& v, const std::string& path, Buckets* b) {
  RETURN_IF_ERROR(ExpectObject(v, path));
  const char* first = nullptr;
  size_t windows = 0;
  for (const auto& [name, column] : Buckets::Columns()) {
    if (!v.HasMember(name)) continue;
    RETURN_IF_ERROR(Opt(v, path, name, &(b->*column)));
    if (!first) {
      first = name;
      windows = (b->*column).size();
    } else if ((b->*column).size() != windows) {
      return DataLoss(Join(path, name) + ": " + std::to_string((b->*column).size()) +
                      " windows, expected " + std::to_string(windows) + " (as " + first + ")");
    }
  }
  b->Resize(windows);  // columns a writer left out read as zeros
  return OkStatus();
}

Status ReadSlice(const Value& v, const std::string& path, Slice* s) {
  RETURN_IF_ERROR(ExpectObject(v, path));
  auto ports = v.FindMember("ports");
  if (ports != v.MemberEnd()) {
    std::string p = Join(path, "ports");
    RETURN_IF_ERROR(ExpectObject(ports->value, p));
    RETURN_IF_ERROR(Opt(ports->value, p, "bmxu", &s->ports.bmxu));
    RETURN_IF_ERROR(Opt(ports->value, p, "bdma", &s->ports.bdma));
    RETURN_IF_ERROR(Opt(ports->value, p, "amxu", &s->ports.amxu));
    RETURN_IF_ERROR(Opt(ports->value, p, "aq", &s->ports.aq));
    RETURN_IF_ERROR(Opt(ports->value, p, "c", &s->ports.c));
  }
  RETURN_IF_ERROR(Opt(v, path, "busy", &s->busy));
  RETURN_IF_ERROR(Opt(v, path, "lose", &s->lose));
  auto buckets = v.FindMember("buckets");
  if (buckets != v.MemberEnd()) {
    RETURN_IF_ERROR(ReadBuckets(buckets->value, Join(path, "buckets"), &s->buckets));
  }
  return OkStatus();
}

Status ReadProgramRow(const Value& v, const std::string& path, ProgramRow* r) {
  if (!v.IsArray() || v.Size() != kProgramColumns) {
    if (!v.IsArray()) return TypeError(path, "an array of 9 columns", v);
    return DataLoss(path + ": expected " + std::to_string(kProgramColumns) + " columns, got " +
                    std::to_string(v.Size()));
  }
  RETURN_IF_ERROR(Get(v[0], Index(path, 0), &r->pc));
  RETURN_IF_ERROR(Get(v[1], Index(path, 1), &r->name));
  RETURN_IF_ERROR(Get(v[2], Index(path, 2), &r->detail));
  RETURN_IF_ERROR(Get(v[3], Index(path, 3), &r->comment));
  RETURN_IF_ERROR(Get(v[4], Index(path, 4), &r->source));
  const Value& words = v[5];
  if (!words.IsArray() || words.Size() != 8) return TypeError(Index(path, 5), "8 words", words);
  for (rapidjson::SizeType i = 0; i < 8; ++i) {
    RETURN_IF_ERROR(Get(words[i], Index(Index(path, 5), i), &r->words[i]));
  }
  const Value& regs = v[6];
  if (!regs.IsArray() || regs.Size() != 4) return TypeError(Index(path, 6), "[ra,rb,rc,rd]", regs);
  for (rapidjson::SizeType i = 0; i < 4; ++i) {
    RETURN_IF_ERROR(Get(regs[i], Index(Index(path, 6), i), &r->regs[i]));
  }
  RETURN_IF_ERROR(Get(v[7], Index(path, 7), &r->flags));
  return Get(v[8], Index(path, 8), &r->opcode);
}

// Everything of a profile except its instruction rows (the SAX handler has those).
Status ReadProfile(const Value& v, const std::string& path, Profile* p) {
  RETURN_IF_ERROR(ExpectObject(v, path));
  std::string kind;
  RETURN_IF_ERROR(Req(v, path, "kind", &kind));
  if (!ParseKind(kind, &p->kind)) {
    return DataLoss(Join(path, "kind") + ": unknown kind \"" + kind + "\" (rtl, isa, board, hw)");
  }
  RETURN_IF_ERROR(Req(v, path, "name", &p->name));
  RETURN_IF_ERROR(Req(v, path, "cycles", &p->cycles));
  if (p->cycles < 0) {
    return DataLoss(Join(path, "cycles") + ": " + std::to_string(p->cycles) + " is negative");
  }
  RETURN_IF_ERROR(Opt(v, path, "clock_mhz", &p->clock_mhz));
  auto config = v.FindMember("config");
  if (config != v.MemberEnd()) {
    RETURN_IF_ERROR(ReadConfig(config->value, Join(path, "config"), &p->config));
  }
  auto roofline = v.FindMember("roofline");
  if (roofline != v.MemberEnd()) {
    RETURN_IF_ERROR(ReadRoofline(roofline->value, Join(path, "roofline"), &p->roofline));
  }
  RETURN_IF_ERROR(Opt(v, path, "macs", &p->macs));
  RETURN_IF_ERROR(Opt(v, path, "bytes", &p->bytes));
  RETURN_IF_ERROR(Opt(v, path, "peak_macs", &p->peak_macs));
  RETURN_IF_ERROR(Opt(v, path, "peak_bytes", &p->peak_bytes));
  if (v.HasMember("units")) {
    p->units.clear();
    RETURN_IF_ERROR(OptArray(v, path, "units", [&](const Value& u, const std::string& up) {
      return Get(u, up, &p->units.emplace_back());
    }));
  }
  auto instrs = v.FindMember("instrs");  // its rows went to the SAX handler; the array is empty
  if (instrs != v.MemberEnd() && !instrs->value.IsArray()) {
    return TypeError(Join(path, "instrs"), "an array of rows", instrs->value);
  }
  RETURN_IF_ERROR(OptArray(v, path, "slices", [&](const Value& s, const std::string& sp) {
    return ReadSlice(s, sp, &p->slices.emplace_back());
  }));
  RETURN_IF_ERROR(OptArray(v, path, "programs", [&](const Value& prog, const std::string& pp) {
    if (!prog.IsArray()) return TypeError(pp, "an array of rows", prog);
    std::vector<ProgramRow>& rows = p->programs.emplace_back(prog.Size());
    for (rapidjson::SizeType i = 0; i < prog.Size(); ++i) {
      RETURN_IF_ERROR(ReadProgramRow(prog[i], Index(pp, i), &rows[i]));
    }
    return OkStatus();
  }));
  RETURN_IF_ERROR(OptArray(v, path, "sources", [&](const Value& s, const std::string& sp) {
    RETURN_IF_ERROR(ExpectObject(s, sp));
    Source& src = p->sources.emplace_back();
    RETURN_IF_ERROR(Req(s, sp, "file", &src.file));
    RETURN_IF_ERROR(Req(s, sp, "line", &src.line));
    RETURN_IF_ERROR(Opt(s, sp, "func", &src.func));
    return Opt(s, sp, "text", &src.text);
  }));
  RETURN_IF_ERROR(OptArray(v, path, "notes", [&](const Value& n, const std::string& np) {
    RETURN_IF_ERROR(ExpectObject(n, np));
    Note& note = p->notes.emplace_back();
    std::string level;
    RETURN_IF_ERROR(Req(n, np, "level", &level));
    if (!ParseNoteLevel(level, &note.level)) {
      return DataLoss(Join(np, "level") + ": unknown level \"" + level +
                      "\" (good, warn, bad, info)");
    }
    return Req(n, np, "text", &note.text);
  }));
  RETURN_IF_ERROR(OptArray(v, path, "mxu_gaps", [&](const Value& g, const std::string& gp) {
    RETURN_IF_ERROR(ExpectObject(g, gp));
    MxuGap& gap = p->mxu_gaps.emplace_back();
    RETURN_IF_ERROR(Opt(g, gp, "start", &gap.start));
    RETURN_IF_ERROR(Opt(g, gp, "end", &gap.end));
    return Opt(g, gp, "cause", &gap.cause);
  }));
  if (v.HasMember("board")) RETURN_IF_ERROR(Opt(v, path, "board", &p->board.emplace()));
  auto hw = v.FindMember("hwtrace");
  if (hw != v.MemberEnd()) {
    std::string hp = Join(path, "hwtrace");
    RETURN_IF_ERROR(ExpectObject(hw->value, hp));
    HwTrace& t = p->hwtrace.emplace();
    RETURN_IF_ERROR(Opt(hw->value, hp, "count", &t.count));
    RETURN_IF_ERROR(Opt(hw->value, hp, "drop", &t.drop));
    RETURN_IF_ERROR(Opt(hw->value, hp, "depth", &t.depth));
    RETURN_IF_ERROR(Opt(hw->value, hp, "keep", &t.keep));
    RETURN_IF_ERROR(Opt(hw->value, hp, "wrapped", &t.wrapped));
    RETURN_IF_ERROR(Opt(hw->value, hp, "lost", &t.lost));
    RETURN_IF_ERROR(Opt(hw->value, hp, "records", &t.records));
    RETURN_IF_ERROR(Opt(hw->value, hp, "open_at_end", &t.open_at_end));
    RETURN_IF_ERROR(Opt(hw->value, hp, "traced_to", &t.traced_to));
    RETURN_IF_ERROR(Opt(hw->value, hp, "damaged", &t.damaged));
    RETURN_IF_ERROR(Opt(hw->value, hp, "complete", &t.complete));
  }
  return OkStatus();
}

// Indices that point into other tables must point inside them.
Status CheckReferences(const Profile& p, const std::string& path) {
  const int64_t sources = int64_t(p.sources.size()), units = int64_t(p.units.size());
  for (size_t i = 0; i < p.instrs.size(); ++i) {
    const InstrRow& r = p.instrs[i];
    if (r.source < -1 || r.source >= sources) {
      return DataLoss(Index(path + ".instrs", i) + ": source " + std::to_string(r.source) +
                      " is not one of the " + std::to_string(sources) + " sources");
    }
    if (r.unit < 0 || r.unit >= units) {
      return DataLoss(Index(path + ".instrs", i) + ": unit " + std::to_string(r.unit) +
                      " is not one of the " + std::to_string(units) + " units");
    }
  }
  for (size_t s = 0; s < p.programs.size(); ++s) {
    for (size_t i = 0; i < p.programs[s].size(); ++i) {
      int32_t src = p.programs[s][i].source;
      if (src < -1 || src >= sources) {
        return DataLoss(Index(Index(path + ".programs", s), i) + ": source " + std::to_string(src) +
                        " is not one of the " + std::to_string(sources) + " sources");
      }
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<ProfileFile> ProfileFileFromJson(std::string_view text) {
  return ProfileFileFromBytes(text, ReadLimits());
}

StatusOr<ProfileFile> ProfileFileFromBytes(std::string_view bytes, const ReadLimits& limits) {
  ProfileDocument doc;
  ProfileTextStream in(bytes, limits);
  ProfileSaxHandler handler(&doc, &in, size_t(in.SizeHint()));
  JsonLimitGuard<ProfileSaxHandler> limited(&handler, limits);  // read_limits.h
  JsonGuard<JsonLimitGuard<ProfileSaxHandler>> guard(&limited);  // depth, duplicate keys (json.h)
  rapidjson::ParseResult parsed;
  struct Generator {
    rapidjson::ParseResult* parsed;
    JsonGuard<JsonLimitGuard<ProfileSaxHandler>>* handler;
    ProfileTextStream* in;
    bool operator()(ProfileDocument&) {
      // Numbers through profile_number_stream.h. The iterative parser, as every reader of
      // ours (json.h): its errors name the same byte offsets.
      constexpr unsigned kFlags = rapidjson::kParseIterativeFlag;
      rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, ThrowingAllocator> reader;
      *parsed = reader.Parse<kFlags>(*in, *handler);
      return !parsed->IsError();
    }
  } generator{&parsed, &guard, &in};
  doc.Populate(generator);
  // The stream's error first: the parser only saw the text end early.
  RETURN_IF_ERROR(in.error());
  if (parsed.IsError() && !limited.error().empty()) {
    return DataLoss("at byte " + std::to_string(parsed.Offset()) + ": " + limited.error() +
                    " (docs/profile.md)");
  }
  if (parsed.IsError()) return JsonParseError("", parsed, guard.state());

  ProfileFile file;
  RETURN_IF_ERROR(ExpectObject(doc, ""));
  auto format = doc.FindMember("format");
  if (format == doc.MemberEnd()) return DataLoss("not an openTPU profile (no \"format\")");
  if (!format->value.IsString() || format->value.GetString() != std::string(kProfileFormat)) {
    std::string got =
        format->value.IsString() ? format->value.GetString() : TypeName(format->value);
    return DataLoss("not an openTPU profile (format \"" + got + "\")");
  }
  file.format = kProfileFormat;
  int64_t version = 0;
  RETURN_IF_ERROR(Req(doc, "", "version", &version));
  if (version > kProfileVersion) {
    return DataLoss("version " + std::to_string(version) + " is newer than this reader (" +
                    std::to_string(kProfileVersion) + ")");
  }
  if (version < 1) return DataLoss("version " + std::to_string(version) + " is not a version");
  file.version = int(version);
  RETURN_IF_ERROR(handler.row_error());
  RETURN_IF_ERROR(Opt(doc, "", "created", &file.created));
  RETURN_IF_ERROR(Opt(doc, "", "tool", &file.tool));
  file.tool_version.clear();  // this file's writer, not this reader
  RETURN_IF_ERROR(Opt(doc, "", "tool_version", &file.tool_version));
  if (!doc.HasMember("profiles")) return DataLoss("missing required key \"profiles\"");
  std::vector<std::vector<InstrRow>>& rows = handler.rows();
  struct ColumnsInScope {
    explicit ColumnsInScope(std::unordered_map<std::string, std::vector<int64_t>>* c) {
      read_columns = c;
    }
    ~ColumnsInScope() { read_columns = nullptr; }
  } columns_in_scope(&handler.columns());
  size_t object_index = 0;  // the handler counts only profiles that are objects
  RETURN_IF_ERROR(OptArray(doc, "", "profiles", [&](const Value& v, const std::string& path) {
    Profile& p = file.profiles.emplace_back();
    RETURN_IF_ERROR(ReadProfile(v, path, &p));
    p.instrs = std::move(rows[object_index++]);
    return CheckReferences(p, path);
  }));
  return file;
}

}  // namespace otpu::lens
