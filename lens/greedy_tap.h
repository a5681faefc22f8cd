// The greedy token of every traced decode step: a StepRunner that runs another one and, after
// each traced step, takes the argmax of the logits the step left in DRAM (the workload's first
// output: vocab f32 values). The same tap over a card, the board model or the ISA simulator
// says whether they decode alike.
#ifndef OTPU_LENS_GREEDY_TAP_H_
#define OTPU_LENS_GREEDY_TAP_H_

#include <string>
#include <vector>

#include "lens/recorder.h"

namespace otpu::lens {

class GreedyTap : public StepRunner {
 public:
  // `inner` is borrowed and must outlive the tap.
  explicit GreedyTap(StepRunner* inner) : inner_(inner) {}

  ProfileKind kind() const override { return inner_->kind(); }
  // InvalidArgument when the workload has no logits output (an output of whole f32 values).
  Status Load(const workloads::WorkloadRun& run) override;
  Status WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) override {
    return inner_->WriteDram(addr, bytes);
  }
  StatusOr<trace::RunEvents> Run(const workloads::Step& step) override;
  const SparseMemory& dram() const override { return inner_->dram(); }
  StatusOr<Profile> BuildStepProfile(const std::string& name,
                                           const workloads::WorkloadRun& run,
                                           const trace::RunEvents& events,
                                           int bucket_cycles) override {
    return inner_->BuildStepProfile(name, run, events, bucket_cycles);
  }

  // The argmax of each traced step's logits, in step order.
  const std::vector<int>& tokens() const { return tokens_; }

 private:
  StepRunner* inner_;
  workloads::DramRange logits_;
  std::vector<int> tokens_;
};

// "greedy tokens: 17 200" (the argmaxes of the traced steps).
std::string GreedyLine(const std::vector<int>& tokens);

}  // namespace otpu::lens

#endif  // OTPU_LENS_GREEDY_TAP_H_
