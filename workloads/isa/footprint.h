// An instruction's footprint (SPEC 3.2, docs/rtl-core.md "Footprint"): the bounding interval
// of every TMEM, DRAM and ACT RAM range a unit instruction reads or writes, exactly as the
// sequencer's otpu_seq_fprint computes it, and the conflict rule of its dispatch window (same
// space, overlapping intervals, at least one side writes). The dependency verdict of
// otpu-regress judges the hardware's ordering against these.
#ifndef OTPU_WORKLOADS_ISA_FOOTPRINT_H_
#define OTPU_WORKLOADS_ISA_FOOTPRINT_H_

#include <cstdint>
#include <string>

#include "workloads/isa/config.h"
#include "workloads/isa/instr.h"

namespace otpu::isa {

// A half-open interval [lo, hi) of one space; `v` false: not part of the footprint.
struct Interval {
  bool v = false;
  bool wr = false;  // written (else read)
  uint64_t lo = 0, hi = 0;
};

// Up to one TMEM write and two TMEM reads, two DRAM ranges, and an ACT RAM rectangle (rows x
// blocks, both with the same v and wr), as otpu_core_pkg's fprint_t.
struct Footprint {
  Interval tm[3];
  Interval dr[2];
  Interval act_rows, act_blocks;
};

// The footprint of a unit instruction with effective operands (w1..w3 already hold e1..e3,
// ra/rb/rc 0; trace::InstrEvent::resolved). Meaningful for a legal instruction; sequencer
// instructions have none.
Footprint FootprintOf(const Instr& resolved, const Config& cfg);

// What makes two footprints conflict, for the window's two dependency kinds: `dram` (a DRAM
// overlap: the MM streamer waits for it) and `any` (every space: everything else waits for it,
// and the MM consumer's release).
struct Conflict {
  bool dram = false;
  bool any = false;
  // The first conflicting pair found, older `a` against younger `b`: "RAW on TMEM [0x10,
  // 0x20) / [0x18, 0x19)" (RAW: a writes, b reads; WAR: a reads, b writes; WAW: both write).
  std::string what;
};
// `older` and `younger` in dispatch order; `what` is filled only when `describe`.
Conflict ConflictOf(const Footprint& older, const Footprint& younger, bool describe = false);

}  // namespace otpu::isa

#endif  // OTPU_WORKLOADS_ISA_FOOTPRINT_H_
