// A cell's performance baseline (docs/regress.md "Baselines"): the exact figures of its traced
// step, small enough to review in a diff like a golden file: cycles, roofline, port totals,
// per-unit busy and TMEM losses, the cause buckets' totals, the card counters, and one line per
// instruction (pc, name, dispatch, ready, release, start, end, unit counters). No full profile.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_BASELINE_H_
#define OTPU_HOST_PROGRAMS_REGRESS_BASELINE_H_

#include <string>

#include "lens/diff.h"
#include "lens/profile.h"
#include "base/status.h"

namespace otpu::regress {

// The baseline text of `p` for cell `id` (deterministic: the same profile, the same bytes).
std::string BaselineJson(const std::string& id, const lens::Profile& p);

// Reads a baseline back as a profile holding just those figures (one bucket window holding
// the totals), which lens::DiffProfile compares with a full profile exactly.
// InvalidArgument naming the file and the field for a bad one.
StatusOr<lens::Profile> ParseBaseline(const std::string& json, const std::string& path);

// The performance verdict's comparison: the baseline against the new profile.
lens::ProfileDelta CompareWithBaseline(const lens::Profile& baseline, const lens::Profile& now);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_BASELINE_H_
