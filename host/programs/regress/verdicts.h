// The verdicts of a regression cell (docs/regress.md "Verdicts"), each judged from what the
// recordings gave:
//   correctness  the board's DRAM outputs byte-equal the ISA simulator's, and the kernel's
//                float64 reference bound holds;
//   parity       the hw profile rebuilt from the trace records equals the rtl profile of the
//                same run (else: the first divergence);
//   dependency   conflicting instructions ran in hazard order (dependency.h);
//   assertions   no SV assertion failed in the board model or the card's emulator;
//   performance  the rtl profile of that run (the core's lossless event tap, which a trace
//                buffer too small for the run cannot cut short, and which parity ties to the
//                hw profile) equals the cell's reviewed baseline exactly (else: the
//                instructions that moved most).
#ifndef OTPU_HOST_PROGRAMS_REGRESS_VERDICTS_H_
#define OTPU_HOST_PROGRAMS_REGRESS_VERDICTS_H_

#include <string>
#include <vector>

#include "base/sparse_memory.h"
#include "sim/rtl/assertions.h"
#include "host/programs/regress/cell_result.h"
#include "lens/profile.h"
#include "workloads/workload.h"

namespace otpu::regress {

// Correctness: every output byte of `run` in `board_dram` equals `isa_dram`'s, and `check`
// (the workload's reference check of the board's outputs) holds.
Verdict Correctness(const workloads::WorkloadRun& run, const SparseMemory& isa_dram,
                    const SparseMemory& board_dram, const workloads::CheckReport& check);

// Parity: `hw` equals `rtl` in everything parity covers; for a trace cut by a full buffer
// (keep first), in everything the trace holds (`bucket_cycles`: the core's counter window).
Verdict Parity(const lens::Profile& rtl, const lens::Profile& hw, int bucket_cycles);

// Assertions: no SV assertion failed in the board model (`board`) nor, for a card cell
// (`card_cell`), in the card's emulator (`card`). Fails naming the first (its label,
// file:line, run cycle and message) and counting all.
Verdict Assertions(const std::vector<rtl::AssertionFailure>& board,
                   const std::vector<rtl::AssertionFailure>& card, bool card_cell);

// Performance: `judged` against the baseline at `path` for cell `id`. With `accept`, a
// missing or differing baseline is (re)written and what changed goes to `*accepted`. The
// instructions that moved, by pc, go to `*moved` (when given) whenever the figures differ.
Verdict Performance(const std::string& id, const lens::Profile& judged, bool accept,
                    const std::string& path, std::string* accepted,
                    std::vector<MovedInstr>* moved = nullptr);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_VERDICTS_H_
