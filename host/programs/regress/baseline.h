// A cell's performance baseline (docs/regress.md "Baselines"): the exact figures of its traced
// step, small enough to review in a diff like a golden file: cycles, roofline, port totals,
// per-unit busy and TMEM losses, the cause buckets' totals, the card counters, and one line per
// instruction (pc, name, dispatch, ready, release, start, end, unit counters; each time relative
// to the event it waited for, so a diff shows a change and not its echo). No full profile.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_BASELINE_H_
#define OTPU_HOST_PROGRAMS_REGRESS_BASELINE_H_

#include <string>

#include "host/programs/regress/cell_result.h"
#include "lens/diff.h"
#include "lens/profile.h"
#include "base/status.h"

namespace otpu::regress {

// How instruction rows are written. kRelative (version 2, the default): each time relative to
// the event it waited for (durations, waits, "eK" references), so a shift early in a run changes
// the rows of what moved and not every later one. kAbsolute (version 1): absolute cycles, kept
// to read older baselines and to measure the difference.
enum class BaselineLayout { kRelative, kAbsolute };

// The baseline text of `p` for cell `id` (deterministic: the same profile, the same bytes).
std::string BaselineJson(const std::string& id, const lens::Profile& p,
                         BaselineLayout layout = BaselineLayout::kRelative);

// Reads a baseline back as a profile holding just those figures (one bucket window holding
// the totals), which lens::DiffProfile compares with a full profile exactly. Reads both
// layouts; the times it returns are absolute either way.
// InvalidArgument naming the file and the field for a bad one.
StatusOr<lens::Profile> ParseBaseline(const std::string& json, const std::string& path);

// The performance verdict's comparison: the baseline against the new profile.
lens::ProfileDelta CompareWithBaseline(const lens::Profile& baseline, const lens::Profile& now);

// The instructions of `d` that moved, by pc (their runs taken together), most own cycles
// (|d_busy|) first, then farthest moved (|d_end|), then by pc.
std::vector<MovedInstr> MovedByPc(const lens::ProfileDelta& d);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_BASELINE_H_
