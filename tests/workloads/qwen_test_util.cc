#include "tests/workloads/qwen_test_util.h"

#include "workloads/models/qwen3_image.h"
#include "workloads/models/qwen3_reference.h"

namespace otpu::models {

IsaStepper::IsaStepper(const isa::Config& cfg, const SparseMemory& image,
                       const isa::Program& program)
    : dram_(std::make_unique<SparseMemory>(image)),
      sim_(std::make_unique<sim::IsaSim>(cfg, dram_.get())),
      program_(program) {}

Status IsaStepper::Run(const workloads::Step& step) {
  if (!loaded_) {
    RETURN_IF_ERROR(sim_->LoadProgram(program_));
    loaded_ = true;
  }
  for (const workloads::DramWrite& w : step.writes)
    dram_->Write(w.addr, w.bytes.data(), w.bytes.size());
  sim::IsaRunOptions opts;
  opts.args = step.args;
  opts.record_events = false;
  return sim_->Run(opts).status();
}

StatusOr<std::vector<std::vector<float>>> DecodeOnIsa(const Qwen3Engine& engine,
                                                      const Qwen3Weights& w,
                                                      const std::vector<int>& tokens) {
  IsaStepper stepper(engine.plan.hw, engine.image, engine.program);
  std::vector<std::vector<float>> out;
  for (size_t p = 0; p < tokens.size(); ++p) {
    ASSIGN_OR_RETURN(workloads::Step step, Qwen3Step(engine.plan, w, tokens[p], int(p)));
    RETURN_IF_ERROR(stepper.Run(step));
    out.push_back(ReadLogits(engine.plan, stepper.dram()));
  }
  return out;
}

std::vector<std::vector<double>> DecodeReference(const Qwen3Weights& w,
                                                 const std::vector<int>& tokens) {
  Qwen3Reference ref(w);
  std::vector<std::vector<double>> out;
  for (int t : tokens) out.push_back(ref.Step(t).value());
  return out;
}

}  // namespace otpu::models
