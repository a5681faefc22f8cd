// `otpu-lens record --sim --rtl-parity`: the board model's core event tap (the `rtl` path, the
// regression's parity input) on the traced steps of a recording, so that each hw profile,
// rebuilt from the trace records, can be held against the rtl profile of the same run.
#ifndef OTPU_HOST_PROGRAMS_RTL_PARITY_TAP_H_
#define OTPU_HOST_PROGRAMS_RTL_PARITY_TAP_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "lens/profile.h"
#include "lens/trace/decoder.h"
#include "sim/rtl/event_collector.h"
#include "workloads/isa/program.h"

namespace otpu::host {

// A ClockHook for the board model: the board's k-th core run is the run's k-th step (Card runs
// each step once; TracedRuns checks the count), and only the steps marked traced are collected,
// each kept as the rtl profile builder takes it. The untraced steps cost a run counter.
class RtlParityTap : public rtl::ClockHook {
 public:
  explicit RtlParityTap(const isa::Config& cfg) : collector_(cfg) {}

  // Which steps are traced, before the recording starts.
  void SetTraced(std::vector<bool> traced) { traced_ = std::move(traced); }

  void OnRunStart() override;
  void OnClock(const rtl::CoreCycle& c) override;
  void OnRunEnd() override;

  int runs() const { return runs_; }
  // The traced steps' runs in step order, once the recording is over. Internal when the board
  // ran the core another number of times than SetTraced's steps, or the tap saw a broken event
  // rule.
  StatusOr<std::vector<lens::decode::TraceRun>> TracedRuns() const;

 private:
  bool Collecting() const {
    return runs_ > 0 && size_t(runs_ - 1) < traced_.size() && traced_[size_t(runs_ - 1)];
  }

  rtl::EventCollector collector_;
  std::vector<bool> traced_;
  int runs_ = 0;
  std::vector<lens::decode::TraceRun> kept_;
  Status status_;
};

// The first difference between each hw profile and the rtl profile of its run (built from
// `runs` with `program`), as "profile 2 of 4 (NAME): instruction 41 ...", or "" when every
// profile agrees in everything the regression's parity verdict covers.
StatusOr<std::string> RtlParity(const std::vector<lens::Profile>& hw,
                                const std::vector<lens::decode::TraceRun>& runs,
                                const isa::Config& cfg, const isa::Program& program,
                                int window_cycles, const std::string& mem);

}  // namespace otpu::host

#endif  // OTPU_HOST_PROGRAMS_RTL_PARITY_TAP_H_
