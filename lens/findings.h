// The findings of an `rtl` or `hw` profile (SPEC 6): the biggest causes of lost port-B/MXU
// cycles, each naming the instruction and source line it happened during, and the gaps in the
// MXU's streaming with their causes (the profile's `mxu_gaps`).
#ifndef OTPU_LENS_FINDINGS_H_
#define OTPU_LENS_FINDINGS_H_

#include <vector>

#include "lens/profile.h"

namespace otpu::lens {

// How many causes of lost cycles the notes name, at most.
inline constexpr int kCauseNotes = 3;
// A cause with at least this share of the run's cycles is a warning, else information.
inline constexpr double kCauseWarnShare = 0.1;

// Notes on the biggest causes of port-B cycles that moved no chunk (lens/attribution.h's
// categories, without "streaming" and "nothing in flight"), most cycles first; each names the
// pc, instruction and source line that the cause happened during.
std::vector<Note> LostCycleNotes(const Profile& p);

// The intervals in which no MXU instruction ran (between its start and end), with why:
// "dispatch" (the next MM was not yet dispatched), "deps" (it waited on its dependencies),
// "dram_dep" (ready, waiting for its DRAM dependencies to clear), "end" (no MM followed).
std::vector<MxuGap> FindMxuGaps(const Profile& p);

}  // namespace otpu::lens

#endif  // OTPU_LENS_FINDINGS_H_
