#include "lens/synthetic.h"

#include <algorithm>
#include <string>

#include "lens/roofline.h"

namespace otpu::lens {
namespace {

constexpr int kProgramLength = 16;
constexpr int kWindow = 64;
const char* const kNames[] = {"LD", "MM", "QACT", "QST", "VOP.ADD", "VOP.EXP2"};
const int kUnits[] = {0, 1, 2, 2, 3, 3};

}  // namespace

Profile SyntheticProfile(ProfileKind kind, int64_t instrs) {
  Profile p;
  p.kind = kind;
  p.name = std::string("synthetic-") + KindName(kind);
  p.config.MEM = kind == ProfileKind::kHw ? "card" : "ideal";
  p.sources = {{"workloads/kernels/mlp.cc", 42, "EmitMlp", "b.Mm({.out = At(0), .n = 4096});"},
               {"workloads/kernels/mlp.cc", 57, "EmitMlp", "b.Vop({.fn = VopFn::kADD});"}};
  std::vector<ProgramRow>& prog = p.programs.emplace_back();
  for (int pc = 0; pc < kProgramLength; ++pc) {
    ProgramRow& r = prog.emplace_back();
    r.pc = pc;
    r.name = kNames[pc % 6];
    r.detail = "1x1024 . 4096x1024^T d0x" + std::to_string(pc * 4096) + "+r1 -> t0";
    r.comment = pc == 0 ? "load the input row" : "";
    r.source = pc % 3 == 2 ? -1 : pc % 2;
    for (int w = 0; w < 8; ++w) r.words[w] = uint32_t(pc * 0x01010101u + w * 0x9E3779B9u);
    r.regs = {pc % 4, 1, 0, 0};
    r.flags = pc % 3;
    r.opcode = int32_t(r.words[0] & 0xFF);
  }
  int64_t t = 0, portb = 0, porta = 0;
  p.instrs.reserve(size_t(instrs));
  for (int64_t i = 0; i < instrs; ++i) {
    InstrRow& r = p.instrs.emplace_back();
    int pc = int(i % kProgramLength);
    r.idx = i;
    r.pc = pc;
    r.name = kNames[pc % 6];
    r.unit = kUnits[pc % 6];
    r.detail = prog[pc].detail;
    r.source = prog[pc].source;
    r.work = 1 + (i * 7) % 33;
    r.port_b = r.unit <= 1 ? r.work : 0;
    r.port_a = r.unit == 1 ? r.work / 4 : 0;
    r.dispatch = t;
    r.ready = t + 1;
    r.release = r.unit == 1 ? t + 2 : -1;
    r.start = t + 2;
    r.end = t + 2 + r.work;
    if (kind == ProfileKind::kRtl || kind == ProfileKind::kHw) {
      r.counters = {{"frz", i % 5}, {"deny", i % 3}};
    }
    t = r.end;
    portb += r.port_b;
    porta += r.port_a;
  }
  p.cycles = t + 1;
  p.macs = portb * 256;
  p.bytes = portb * 32 + porta * 4;
  p.peak_macs = 256;
  p.peak_bytes = 32;
  Slice& s = p.slices.emplace_back();
  s.ports = {portb / 2, portb - portb / 2, porta, 0, p.cycles};
  s.busy = {t / 4, t / 2, t / 8, t / 8, 0};
  s.lose = {0, 3, 1, 2, 0};
  s.buckets.Resize(size_t((p.cycles + kWindow - 1) / kWindow));
  for (size_t w = 0; w < s.buckets.size(); ++w) {
    s.buckets.c[w] = std::min<int64_t>(int64_t(w + 1) * kWindow, p.cycles) - 1;
    s.buckets.n[w] = s.buckets.c[w] + 1 - int64_t(w) * kWindow;
    s.buckets.bm[w] = int64_t(w % 40);
    s.buckets.mx[w] = int64_t(w % 64);
    s.buckets.ld[w] = int64_t(w % 17);
  }
  p.roofline = RooflineOf({SliceRooflineOf(portb, porta)}, p.cycles);
  p.notes = {{NoteLevel::kWarn, "runs at 41% of the port-B roofline"},
             {NoteLevel::kInfo, "pc 1 MM: 30% of cycles (workloads/kernels/mlp.cc:42)"}};
  if (kind == ProfileKind::kBoard || kind == ProfileKind::kHw) {
    p.board = CounterSet{{"CYCLES", p.cycles}, {"ICOUNT", instrs}, {"MXU_BUSY", t / 2}};
  }
  if (kind == ProfileKind::kHw) {
    p.hwtrace = HwTrace{instrs * 9, 0, 16384, "first", false, 0, instrs * 9, 0, t, true};
    p.mxu_gaps = {{10, 20, "starve"}, {40, 44, "deps"}};
  }
  return p;
}

ProfileFile SyntheticFile(std::initializer_list<ProfileKind> kinds, int64_t instrs) {
  ProfileFile f;
  f.created = "2025-01-31T12:00:00Z";
  for (ProfileKind k : kinds) f.profiles.push_back(SyntheticProfile(k, instrs));
  return f;
}

}  // namespace otpu::lens
