// The profile diff (docs/regress.md "lens diff"): what changed between a baseline and a new
// profile, exactly. Profiles are matched by name (then kind); instructions by pc and order (the
// k-th run of a pc in one matches the k-th run of that pc in the other). Used by `lens diff`,
// by otpu-regress's performance verdict and, in the same terms, by the app's compare view.
#ifndef OTPU_LENS_DIFF_H_
#define OTPU_LENS_DIFF_H_

#include <cstdint>
#include <string>
#include <vector>

#include "lens/profile.h"

namespace otpu::lens {

// One scalar that differs: "cycles", "roofline.efficiency", "busy.MXU", "buckets.ms",
// "board.B_STALL", "instructions" (the count)...
struct FieldDelta {
  std::string field;
  double before = 0;
  double after = 0;
};

// One instruction (matched by pc and occurrence) whose timing or counters differ.
struct InstrDelta {
  int64_t pc = 0;
  int64_t occurrence = 0;  // 0 = the pc's first run in dispatch order
  int64_t idx = 0;         // dispatch index in the new profile
  std::string name;        // "MM"
  std::string source;      // "workloads/kernels/mlp.cc:131", or "" when unknown
  int64_t cycles_before = 0, cycles_after = 0;  // end - start
  int64_t start_before = 0, start_after = 0;
  int64_t end_before = 0, end_after = 0;
  int64_t dispatch_before = 0, dispatch_after = 0;
  // What took the difference: a unit counter ("starve", "bp", "frz", "deny"), "wait for its
  // unit" (ready..start), "dependencies" (dispatch..ready), "dispatch" (entered the window
  // later or earlier), or "work" (its own busy time, no counter moved).
  std::string cause;
  int64_t cause_delta = 0;
};

// The differences between two profiles of the same name.
struct ProfileDelta {
  std::string name;
  std::vector<FieldDelta> fields;  // run-level figures that differ, in a fixed order
  int64_t instrs_compared = 0;
  int64_t instrs_changed = 0;
  int64_t instrs_unmatched = 0;    // runs of a pc in only one of the two
  // Changed instructions: those whose own cycles changed most first, then those that moved.
  std::vector<InstrDelta> instrs;
  bool equal() const { return fields.empty() && instrs_changed == 0 && instrs_unmatched == 0; }
};

struct ProfileDiff {
  std::vector<ProfileDelta> profiles;  // matched profiles, in the new file's order
  std::vector<std::string> only_base;  // names of profiles without a partner
  std::vector<std::string> only_new;
  bool equal() const;
};

// Compares one pair of profiles.
ProfileDelta DiffProfile(const Profile& base, const Profile& now);
// Compares two files' profiles, matched by name and kind, then by name, then by position.
ProfileDiff DiffProfiles(const std::vector<Profile>& base, const std::vector<Profile>& now);

// The diff as text: "equal" or one block per profile with the run-level figures and the
// `top` instructions that moved most.
std::string DiffText(const ProfileDiff& diff, size_t top = 10);
// The diff as JSON (docs/regress.md "lens diff --json").
std::string DiffJson(const ProfileDiff& diff);

}  // namespace otpu::lens

#endif  // OTPU_LENS_DIFF_H_
