// The dependency (scoreboard) verdict (docs/regress.md "Verdicts"): every pair of
// instructions whose footprints conflict (workloads/isa/footprint.h: RAW, WAR or WAW on
// TMEM, DRAM or the ACT RAM) ran in the order the sequencer's hazard rule promises (SPEC 3.2,
// docs/rtl-core.md "Issue"): the younger starts only once the older has ended, at the
// earliest in the profile's `end` cycle of the older (the first cycle after its last one); an
// MM's streamer start waits only for its DRAM conflicts, its consumer's release (G) for all. A hazard bug is a wrong result that a test may not show and that reads as a
// speed-up; this verdict names it as what it is.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_DEPENDENCY_H_
#define OTPU_HOST_PROGRAMS_REGRESS_DEPENDENCY_H_

#include <cstdint>
#include <vector>

#include "host/programs/regress/cell_result.h"
#include "lens/profile.h"
#include "workloads/isa/config.h"
#include "workloads/isa/instr.h"

namespace otpu::regress {

// One unit instruction of the judged step, as the ISA simulator dispatched it: the footprint
// comes from its effective operands.
struct DispatchedInstr {
  int64_t idx = 0;  // dispatch order among the step's unit instructions
  uint32_t pc = 0;
  isa::Instr resolved;
};

// Judges each of `profiles` (the rtl and hw profiles of the step whose unit instructions are
// `isa`): fails naming both instructions of the first pair ordered against the hazard rule
// (pc, name, kernel source line, the cycles) and counting the others; fails when a profile's
// instruction is not the ISA simulator's at its index (the dispatch sequence itself differs).
// Instructions a cut trace did not see (start or end −1) are not judged. A sweep in dispatch
// order that keeps only the older instructions that can still end after some younger one
// starts: linear in the run for the window's bounded overlap.
Verdict Dependency(const isa::Config& cfg, const std::vector<DispatchedInstr>& isa,
                   const std::vector<const lens::Profile*>& profiles);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_DEPENDENCY_H_
