#include "lens/build_board_profile.h"

#include <algorithm>

#include "lens/build_profile.h"
#include "lens/notes.h"
#include "lens/roofline.h"

namespace otpu::lens {

CounterSet BoardCounters(const host::RunCounters& c) {
  CounterSet set = {{"CYCLES", c.cycles},  {"ICOUNT", c.icount}, {"B_RD", c.b_rd},
                    {"B_WR", c.b_wr},      {"A_RD", c.a_rd},     {"A_WR", c.a_wr},
                    {"B_STALL", c.b_stall}};
  if (c.free_running) {
    for (int i = 0; i < isa::kNumCounters; ++i) {
      set.push_back({isa::CounterName(isa::Counter(i)), (*c.free_running)[size_t(i)]});
    }
  }
  return set;
}

StatusOr<Profile> BuildBoardProfile(const std::string& name, const host::CardInfo& info,
                                    const isa::Program& program, const host::RunCounters& c,
                                    const std::string& mem) {
  const isa::Config& cfg = info.config;
  trace::RunEvents events;
  events.cycles = c.cycles;
  events.retired = c.icount;
  // The program table, sources and the slice's shape; everything timed comes from counters.
  ASSIGN_OR_RETURN(Profile p, BuildProfile(ProfileKind::kBoard, name, cfg, program, events));
  p.clock_mhz = info.clock_mhz();
  p.config.MEM = mem;
  Slice& s = p.slices[0];
  s.buckets.Resize(0);
  // Port A splits by direction exactly (MM block scales are its only reads, QST its only
  // writes); port B's reads mix MM weight streaming and LD, so only its total is known.
  s.ports.amxu = c.a_rd;
  s.ports.aq = c.a_wr;
  std::vector<SliceRoofline> roofline = p.roofline.per_slice;
  roofline[0] = SliceRooflineOf(c.b_rd + c.b_wr, c.a_rd + c.a_wr);
  p.roofline = RooflineOf(std::move(roofline), p.cycles);
  const SliceRoofline& r = p.roofline.per_slice[0];
  p.bytes = r.portb * cfg.D + r.porta * 4;
  if (c.free_running) {
    const auto& f = *c.free_running;
    auto at = [&](isa::Counter k) { return f[size_t(k)]; };
    p.macs = at(isa::Counter::kMXU_MAC);
    s.busy[size_t(isa::Unit::kDMA)] = at(isa::Counter::kDMA_BUSY);
    s.busy[size_t(isa::Unit::kMXU)] = at(isa::Counter::kMXU_BUSY);
    s.busy[size_t(isa::Unit::kQUANT)] = at(isa::Counter::kQNT_BUSY);
    s.busy[size_t(isa::Unit::kVPU)] = at(isa::Counter::kVPU_BUSY);
  }
  p.board = BoardCounters(c);
  p.notes = MakeNotes(p);
  p.notes.push_back(
      {NoteLevel::kInfo,
       std::string("counters only: the bitstream has no trace buffer (") +
           (info.regmap < 2 ? "register map 1" : "CAPS bit0 is 0") +
           "), so there is no per-instruction timeline; port B's chunks are counted in total, "
           "not split between MM streaming and LD/ST"});
  return p;
}

}  // namespace otpu::lens
