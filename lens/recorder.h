// The recorder (SPEC 2): one loop for every workload. It loads a workload's image and program
// through a StepRunner, runs every step in order with its ARGs, builds a profile of each traced
// step, and checks the results against the workload's reference.
#ifndef OTPU_LENS_RECORDER_H_
#define OTPU_LENS_RECORDER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "lens/build_profile.h"
#include "lens/profile.h"
#include "workloads/isa/run_events.h"
#include "sim/isa/isa_sim.h"
#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/workload.h"

namespace otpu::lens {

// One way to run the steps of a workload: the ISA simulator here; the RTL harness and the
// board model are other implementations. Nothing else in the recorder knows which one runs.
class StepRunner {
 public:
  virtual ~StepRunner() = default;
  // The kind of profile its runs give.
  virtual ProfileKind kind() const = 0;
  // Loads the workload's DRAM image and program; called once, before the first step.
  virtual Status Load(const workloads::WorkloadRun& run) = 0;
  // Writes host bytes into the board's DRAM between runs (a step's `writes`, which Record
  // applies before the step's Run). The default refuses, naming the runner's kind.
  virtual Status WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes);
  // Runs the program once with the step's ARGs; the events are filled only when `step.traced`.
  virtual StatusOr<trace::RunEvents> Run(const workloads::Step& step) = 0;
  // DRAM after the steps so far (what the workload's check reads).
  virtual const SparseMemory& dram() const = 0;
  // The profile of the traced step just run, whose events are `events`. The default builds it
  // from the events alone (BuildProfile); a runner whose core counts its own windows overrides.
  virtual StatusOr<Profile> BuildStepProfile(const std::string& name,
                                             const workloads::WorkloadRun& run,
                                             const trace::RunEvents& events, int bucket_cycles);
};

// Runs steps on the bit-exact ISA simulator (analytic timing): `isa` profiles.
class IsaStepRunner : public StepRunner {
 public:
  ProfileKind kind() const override { return ProfileKind::kIsa; }
  Status Load(const workloads::WorkloadRun& run) override;
  Status WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) override;
  StatusOr<trace::RunEvents> Run(const workloads::Step& step) override;
  const SparseMemory& dram() const override { return *dram_; }
  // The simulator after the steps so far (null before Load): a caller may run more on it.
  sim::IsaSim* sim() { return sim_.get(); }

 private:
  std::unique_ptr<SparseMemory> dram_;  // the simulator borrows it
  std::unique_ptr<sim::IsaSim> sim_;
};

struct RecordOptions {
  int bucket_cycles = kDefaultBucketCycles;  // counter window of the profiles, cycles
};

// What recording one workload gave.
struct Recording {
  std::vector<Profile> profiles;  // one per traced step, in step order
  workloads::CheckReport check;   // the workload's check of the final DRAM
};

// Records `run` through `runner`. Errors name the workload (and the step when several run);
// a check beyond its bound is an Internal error naming the workload and the numbers.
StatusOr<Recording> Record(const workloads::WorkloadRun& run, StepRunner& runner,
                           const RecordOptions& opts = {});

}  // namespace otpu::lens

#endif  // OTPU_LENS_RECORDER_H_
