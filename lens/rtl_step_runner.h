// Runs a workload's steps on the Verilated core (sim/rtl/rtl_harness.h): `rtl` profiles built
// from the core's own events, counter windows and port totals (lens/build_hw_profile.h).
#ifndef OTPU_LENS_RTL_STEP_RUNNER_H_
#define OTPU_LENS_RTL_STEP_RUNNER_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lens/recorder.h"
#include "lens/trace/decoder.h"
#include "sim/rtl/rtl_harness.h"

namespace otpu::lens {

// A core run's events, counter windows and port totals as the rtl profile builder takes them
// (the trace decoder's shape, nothing lost).
decode::TraceRun ToTraceRun(const trace::RunEvents& events,
                           const std::vector<rtl::WindowRecord>& windows,
                           const std::array<int64_t, 4>& ports, bool halted);

// The StepRunner of the RTL path: one harness, one DRAM that persists across the steps.
// With `untraced_on_isa`, the steps before the first traced one run on the ISA simulator over
// the same DRAM (a decode's earlier positions, fast and untimed); before the first RTL step the
// simulator's TMEM and ACT RAM, which keep their contents between runs (docs/isa.md), are
// loaded into the core, so the RTL continues from the machine state the earlier steps left.
class RtlStepRunner : public StepRunner {
 public:
  // `mem` picks the DRAM model (ideal or stalling); `window_cycles` is the core's counter
  // window, the profile's bucket.
  RtlStepRunner(const rtl::DramOptions& mem, int window_cycles, bool untraced_on_isa = false);

  ProfileKind kind() const override { return ProfileKind::kRtl; }
  Status Load(const workloads::WorkloadRun& run) override;
  Status WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) override;
  // Internal naming the stop and the core's error when the run ends other than at HALT.
  StatusOr<trace::RunEvents> Run(const workloads::Step& step) override;
  const SparseMemory& dram() const override { return *dram_; }
  StatusOr<Profile> BuildStepProfile(const std::string& name, const workloads::WorkloadRun& run,
                                     const trace::RunEvents& events, int bucket_cycles) override;

  // The last run (its wall seconds, windows, ports, DRAM statistics).
  const rtl::RtlRun& last() const { return last_; }
  // The harness (to add clock hooks); null before Load.
  rtl::RtlHarness* harness() { return harness_.get(); }
  // How many steps ran on the ISA simulator (untraced_on_isa) and on the RTL since Load.
  int isa_steps() const { return isa_steps_; }
  int rtl_steps() const { return rtl_steps_; }

 private:
  // Loads the ISA simulator's TMEM and ACT RAM into the core and drops the simulator.
  void HandOver();

  rtl::DramOptions mem_;
  int window_cycles_;
  bool untraced_on_isa_;
  std::unique_ptr<SparseMemory> dram_;
  std::unique_ptr<sim::IsaSim> isa_;  // the untraced steps' simulator; null once handed over
  std::unique_ptr<rtl::RtlHarness> harness_;
  rtl::RtlRun last_;
  int isa_steps_ = 0;
  int rtl_steps_ = 0;
};

}  // namespace otpu::lens

#endif  // OTPU_LENS_RTL_STEP_RUNNER_H_
