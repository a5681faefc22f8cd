// Comparing two profiles field by field: where an rtl and an hw profile of one run first
// differ (the regression's parity verdict: both come from one run, so everything parity covers
// must be equal), and the instruction timings every comparison of profiles reads (`lens
// diff`, which matches two runs instruction by instruction).
#ifndef OTPU_LENS_PROFILE_COMPARE_H_
#define OTPU_LENS_PROFILE_COMPARE_H_

#include <cstdint>
#include <string>
#include <utility>

#include "lens/profile.h"

namespace otpu::lens {

// An instruction's times in the order it lives them (dispatch, ready, release, start, end),
// with their names: a comparison of two rows walks these.
inline constexpr std::pair<const char*, int64_t InstrRow::*> kInstrTimes[] = {
    {"dispatch", &InstrRow::dispatch}, {"ready", &InstrRow::ready},
    {"release", &InstrRow::release},   {"start", &InstrRow::start},
    {"end", &InstrRow::end}};

// True when two instruction rows have the same times (kInstrTimes) and unit counters.
bool SameTimesAndCounters(const InstrRow& a, const InstrRow& b);

// The first difference between an rtl and an hw profile of one run ("" when they agree in
// everything parity covers): "instruction 41 (pc 13 MM): end 1234 (rtl) vs 1240 (hw)".
std::string FirstDivergence(const Profile& rtl, const Profile& hw);

// The same for a trace cut short by a full buffer (keep first): only what the trace holds up
// to cycle `traced_to` is compared (instructions, their events up to the cut, whole counter
// windows of `bucket_cycles` before it).
std::string FirstDivergenceInTrace(const Profile& rtl, const Profile& hw, int64_t traced_to,
                                   int bucket_cycles);

// Where the board's free-running counters (hw's `board`, the run's deltas) disagree with the
// core's own events in the rtl profile of the same run ("" when they agree, or when hw has no
// free-running counters): RUNNING = cycles, {DMA,MXU,QNT,VPU}_BUSY = the unit's busy cycles,
// TMEM_DENY = the units' TMEM refusals, MXU_STARVE = the windows' `ms`, DRAM_RD + DRAM_WR =
// the windows' accepted port requests. The counters are separate hardware from the event tap
// and the trace, so a bug in one of their terms shows here and not only as performance.
std::string BoardCounterDivergence(const Profile& rtl, const Profile& hw);

}  // namespace otpu::lens

#endif  // OTPU_LENS_PROFILE_COMPARE_H_
