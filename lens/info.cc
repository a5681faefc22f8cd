#include "lens/info.h"

#include <cmath>
#include <cstdio>

#include "base/strings.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace otpu::lens {
namespace {

std::string ConfigLine(const ProfileConfig& c) {
  return StrFormat(
      "S=%d D=%d MCOLS=%d LANES=%d CL=%d WIN=%d ACT_BLOCKS=%d TMEM_WORDS=%lld "
      "IMEM_WORDS=%lld DRAM_BYTES=%lld FIFO_DEPTH=%d MEM=%s",
      c.S, c.D, c.MCOLS, c.LANES, c.CL, c.WIN, c.ACT_BLOCKS, (long long)c.TMEM_WORDS,
      (long long)c.IMEM_WORDS, (long long)c.DRAM_BYTES, c.FIFO_DEPTH, c.MEM.c_str());
}

std::string ProfileBlock(const Profile& p, size_t index) {
  std::string s = StrFormat("profile %zu: %s (%s)\n", index, p.name.c_str(), KindName(p.kind));
  double us = p.clock_mhz > 0 ? double(p.cycles) / p.clock_mhz : 0;
  s += StrFormat("  cycles        %lld (%.1f us at %g MHz)\n", (long long)p.cycles, us, p.clock_mhz);
  s += StrFormat("  roofline      bound %lld cycles, efficiency %.1f%%\n", (long long)p.roofline.bound,
           100 * p.roofline.efficiency);
  s += StrFormat("  instructions  %zu\n", p.instrs.size());
  s += StrFormat("  macs          %lld (peak %lld/cycle), DRAM bytes %lld (peak %lld/cycle)\n",
           (long long)p.macs, (long long)p.peak_macs, (long long)p.bytes, (long long)p.peak_bytes);
  s += "  config        " + ConfigLine(p.config) + "\n";
  if (p.board) {
    s += "  board        ";
    for (const CounterValue& c : *p.board) s += StrFormat(" %s=%lld", c.name.c_str(), (long long)c.value);
    s += "\n";
  }
  if (p.hwtrace) {
    const HwTrace& t = *p.hwtrace;
    s += StrFormat("  hwtrace       %lld records of %lld (depth %lld, keep %s), drop %lld, lost %lld%s%s\n",
             (long long)t.records, (long long)t.count, (long long)t.depth, t.keep.c_str(),
             (long long)t.drop, (long long)t.lost,
             t.damaged > 0 ? StrFormat(", damaged %lld", (long long)t.damaged).c_str() : "",
             t.complete ? ", complete" : ", incomplete");
  }
  s += "  notes\n";
  for (const Note& n : p.notes) s += StrFormat("    [%s] ", NoteLevelName(n.level)) + n.text + "\n";
  return s;
}

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void Str(Writer& w, const char* key, const std::string& value) {
  w.Key(key);
  w.String(value.c_str(), rapidjson::SizeType(value.size()));
}

void Int(Writer& w, const char* key, int64_t value) {
  w.Key(key);
  w.Int64(value);
}

// A number; null where it is not finite (JSON has no NaN).
void Num(Writer& w, double value) {
  if (std::isfinite(value)) w.Double(value);
  else w.Null();
}

void ConfigObject(Writer& w, const ProfileConfig& c) {
  w.StartObject();
  Int(w, "S", c.S);
  Int(w, "D", c.D);
  Int(w, "MCOLS", c.MCOLS);
  Int(w, "LANES", c.LANES);
  Int(w, "CL", c.CL);
  Int(w, "WIN", c.WIN);
  Int(w, "ACT_BLOCKS", c.ACT_BLOCKS);
  Int(w, "TMEM_WORDS", c.TMEM_WORDS);
  Int(w, "IMEM_WORDS", c.IMEM_WORDS);
  Int(w, "DRAM_BYTES", c.DRAM_BYTES);
  Int(w, "FIFO_DEPTH", c.FIFO_DEPTH);
  Str(w, "MEM", c.MEM);
  w.EndObject();
}

void ProfileObject(Writer& w, const Profile& p, size_t index) {
  w.StartObject();
  Int(w, "index", int64_t(index));
  Str(w, "name", p.name);
  Str(w, "kind", KindName(p.kind));
  Int(w, "cycles", p.cycles);
  w.Key("clock_mhz");
  Num(w, p.clock_mhz);
  w.Key("time_us");
  Num(w, p.clock_mhz > 0 ? double(p.cycles) / p.clock_mhz : 0);
  w.Key("roofline");
  w.StartObject();
  Int(w, "bound", p.roofline.bound);
  w.Key("efficiency");
  Num(w, p.roofline.efficiency);
  w.EndObject();
  Int(w, "instructions", int64_t(p.instrs.size()));
  Int(w, "macs", p.macs);
  Int(w, "peak_macs", p.peak_macs);
  Int(w, "bytes", p.bytes);
  Int(w, "peak_bytes", p.peak_bytes);
  w.Key("config");
  ConfigObject(w, p.config);
  w.Key("board");
  if (p.board) {
    w.StartObject();
    for (const CounterValue& c : *p.board) Int(w, c.name.c_str(), c.value);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("hwtrace");
  if (p.hwtrace) {
    const HwTrace& t = *p.hwtrace;
    w.StartObject();
    Int(w, "records", t.records);
    Int(w, "count", t.count);
    Int(w, "depth", t.depth);
    Str(w, "keep", t.keep);
    Int(w, "drop", t.drop);
    Int(w, "lost", t.lost);
    Int(w, "damaged", t.damaged);
    w.Key("wrapped");
    w.Bool(t.wrapped);
    w.Key("complete");
    w.Bool(t.complete);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("notes");
  w.StartArray();
  for (const Note& n : p.notes) {
    w.StartObject();
    Str(w, "level", NoteLevelName(n.level));
    Str(w, "text", n.text);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

std::string InfoJson(const ProfileFile& file, const std::string& path) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  Str(w, "file", path);
  Str(w, "format", file.format);
  Int(w, "version", file.version);
  Str(w, "created", file.created);
  Str(w, "tool", file.tool);
  Str(w, "tool_version", file.tool_version);
  w.Key("profiles");
  w.StartArray();
  for (size_t i = 0; i < file.profiles.size(); ++i) ProfileObject(w, file.profiles[i], i);
  w.EndArray();
  w.EndObject();
  return std::string(buf.GetString(), buf.GetSize()) + "\n";
}

std::string InfoText(const ProfileFile& file, const std::string& path) {
  std::string s = path + ": " + file.format + " version " + std::to_string(file.version) + ", " +
                  std::to_string(file.profiles.size()) + " profile" +
                  (file.profiles.size() == 1 ? "" : "s") + ", written " +
                  (file.created.empty() ? "(unknown)" : file.created) + " by " + file.tool +
                  (file.tool_version.empty() ? "" : " (" + file.tool_version + ")") + "\n";
  for (size_t i = 0; i < file.profiles.size(); ++i) s += ProfileBlock(file.profiles[i], i);
  return s;
}

}  // namespace otpu::lens
