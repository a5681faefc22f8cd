// Turns the core's per-cycle event bundle into what a run did (trace::RunEvents, the common
// input of every profile builder): one trace::InstrEvent per dispatched unit instruction with
// dispatch, ready, release (MM), start and end, its unit counters and its nominal cost, plus
// the per-window counters and the run's port totals.
#ifndef OTPU_SIM_RTL_EVENT_COLLECTOR_H_
#define OTPU_SIM_RTL_EVENT_COLLECTOR_H_

#include <array>
#include <cstdint>
#include <vector>

#include "workloads/isa/run_events.h"
#include "sim/rtl/assertions.h"
#include "sim/rtl/core_cycle.h"
#include "base/status.h"
#include "workloads/isa/config.h"

namespace otpu::rtl {

// One counter window as the core emitted it (SPEC 5 P and Q records).
struct WindowRecord {
  int64_t last = 0;   // last cycle of the window
  int64_t n = 0;      // cycles in it
  std::array<int64_t, kWindowColumns> columns{};  // bm bd am aq mx fm fq fv fc bs as ms mb ff ld
};

class EventCollector : public ClockHook {
 public:
  explicit EventCollector(const isa::Config& cfg) : cfg_(cfg) {}

  void OnRunStart() override;
  void OnClock(const CoreCycle& c) override;
  void OnAssertion(const AssertionFailure& f) override { assertions_.push_back(f); }

  // What the run did so far. `events.cycles` is set once the halt event was seen.
  const trace::RunEvents& events() const { return events_; }
  trace::RunEvents& events() { return events_; }
  const std::vector<WindowRecord>& windows() const { return windows_; }
  // bmxu bdma amxu aq at the halt.
  const std::array<int64_t, 4>& ports() const { return ports_; }
  bool halted() const { return halted_; }
  // Internal when the bundle broke a rule (an event for a slot that holds no instruction,
  // an end before a start): the RTL's bug, named with cycle and slot.
  const Status& status() const { return status_; }
  // Every SV assertion that failed while this hook was attached, over all runs (OnRunStart does
  // not clear them): the assertions verdict's input.
  const std::vector<AssertionFailure>& assertions() const { return assertions_; }

 private:
  // The instruction in `slot`, or nullptr (recording the broken rule).
  trace::InstrEvent* InSlot(int slot, int64_t cycle, const char* what);

  isa::Config cfg_;
  trace::RunEvents events_;
  std::vector<WindowRecord> windows_;
  std::array<int64_t, 4> ports_{};
  std::array<int64_t, 16> slot_idx_{};  // instruction index per window slot, -1 free
  bool halted_ = false;
  Status status_;
  std::vector<AssertionFailure> assertions_;
};

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_EVENT_COLLECTOR_H_
