// Runs a workload's steps on the Verilated core (sim/rtl/rtl_harness.h): `rtl` profiles built
// from the core's own events, counter windows and port totals (lens/build_hw_profile.h).
#ifndef OTPU_LENS_RTL_STEP_RUNNER_H_
#define OTPU_LENS_RTL_STEP_RUNNER_H_

#include <memory>
#include <string>

#include "lens/recorder.h"
#include "sim/rtl/rtl_harness.h"

namespace otpu::lens {

// The StepRunner of the RTL path: one harness, one DRAM that persists across the steps.
class RtlStepRunner : public StepRunner {
 public:
  // `mem` picks the DRAM model (ideal or stalling); `window_cycles` is the core's counter
  // window, the profile's bucket.
  RtlStepRunner(const rtl::DramOptions& mem, int window_cycles);

  ProfileKind kind() const override { return ProfileKind::kRtl; }
  Status Load(const workloads::WorkloadRun& run) override;
  Status WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) override;
  // Internal naming the stop and the core's error when the run ends other than at HALT.
  StatusOr<sim::RunEvents> Run(const workloads::Step& step) override;
  const SparseMemory& dram() const override { return *dram_; }
  StatusOr<Profile> BuildStepProfile(const std::string& name, const workloads::WorkloadRun& run,
                                     const sim::RunEvents& events, int bucket_cycles) override;

  // The last run (its wall seconds, windows, ports, DRAM statistics).
  const rtl::RtlRun& last() const { return last_; }
  // The harness (to add clock hooks); null before Load.
  rtl::RtlHarness* harness() { return harness_.get(); }

 private:
  rtl::DramOptions mem_;
  int window_cycles_;
  std::unique_ptr<SparseMemory> dram_;
  std::unique_ptr<rtl::RtlHarness> harness_;
  rtl::RtlRun last_;
};

}  // namespace otpu::lens

#endif  // OTPU_LENS_RTL_STEP_RUNNER_H_
