#include "lens/greedy_tap.h"

#include <cstring>

#include "workloads/models/qwen3_engine.h"

namespace otpu::lens {

Status GreedyTap::Load(const workloads::WorkloadRun& run) {
  if (run.outputs.empty() || run.outputs[0].bytes == 0 || run.outputs[0].bytes % 4 != 0) {
    return InvalidArgument(run.name + ": no logits output to take the greedy token from");
  }
  logits_ = run.outputs[0];
  tokens_.clear();
  return inner_->Load(run);
}

StatusOr<trace::RunEvents> GreedyTap::Run(const workloads::Step& step) {
  ASSIGN_OR_RETURN(trace::RunEvents events, inner_->Run(step));
  if (step.traced) {
    const std::vector<uint8_t> bytes = inner_->dram().ReadBytes(logits_.addr, logits_.bytes);
    std::vector<float> logits(bytes.size() / 4);
    std::memcpy(logits.data(), bytes.data(), bytes.size());
    tokens_.push_back(models::ArgMax(logits));
  }
  return events;
}

std::string GreedyLine(const std::vector<int>& tokens) {
  std::string line = "greedy tokens:";
  for (int t : tokens) line += " " + std::to_string(t);
  return line;
}

}  // namespace otpu::lens
