// Where DRAM port B's cycles went, and per-instruction-class totals (docs/lens-app.md): the
// numbers the app's "Where the cycles went" view and class table show, computed the same way for
// `lens summary` (lens/app/js/windows.js is the page's copy; the browser test checks they agree).
#ifndef OTPU_LENS_ATTRIBUTION_H_
#define OTPU_LENS_ATTRIBUTION_H_

#include <array>
#include <string>
#include <vector>

#include "lens/profile.h"

namespace otpu::lens {

// Port-B cycles are streaming, or idle for the first of the later causes with cycles left in
// their counter window.
inline constexpr int kNumCauses = 10;
struct CauseInfo {
  const char* key;      // JSON key: stream dram starved notcons tmem mxcomp vpu quant dma none
  const char* label;    // "MXU starved"
  const char* meaning;  // one line for people
};
// The causes in attribution order.
const std::array<CauseInfo, kNumCauses>& Causes();

// One instruction class (a name such as MM or VOP.ADD) summed over its instructions. Times use
// the effective events (a missing one takes the next that happened; docs/lens-app.md).
struct ClassStats {
  std::string name;
  int unit = 0;
  int64_t count = 0;
  double busy = 0;       // end - start
  double work = 0;       // nominal
  double wait_dep = 0;   // ready - dispatch
  double wait_unit = 0;  // start - ready
  double port_b = 0;
  double port_a = 0;
};

struct Analysis {
  std::array<double, kNumCauses> causes{};  // cycles per cause, in Causes() order
  double total = 0;                         // their sum: the windows' cycles
  int64_t windows = 0;                      // counter windows used
  bool rebuilt_windows = false;             // the profile had no buckets: 64-cycle windows rebuilt
  std::vector<ClassStats> classes;          // in order of first appearance
  std::vector<double> unit_busy;            // per unit: the profile's busy, else the union of runs
  // Per window: its cycles [window_start, window_end) and their causes (summing to `causes`).
  std::vector<double> window_start, window_end;
  std::vector<std::array<double, kNumCauses>> per_window;
};

// Analyses profile `p` (slice 0's counters; one slice today).
Analysis Analyze(const Profile& p);

}  // namespace otpu::lens

#endif  // OTPU_LENS_ATTRIBUTION_H_
