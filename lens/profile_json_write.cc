// ProfileFileToJson: a RapidJSON streaming Writer over the profile structs (no DOM).
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>

#include "lens/profile_json.h"

namespace otpu::lens {
namespace {

// A RapidJSON output stream appending to a std::string: the text is built in place, with no
// copy out of a StringBuffer at the end (it can be a hundred megabytes). Characters go to a
// raw cursor; the string grows (doubling) only when the cursor reaches its end, and takes its
// final size in Finish. RapidJSON's Writer reserves room before a string or number and then
// puts characters unchecked (PutReserve/PutUnsafe below), as it does into its StringBuffer.
class StringOut {
 public:
  using Ch = char;
  explicit StringOut(std::string* s) : s_(*s) {
    s_.resize(std::max<size_t>(s_.capacity(), 256));
    cur_ = s_.data();
    end_ = cur_ + s_.size();
  }
  void Put(char c) {
    if (cur_ == end_) Grow(1);
    *cur_++ = c;
  }
  void Reserve(size_t n) {
    if (size_t(end_ - cur_) < n) Grow(n);
  }
  void PutUnchecked(char c) { *cur_++ = c; }
  void Flush() {}
  // Cuts the string to what was written.
  void Finish() { s_.resize(size_t(cur_ - s_.data())); }

 private:
  void Grow(size_t n) {
    const size_t used = size_t(cur_ - s_.data());
    s_.resize(std::max(2 * s_.size(), used + n));
    cur_ = s_.data() + used;
    end_ = s_.data() + s_.size();
  }

  std::string& s_;
  char* cur_ = nullptr;
  char* end_ = nullptr;
};

// Found by argument-dependent lookup from RapidJSON's Writer, before its generic templates.
inline void PutReserve(StringOut& out, size_t count) { out.Reserve(count); }
inline void PutUnsafe(StringOut& out, char c) { out.PutUnchecked(c); }

using JsonWriter = rapidjson::Writer<StringOut>;

// Bytes of JSON a file needs, roughly: instruction rows dominate.
size_t EstimateBytes(const ProfileFile& f) {
  size_t n = 4096;
  for (const Profile& p : f.profiles) {
    n += 96 * p.instrs.size() + 160 * (p.programs.empty() ? 0 : p.programs[0].size());
    for (const InstrRow& r : p.instrs) n += r.detail.size();
    for (const Slice& s : p.slices) n += 17 * 6 * s.buckets.size();
  }
  return n;
}

class ProfileWriter {
 public:
  explicit ProfileWriter(JsonWriter* w) : w_(*w) {}

  Status File(const ProfileFile& f) {
    w_.StartObject();
    Str("format", f.format);
    Int("version", f.version);
    Str("created", f.created);
    Str("tool", f.tool);
    if (!f.tool_version.empty()) Str("tool_version", f.tool_version);
    w_.Key("profiles");
    w_.StartArray();
    for (size_t i = 0; i < f.profiles.size(); ++i) {
      RETURN_IF_ERROR(OneProfile(f.profiles[i]).WithContext("profiles[" + std::to_string(i) + "]"));
    }
    w_.EndArray();
    w_.EndObject();
    return OkStatus();
  }

 private:
  void Str(const char* key, const std::string& v) {
    w_.Key(key);
    String(v);
  }
  void String(const std::string& v) {
    w_.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  }
  void Int(const char* key, int64_t v) {
    w_.Key(key);
    w_.Int64(v);
  }
  Status Double(const char* key, double v) {
    if (!std::isfinite(v)) return InvalidArgument(std::string(key) + ": not a finite number");
    w_.Key(key);
    w_.Double(v);
    return OkStatus();
  }
  void IntArray(const char* key, const std::vector<int64_t>& v) {
    w_.Key(key);
    w_.StartArray();
    for (int64_t x : v) w_.Int64(x);
    w_.EndArray();
  }
  void Counters(const CounterSet& counters) {
    w_.StartObject();
    for (const CounterValue& c : counters) {
      w_.Key(c.name.data(), static_cast<rapidjson::SizeType>(c.name.size()));
      w_.Int64(c.value);
    }
    w_.EndObject();
  }

  Status OneProfile(const Profile& p) {
    w_.StartObject();
    Str("kind", KindName(p.kind));
    Str("name", p.name);
    Int("cycles", p.cycles);
    RETURN_IF_ERROR(Double("clock_mhz", p.clock_mhz));
    Config(p.config);
    RETURN_IF_ERROR(RooflineObject(p.roofline));
    Int("macs", p.macs);
    Int("bytes", p.bytes);
    Int("peak_macs", p.peak_macs);
    Int("peak_bytes", p.peak_bytes);
    w_.Key("units");
    w_.StartArray();
    for (const std::string& u : p.units) String(u);
    w_.EndArray();
    w_.Key("slices");
    w_.StartArray();
    for (const Slice& s : p.slices) SliceObject(s);
    w_.EndArray();
    w_.Key("instrs");
    w_.StartArray();
    for (const InstrRow& r : p.instrs) Instr(r);
    w_.EndArray();
    w_.Key("programs");
    w_.StartArray();
    for (const std::vector<ProgramRow>& prog : p.programs) {
      w_.StartArray();
      for (const ProgramRow& r : prog) ProgramLine(r);
      w_.EndArray();
    }
    w_.EndArray();
    Sources(p.sources);
    Notes(p.notes);
    Gaps(p.mxu_gaps);
    if (p.board) {
      w_.Key("board");
      Counters(*p.board);
    }
    if (p.hwtrace) HwTraceObject(*p.hwtrace);
    w_.EndObject();
    return OkStatus();
  }

  void Config(const ProfileConfig& c) {
    w_.Key("config");
    w_.StartObject();
    Int("S", c.S);
    Int("D", c.D);
    Int("MCOLS", c.MCOLS);
    Int("LANES", c.LANES);
    Int("CL", c.CL);
    Int("ACT_BLOCKS", c.ACT_BLOCKS);
    Int("TMEM_WORDS", c.TMEM_WORDS);
    Int("DRAM_BYTES", c.DRAM_BYTES);
    Int("IMEM_WORDS", c.IMEM_WORDS);
    Int("FIFO_DEPTH", c.FIFO_DEPTH);
    Int("WIN", c.WIN);
    Str("MEM", c.MEM);
    w_.EndObject();
  }

  Status RooflineObject(const Roofline& r) {
    w_.Key("roofline");
    w_.StartObject();
    Int("bound", r.bound);
    RETURN_IF_ERROR(Double("efficiency", r.efficiency).WithContext("roofline"));
    w_.Key("per_slice");
    w_.StartArray();
    for (const SliceRoofline& s : r.per_slice) {
      w_.StartObject();
      Int("portb", s.portb);
      Int("porta", s.porta);
      Int("bound", s.bound);
      w_.EndObject();
    }
    w_.EndArray();
    w_.EndObject();
    return OkStatus();
  }

  void SliceObject(const Slice& s) {
    w_.StartObject();
    w_.Key("ports");
    w_.StartObject();
    Int("bmxu", s.ports.bmxu);
    Int("bdma", s.ports.bdma);
    Int("amxu", s.ports.amxu);
    Int("aq", s.ports.aq);
    Int("c", s.ports.c);
    w_.EndObject();
    IntArray("busy", s.busy);
    IntArray("lose", s.lose);
    w_.Key("buckets");
    w_.StartObject();
    for (const auto& [name, column] : Buckets::Columns()) IntArray(name, s.buckets.*column);
    w_.EndObject();
    w_.EndObject();
  }

  void Instr(const InstrRow& r) {
    w_.StartArray();
    w_.Int(r.slice);
    w_.Int64(r.idx);
    w_.Int64(r.pc);
    w_.Int(r.unit);
    String(r.name);
    String(r.detail);
    w_.Int64(r.dispatch);
    w_.Int64(r.ready);
    w_.Int64(r.release);
    w_.Int64(r.start);
    w_.Int64(r.end);
    w_.Int(r.source);
    Counters(r.counters);
    w_.Int64(r.work);
    w_.Int64(r.port_b);
    w_.Int64(r.port_a);
    w_.EndArray();
  }

  void ProgramLine(const ProgramRow& r) {
    w_.StartArray();
    w_.Int64(r.pc);
    String(r.name);
    String(r.detail);
    String(r.comment);
    w_.Int(r.source);
    w_.StartArray();
    for (uint32_t word : r.words) w_.Uint(word);
    w_.EndArray();
    w_.StartArray();
    for (int32_t reg : r.regs) w_.Int(reg);
    w_.EndArray();
    w_.Int(r.flags);
    w_.Int(r.opcode);
    w_.EndArray();
  }

  void Sources(const std::vector<Source>& sources) {
    w_.Key("sources");
    w_.StartArray();
    for (const Source& s : sources) {
      w_.StartObject();
      Str("file", s.file);
      Int("line", s.line);
      Str("func", s.func);
      Str("text", s.text);
      w_.EndObject();
    }
    w_.EndArray();
  }

  void Notes(const std::vector<Note>& notes) {
    w_.Key("notes");
    w_.StartArray();
    for (const Note& n : notes) {
      w_.StartObject();
      Str("level", NoteLevelName(n.level));
      Str("text", n.text);
      w_.EndObject();
    }
    w_.EndArray();
  }

  void Gaps(const std::vector<MxuGap>& gaps) {
    w_.Key("mxu_gaps");
    w_.StartArray();
    for (const MxuGap& g : gaps) {
      w_.StartObject();
      Int("start", g.start);
      Int("end", g.end);
      Str("cause", g.cause);
      w_.EndObject();
    }
    w_.EndArray();
  }

  void HwTraceObject(const HwTrace& t) {
    w_.Key("hwtrace");
    w_.StartObject();
    Int("count", t.count);
    Int("drop", t.drop);
    Int("depth", t.depth);
    Str("keep", t.keep);
    w_.Key("wrapped");
    w_.Bool(t.wrapped);
    Int("lost", t.lost);
    Int("records", t.records);
    Int("open_at_end", t.open_at_end);
    Int("traced_to", t.traced_to);
    if (t.damaged > 0) Int("damaged", t.damaged);  // written only when some were, like older files
    w_.Key("complete");
    w_.Bool(t.complete);
    w_.EndObject();
  }

  JsonWriter& w_;
};

}  // namespace

StatusOr<std::string> ProfileFileToJson(const ProfileFile& file) {
  std::string text;
  text.reserve(EstimateBytes(file));
  StringOut out(&text);
  JsonWriter writer(out);
  ProfileWriter pw(&writer);
  RETURN_IF_ERROR(pw.File(file));
  out.Finish();
  return text;
}

}  // namespace otpu::lens
