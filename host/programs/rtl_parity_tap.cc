#include "host/programs/rtl_parity_tap.h"

#include "base/strings.h"
#include "lens/build_hw_profile.h"
#include "lens/profile_compare.h"
#include "lens/rtl_step_runner.h"

namespace otpu::host {

void RtlParityTap::OnRunStart() {
  ++runs_;
  if (Collecting()) collector_.OnRunStart();
}

void RtlParityTap::OnClock(const rtl::CoreCycle& c) {
  if (Collecting()) collector_.OnClock(c);
}

void RtlParityTap::OnRunEnd() {
  if (!Collecting()) return;
  if (!collector_.status().ok() && status_.ok()) {
    status_ = Internal(StrFormat("step %d: ", runs_ - 1) + collector_.status().message());
  }
  kept_.push_back(lens::ToTraceRun(collector_.events(), collector_.windows(), collector_.ports(),
                                   collector_.halted()));
}

StatusOr<std::vector<lens::decode::TraceRun>> RtlParityTap::TracedRuns() const {
  if (size_t(runs_) != traced_.size()) {
    return Internal(StrFormat("the board ran the core %d times for %zu steps", runs_,
                              traced_.size()));
  }
  RETURN_IF_ERROR(status_);
  return kept_;
}

StatusOr<std::string> RtlParity(const std::vector<lens::Profile>& hw,
                                const std::vector<lens::decode::TraceRun>& runs,
                                const isa::Config& cfg, const isa::Program& program,
                                int window_cycles, const std::string& mem) {
  if (runs.size() != hw.size()) {
    return Internal(StrFormat("the core's event tap saw %zu traced runs for %zu profiles",
                              runs.size(), hw.size()));
  }
  for (size_t k = 0; k < hw.size(); ++k) {
    ASSIGN_OR_RETURN(const lens::Profile rtl, lens::BuildRtlProfile(hw[k].name, cfg, program,
                                                                    runs[k], window_cycles, mem));
    std::string first = lens::FirstDivergence(rtl, hw[k]);
    if (first.empty()) first = lens::BoardCounterDivergence(rtl, hw[k]);
    if (!first.empty()) {
      return StrFormat("profile %zu of %zu (%s): ", k + 1, hw.size(), hw[k].name.c_str()) + first;
    }
  }
  return std::string();
}

}  // namespace otpu::host
