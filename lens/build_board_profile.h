// The `board` profile (SPEC 6): what a card's counters say about a run when its bitstream has
// no trace buffer (register map 1, or CAPS without bit0). No instruction rows or buckets; the
// roofline from the per-run port counters, unit busy cycles and MACs from the free-running
// counters when the map has them. Also the `board` counters every hw profile carries.
#ifndef OTPU_LENS_BUILD_BOARD_PROFILE_H_
#define OTPU_LENS_BUILD_BOARD_PROFILE_H_

#include <string>

#include "host/card.h"
#include "lens/profile.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"

namespace otpu::lens {

// The card's counters of one run by register name: CYCLES ICOUNT B_RD B_WR A_RD A_WR B_STALL,
// then the free-running counters' growth over the run (UPTIME ... MXU_STARVE) when present.
CounterSet BoardCounters(const host::RunCounters& c);

// The board profile of a run of `program` on a card described by `info`; `mem` is config.MEM.
StatusOr<Profile> BuildBoardProfile(const std::string& name, const host::CardInfo& info,
                                    const isa::Program& program, const host::RunCounters& c,
                                    const std::string& mem);

}  // namespace otpu::lens

#endif  // OTPU_LENS_BUILD_BOARD_PROFILE_H_
