// The greedy token of every traced decode step: a StepRunner that runs another one and, after
// each traced step, takes the argmax of the logits the step left in DRAM (the workload's first
// output: vocab f32 values). The same tap over a card, the board model or the ISA simulator
// says whether they decode alike.
#ifndef OTPU_HOST_PROGRAMS_GREEDY_TAP_H_
#define OTPU_HOST_PROGRAMS_GREEDY_TAP_H_

#include <string>
#include <vector>

#include "lens/recorder.h"

namespace otpu::host {

class GreedyTap : public lens::StepRunner {
 public:
  // `inner` is borrowed and must outlive the tap.
  explicit GreedyTap(lens::StepRunner* inner) : inner_(inner) {}

  lens::ProfileKind kind() const override { return inner_->kind(); }
  // InvalidArgument when the workload has no logits output (an output of whole f32 values).
  Status Load(const workloads::WorkloadRun& run) override;
  Status WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) override {
    return inner_->WriteDram(addr, bytes);
  }
  StatusOr<trace::RunEvents> Run(const workloads::Step& step) override;
  const SparseMemory& dram() const override { return inner_->dram(); }
  StatusOr<lens::Profile> BuildStepProfile(const std::string& name,
                                           const workloads::WorkloadRun& run,
                                           const trace::RunEvents& events,
                                           int bucket_cycles) override {
    return inner_->BuildStepProfile(name, run, events, bucket_cycles);
  }

  // The argmax of each traced step's logits, in step order.
  const std::vector<int>& tokens() const { return tokens_; }

 private:
  lens::StepRunner* inner_;
  workloads::DramRange logits_;
  std::vector<int> tokens_;
};

// "greedy tokens: 17 200" (the argmaxes of the traced steps).
std::string GreedyLine(const std::vector<int>& tokens);

}  // namespace otpu::host

#endif  // OTPU_HOST_PROGRAMS_GREEDY_TAP_H_
