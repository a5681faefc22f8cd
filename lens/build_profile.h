// The profile builder: turns what one run did (trace::RunEvents) into a Profile. Written for the
// isa kind; the rtl and hw paths fill the same trace::RunEvents (unit counters included) and reuse it.
#ifndef OTPU_LENS_BUILD_PROFILE_H_
#define OTPU_LENS_BUILD_PROFILE_H_

#include <limits>
#include <string>

#include "lens/profile.h"
#include "workloads/isa/run_events.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"

namespace otpu::lens {

// Counter window of simulated profiles, in cycles.
inline constexpr int kDefaultBucketCycles = 64;
// As bucket_cycles: one window for the whole run, for callers that replace the buckets with
// the core's own counter windows (allocates nothing by cycle count).
inline constexpr int kOneWindow = std::numeric_limits<int>::max();

// Builds the profile of one run of `program` on `cfg`: instruction rows, the program table,
// sources, per-slice ports, unit busy cycles, per-window buckets (of `bucket_cycles`), the
// roofline and the notes (docs/profile.md says what each field means). InvalidArgument when
// bucket_cycles < 1.
StatusOr<Profile> BuildProfile(ProfileKind kind, const std::string& name, const isa::Config& cfg,
                               const isa::Program& program, const trace::RunEvents& events,
                               int bucket_cycles = kDefaultBucketCycles);

}  // namespace otpu::lens

#endif  // OTPU_LENS_BUILD_PROFILE_H_
