#include "host/programs/regress/func_coverage.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <map>

#include "base/status.h"
#include "base/strings.h"
#include "sim/isa/checks.h"

namespace otpu::regress {
namespace {

using isa::Opcode;

constexpr const char* kHazardKinds[] = {"RAW", "WAR", "WAW"};
constexpr const char* kSpaces[] = {"TMEM", "DRAM", "ACT"};
// Dispatch distance (unit instructions) between the older and the younger: within the window.
constexpr const char* kDistances[] = {"d1", "d2-3", "d4-7", "d8-15"};
constexpr int kMaxDistance = 15;

int DistanceBucket(int64_t d) {
  if (d <= 1) return 0;
  if (d <= 3) return 1;
  if (d <= 7) return 2;
  return 3;
}

// The stall bins of CoverageHook, in this order (a bit each in stalls_seen_).
constexpr const char* kStallBins[] = {"stall/DMA.LD", "stall/DMA.ST", "stall/MXU.weights",
                                      "stall/MXU.scales", "stall/QUANT.QST"};

std::vector<CoverageBin> MakeBins() {
  std::vector<CoverageBin> bins;
  auto add = [&](const std::string& group, const std::string& name, const std::string& what) {
    bins.push_back({group, group + "/" + name, what});
  };
  for (const char* op : {"NOP", "HALT", "LI", "ADDI", "LOOP", "LD", "ST"}) {
    add("op", op, std::string(op) + " in the program run");
  }
  for (int wf = 0; wf < 3; ++wf) {
    const std::string f = isa::WFormatName(static_cast<isa::WFormat>(wf));
    for (const char* pred : {"", ".ACC", ".UNIT", ".ACC.UNIT"}) {
      add("op", "MM." + f + pred, "an MM with " + f + " weights and flags {" +
                                      std::string(*pred ? pred + 1 : "") + "}");
    }
  }
  for (const char* op : {"QACT", "QST"}) {
    add("op", op, std::string(op) + " with a scale per block");
    add("op", std::string(op) + ".PERROW", std::string(op) + " with PERROW");
  }
  for (int fn = 0; fn <= int(isa::VopFn::kSCALE); ++fn) {
    const auto f = static_cast<isa::VopFn>(fn);
    const std::string name = std::string("VOP.") + isa::VopFnName(f);
    if (!sim::VopReadsB(f)) {  // B is not read: BMODE and BZERO mean nothing
      add("op", name, name);
      continue;
    }
    for (int b = 0; b < 4; ++b) {
      const char* mode = isa::BModeName(static_cast<isa::BMode>(b));
      add("op", name + "." + mode, name + " with B operand " + mode);
    }
    add("op", name + ".BZERO", name + " with BZERO");
  }
  for (const char* op : {"LD", "ST"}) {
    const std::string o = op;
    add("shape", o + ".n1", o + " of one word a row");
    add("shape", o + ".whole_chunks", o + " whose row is whole aligned D-byte chunks");
    add("shape", o + ".last_lane", o + " whose row ends in TMEM bank LANES-1 mid-group");
    add("shape", o + ".last_chunk_partial", o + " whose row ends inside a DRAM chunk");
  }
  add("shape", "MM.m1n1", "MM of one output");
  add("shape", "MM.m_full", "MM with m = MCOLS (every column of the array)");
  add("shape", "MM.passes", "MM with m > MCOLS (several passes over W)");
  add("shape", "MM.last_pass_partial", "MM with m > MCOLS, m not a multiple of MCOLS");
  add("shape", "MM.last_act_row", "MM reading the last ACT RAM row");
  add("shape", "MM.last_act_block", "MM reading the last ACT RAM block");
  add("shape", "QACT.one", "QACT of one row of one block");
  add("shape", "QACT.last_act_row", "QACT writing the last ACT RAM row");
  add("shape", "QACT.last_act_block", "QACT writing the last ACT RAM block");
  add("shape", "QST.n1", "QST of one element a row");
  add("shape", "QST.whole_chunks", "contiguous QST of whole aligned D-byte chunks");
  add("shape", "QST.strided", "QST with an element stride > 1");
  add("shape", "QST.last_chunk_partial", "contiguous QST whose row ends inside a DRAM chunk");
  add("shape", "VOP.n1m1", "VOP of one element");
  add("shape", "VOP.full_lanes", "VOP whose rows are whole groups of LANES");
  add("shape", "VOP.last_lane", "VOP whose row ends in bank LANES-1 mid-group");
  for (const char* k : kHazardKinds) {
    for (const char* s : kSpaces) {
      for (const char* d : kDistances) {
        add("hazard", std::string(k) + "." + s + "." + d,
            std::string(k) + " on " + s + " between unit instructions " + d + " apart");
      }
    }
  }
  add("window", "full", "all WIN dispatch-window slots occupied in one cycle");
  for (const char* s : kStallBins) {
    const std::string n = std::string(s).substr(6);
    bins.push_back({"stall", s, "a DRAM port stall while only " + n + " uses that port"});
  }
  return bins;
}

// A footprint interval of one space: [lo, hi) x [lo2, hi2) (ACT: rows x blocks; the others
// have one dimension, lo2 = 0, hi2 = 1), as the sequencer computes it (docs/rtl-core.md).
struct Range {
  int space = 0;  // index into kSpaces
  uint64_t lo = 0, hi = 0, lo2 = 0, hi2 = 1;
  bool Overlaps(const Range& o) const {
    return space == o.space && lo < o.hi && o.lo < hi && lo2 < o.hi2 && o.lo2 < hi2;
  }
};
struct Footprint {
  std::vector<Range> reads, writes;
};

uint64_t Span(uint64_t rows, uint64_t stride, uint64_t len) { return (rows - 1) * stride + len; }

Footprint FootprintOf(const isa::Config& cfg, const isa::Instr& in) {
  Footprint f;
  const uint64_t d = uint64_t(cfg.D);
  auto tm = [](uint64_t lo, uint64_t len) { return Range{0, lo, lo + len}; };
  auto dr = [](uint64_t lo, uint64_t len) { return Range{1, lo, lo + len}; };
  switch (static_cast<Opcode>(in.opcode())) {
    case Opcode::kLD:
    case Opcode::kST: {
      const isa::DmaOp o = isa::DecodeDma(in, nullptr);
      const Range t = tm(o.tmem.imm, Span(o.rows, o.tmem_stride, o.n));
      const Range m = dr(o.dram.imm, Span(o.rows, o.dram_stride, 4 * uint64_t(o.n)));
      if (in.opcode() == uint8_t(Opcode::kLD)) {
        f = {{m}, {t}};
      } else {
        f = {{t}, {m}};
      }
      break;
    }
    case Opcode::kMM: {
      const isa::MmOp o = isa::DecodeMm(in, nullptr);
      const Range out = tm(o.out.imm, Span(o.m, o.out_stride, o.n));
      const uint64_t row_bytes = o.wf == isa::WFormat::kINT8 ? o.k : o.k / 2;
      f.writes = {out};
      if (o.acc) f.reads.push_back(out);
      f.reads.push_back(dr(o.w.imm, Span(o.n, o.w_stride, row_bytes)));
      if (!o.unit) f.reads.push_back(dr(o.scales.imm, 4 * uint64_t(o.n) * (o.k / d)));
      f.reads.push_back({2, o.act_row, uint64_t(o.act_row) + o.m, o.act_block,
                         uint64_t(o.act_block) + o.k / d});
      break;
    }
    case Opcode::kQACT: {
      const isa::QactOp o = isa::DecodeQact(in, nullptr);
      f.reads = {tm(o.src.imm, Span(o.rows, o.src_stride, o.k))};
      f.writes = {{2, o.act_row, uint64_t(o.act_row) + o.rows, o.act_block,
                   uint64_t(o.act_block) + o.k / d}};
      break;
    }
    case Opcode::kQST: {
      const isa::QstOp o = isa::DecodeQst(in, nullptr);
      const uint64_t s = o.perrow ? 1 : o.n / d;
      f.reads = {tm(o.src.imm, Span(o.rows, o.src_stride, o.n))};
      f.writes = {dr(o.dst.imm, Span(o.rows, o.dst_stride, uint64_t(o.n - 1) * o.elem_stride + 1)),
                  dr(o.scales.imm, 4 * uint64_t(o.rows) * s)};
      break;
    }
    case Opcode::kVOP: {
      const isa::VopOp o = isa::DecodeVop(in, nullptr);
      const bool reduce = isa::IsReductionFn(o.fn);
      f.writes = {tm(o.dst.imm, Span(o.m, o.dst_stride, reduce ? 1 : o.n))};
      if (sim::VopReadsA(o.fn)) f.reads.push_back(tm(o.a.imm, Span(o.m, o.a_stride, o.n)));
      if (sim::VopReadsB(o.fn) && !o.bzero) {
        uint64_t len = 1;
        switch (o.bmode) {
          case isa::BMode::kFULL: len = Span(o.m, o.b_stride, o.n); break;
          case isa::BMode::kROW: len = Span(o.m, o.b_stride, 1); break;
          case isa::BMode::kCOL: len = o.n; break;
          case isa::BMode::kSCALAR: len = 1; break;
        }
        f.reads.push_back(tm(o.b.imm, len));
      }
      break;
    }
    default:
      break;
  }
  return f;
}

std::string OpBin(const isa::Instr& in) {
  const auto op = static_cast<Opcode>(in.opcode());
  switch (op) {
    case Opcode::kMM: {
      const isa::MmOp o = isa::DecodeMm(in, nullptr);
      return std::string("op/MM.") + isa::WFormatName(o.wf) + (o.acc ? ".ACC" : "") +
             (o.unit ? ".UNIT" : "");
    }
    case Opcode::kQACT:
      return isa::DecodeQact(in, nullptr).perrow ? "op/QACT.PERROW" : "op/QACT";
    case Opcode::kQST:
      return isa::DecodeQst(in, nullptr).perrow ? "op/QST.PERROW" : "op/QST";
    case Opcode::kVOP: {
      const isa::VopOp o = isa::DecodeVop(in, nullptr);
      const std::string name = std::string("op/VOP.") + isa::VopFnName(o.fn);
      if (!sim::VopReadsB(o.fn)) return name;
      if (o.bzero) return name + ".BZERO";
      return name + "." + isa::BModeName(o.bmode);
    }
    default: {
      const char* name = isa::OpcodeName(op);
      return std::string("op/") + (name ? name : "?");
    }
  }
}

}  // namespace

const std::vector<CoverageBin>& FunctionalBins() {
  static const std::vector<CoverageBin>* bins = new std::vector<CoverageBin>(MakeBins());
  return *bins;
}

void FunctionalCoverage::Hit(const std::string& bin) {
  static const std::set<std::string>* names = [] {
    auto* s = new std::set<std::string>;
    for (const CoverageBin& b : FunctionalBins()) s->insert(b.name);
    return s;
  }();
  OTPU_CHECK(names->count(bin) == 1);  // the names are this file's
  hit_.insert(bin);
}

void FunctionalCoverage::AddProgram(const isa::Program& prog) {
  for (const isa::Instr& in : prog.code) {
    const auto op = static_cast<Opcode>(in.opcode());
    isa::Unit unit;
    if (isa::IsOpcode(in.opcode()) && !isa::UnitOf(op, &unit)) {
      Hit(std::string("op/") + isa::OpcodeName(op));
    }
  }
}

void FunctionalCoverage::AddShapes(const isa::Instr& in) {
  const uint64_t d = uint64_t(cfg_.D), lanes = uint64_t(cfg_.LANES);
  const uint64_t act_rows = uint64_t(cfg_.ACT_ROWS), act_blocks = uint64_t(cfg_.ACT_BLOCKS);
  auto last_lane = [&](uint64_t start, uint64_t n) {
    return n % lanes != 0 && (start + n - 1) % lanes == lanes - 1;
  };
  switch (static_cast<Opcode>(in.opcode())) {
    case Opcode::kLD:
    case Opcode::kST: {
      const std::string p = in.opcode() == uint8_t(Opcode::kLD) ? "shape/LD." : "shape/ST.";
      const isa::DmaOp o = isa::DecodeDma(in, nullptr);
      if (o.n == 1) Hit(p + "n1");
      if (o.dram.imm % d == 0 && 4 * uint64_t(o.n) % d == 0) Hit(p + "whole_chunks");
      if (last_lane(o.tmem.imm, o.n)) Hit(p + "last_lane");
      if ((o.dram.imm + 4 * uint64_t(o.n)) % d != 0) Hit(p + "last_chunk_partial");
      break;
    }
    case Opcode::kMM: {
      const isa::MmOp o = isa::DecodeMm(in, nullptr);
      const uint64_t mcols = uint64_t(cfg_.MCOLS);
      if (o.m == 1 && o.n == 1) Hit("shape/MM.m1n1");
      if (o.m == mcols) Hit("shape/MM.m_full");
      if (o.m > mcols) Hit("shape/MM.passes");
      if (o.m > mcols && o.m % mcols != 0) Hit("shape/MM.last_pass_partial");
      if (o.act_row + o.m == act_rows) Hit("shape/MM.last_act_row");
      if (o.act_block + o.k / d == act_blocks) Hit("shape/MM.last_act_block");
      break;
    }
    case Opcode::kQACT: {
      const isa::QactOp o = isa::DecodeQact(in, nullptr);
      if (o.rows == 1 && o.k == d) Hit("shape/QACT.one");
      if (o.act_row + o.rows == act_rows) Hit("shape/QACT.last_act_row");
      if (o.act_block + o.k / d == act_blocks) Hit("shape/QACT.last_act_block");
      break;
    }
    case Opcode::kQST: {
      const isa::QstOp o = isa::DecodeQst(in, nullptr);
      if (o.n == 1) Hit("shape/QST.n1");
      if (o.elem_stride > 1) Hit("shape/QST.strided");
      if (o.elem_stride == 1 && o.dst.imm % d == 0 && o.n % d == 0) Hit("shape/QST.whole_chunks");
      if (o.elem_stride == 1 && (o.dst.imm + o.n) % d != 0) Hit("shape/QST.last_chunk_partial");
      break;
    }
    case Opcode::kVOP: {
      const isa::VopOp o = isa::DecodeVop(in, nullptr);
      if (o.n == 1 && o.m == 1) Hit("shape/VOP.n1m1");
      if (o.n % lanes == 0) Hit("shape/VOP.full_lanes");
      // The lanes a row occupies: its destination's, or A's for a row reduction.
      const uint64_t start = isa::IsReductionFn(o.fn) ? o.a.imm : o.dst.imm;
      if (last_lane(start, o.n)) Hit("shape/VOP.last_lane");
      break;
    }
    default:
      break;
  }
}

void FunctionalCoverage::AddRun(const std::vector<isa::Instr>& resolved) {
  std::vector<Footprint> prints;
  prints.reserve(resolved.size());
  for (size_t i = 0; i < resolved.size(); ++i) {
    const isa::Instr& in = resolved[i];
    Hit(OpBin(in));
    AddShapes(in);
    prints.push_back(FootprintOf(cfg_, in));
    const Footprint& y = prints.back();
    const int64_t window = std::min<int64_t>(kMaxDistance, cfg_.WIN - 1);
    for (int64_t dist = 1; dist <= window && dist <= int64_t(i); ++dist) {
      const Footprint& o = prints[i - size_t(dist)];
      const std::string b = "." + std::string(kDistances[DistanceBucket(dist)]);
      auto pairs = [&](const std::vector<Range>& older, const std::vector<Range>& younger,
                       const char* kind) {
        for (const Range& a : older) {
          for (const Range& c : younger) {
            if (a.Overlaps(c)) Hit(std::string("hazard/") + kind + "." + kSpaces[a.space] + b);
          }
        }
      };
      pairs(o.writes, y.reads, "RAW");
      pairs(o.reads, y.writes, "WAR");
      pairs(o.writes, y.writes, "WAW");
    }
  }
}

void CoverageHook::OnRunStart() {
  slot_full_.fill(false);
  running_.fill(0);
}

void CoverageHook::OnClock(const rtl::CoreCycle& c) {
  if (!c.any && !c.activity.b_wait() && !c.activity.a_wait()) return;
  if (c.dispatch.valid && c.dispatch.slot < 16) {
    slot_op_[size_t(c.dispatch.slot)] = c.dispatch.instr.opcode();
    slot_flags_[size_t(c.dispatch.slot)] = c.dispatch.instr.flags();
    slot_full_[size_t(c.dispatch.slot)] = true;
  }
  for (const rtl::CoreCycle::Start& s : c.start) {
    if (s.valid && s.slot < 16) running_[size_t(s.slot)] = 1;
  }
  if (!full_seen_) {
    int n = 0;
    for (int s = 0; s < cfg_.WIN && s < 16; ++s) n += slot_full_[size_t(s)] ? 1 : 0;
    if (n == cfg_.WIN) {
      full_seen_ = true;
      cov_->Hit("window/full");
    }
  }
  if (c.activity.b_wait() || c.activity.a_wait()) {
    // Which transfers are in flight on each port (kinds, not instructions).
    bool ld = false, st = false, mm = false, mm_scales = false, qst = false;
    for (size_t s = 0; s < 16; ++s) {
      if (!running_[s]) continue;
      switch (static_cast<Opcode>(slot_op_[s])) {
        case Opcode::kLD: ld = true; break;
        case Opcode::kST: st = true; break;
        case Opcode::kMM:
          mm = true;
          mm_scales = mm_scales || !(slot_flags_[s] & isa::kMM_UNIT);
          break;
        case Opcode::kQST: qst = true; break;
        default: break;
      }
    }
    auto hit = [&](int bin) {
      if (stalls_seen_ >> bin & 1) return;
      stalls_seen_ |= 1u << bin;
      cov_->Hit(kStallBins[bin]);
    };
    if (c.activity.b_wait() && int(ld) + int(st) + int(mm) == 1) hit(ld ? 0 : st ? 1 : 2);
    if (c.activity.a_wait() && int(mm_scales) + int(qst) == 1) hit(mm_scales ? 3 : 4);
  }
  for (const rtl::CoreCycle::End& e : c.end) {
    if (e.valid && e.slot < 16) {
      running_[size_t(e.slot)] = 0;
      slot_full_[size_t(e.slot)] = false;
    }
  }
}

int CoverageSummary::hit() const {
  int n = 0;
  for (const Row& r : rows) n += r.cells > 0 ? 1 : 0;
  return n;
}

double CoverageSummary::percent() const {
  return rows.empty() ? 0 : 100.0 * hit() / double(rows.size());
}

CoverageSummary MergeCoverage(const std::vector<CellResult>& cells) {
  CoverageSummary s;
  std::map<std::string, size_t> at;
  for (const CoverageBin& b : FunctionalBins()) {
    at[b.name] = s.rows.size();
    s.rows.push_back({&b, 0, ""});
  }
  for (const CellResult& c : cells) {
    if (!c.has_coverage) continue;
    ++s.cells;
    for (const std::string& name : c.coverage) {
      auto it = at.find(name);
      if (it == at.end()) continue;  // a bin of another model version: not ours to count
      CoverageSummary::Row& row = s.rows[it->second];
      if (row.cells++ == 0) row.first_cell = c.id;
    }
  }
  return s;
}

std::string CoverageJson(const CoverageSummary& s) {
  rapidjson::StringBuffer sb;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(sb);
  w.SetIndent(' ', 1);
  w.StartObject();
  w.Key("model");
  w.String("otpu-functional-1");
  w.Key("cells");
  w.Int(s.cells);
  w.Key("bins");
  w.Int(int(s.rows.size()));
  w.Key("hit");
  w.Int(s.hit());
  w.Key("percent");
  w.Double(s.percent());
  w.Key("groups");
  w.StartObject();
  std::vector<std::string> order;
  std::map<std::string, std::pair<int, int>> groups;
  for (const auto& r : s.rows) {
    if (!groups.count(r.bin->group)) order.push_back(r.bin->group);
    auto& g = groups[r.bin->group];
    ++g.first;
    g.second += r.cells > 0;
  }
  for (const std::string& g : order) {
    w.Key(g.c_str());
    w.StartObject();
    w.Key("bins");
    w.Int(groups[g].first);
    w.Key("hit");
    w.Int(groups[g].second);
    w.EndObject();
  }
  w.EndObject();
  w.Key("never_hit");
  w.StartArray();
  for (const auto& r : s.rows) {
    if (r.cells == 0) w.String(r.bin->name.c_str());
  }
  w.EndArray();
  w.Key("by_bin");
  w.StartArray();
  for (const auto& r : s.rows) {
    w.StartObject();
    w.Key("bin");
    w.String(r.bin->name.c_str());
    w.Key("what");
    w.String(r.bin->what.c_str());
    w.Key("cells");
    w.Int(r.cells);
    w.Key("first_cell");
    w.String(r.first_cell.c_str());
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(sb.GetString(), sb.GetSize()) + "\n";
}

std::string CoverageMarkdown(const CoverageSummary& s) {
  std::string md = StrFormat(
      "## Functional coverage\n\n%d of %zu bins hit (%.1f %%) by %d cells "
      "(`coverage.json`).\n\n| group | bins | hit | %% |\n|---|---|---|---|\n",
      s.hit(), s.rows.size(), s.percent(), s.cells);
  std::vector<std::string> order;
  std::map<std::string, std::pair<int, int>> groups;
  for (const auto& r : s.rows) {
    if (!groups.count(r.bin->group)) order.push_back(r.bin->group);
    auto& g = groups[r.bin->group];
    ++g.first;
    g.second += r.cells > 0;
  }
  for (const std::string& g : order) {
    const auto [bins, hit] = groups[g];
    md += StrFormat("| %s | %d | %d | %.1f |\n", g.c_str(), bins, hit, 100.0 * hit / bins);
  }
  md += "\n";
  if (s.hit() == int(s.rows.size())) return md + "Every bin was hit.\n\n";
  md += "Never hit:\n\n";
  for (const auto& r : s.rows) {
    if (r.cells == 0) md += "- `" + r.bin->name + "`: " + r.bin->what + "\n";
  }
  return md + "\n";
}

}  // namespace otpu::regress
