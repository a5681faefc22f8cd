// Test helpers of the Qwen3 engine: run decode steps on the ISA simulator the way the
// recorder does (each step's DRAM writes, then the run), and read the logits of each.
#ifndef OTPU_TESTS_WORKLOADS_QWEN_TEST_UTIL_H_
#define OTPU_TESTS_WORKLOADS_QWEN_TEST_UTIL_H_

#include <memory>
#include <vector>

#include "sim/isa/isa_sim.h"
#include "base/status.h"
#include "workloads/models/qwen3_engine.h"
#include "workloads/workload.h"

namespace otpu::models {

// One ISA simulator over a copy of an image, with the program loaded.
class IsaStepper {
 public:
  IsaStepper(const isa::Config& cfg, const SparseMemory& image, const isa::Program& program);
  // Applies the step's writes, then runs the program with its ARGs.
  Status Run(const workloads::Step& step);
  const SparseMemory& dram() const { return *dram_; }

 private:
  std::unique_ptr<SparseMemory> dram_;
  std::unique_ptr<sim::IsaSim> sim_;
  isa::Program program_;
  bool loaded_ = false;
};

// Runs `tokens` at positions 0.. through the engine and returns the logits of every step.
StatusOr<std::vector<std::vector<float>>> DecodeOnIsa(const Qwen3Engine& engine,
                                                      const Qwen3Weights& w,
                                                      const std::vector<int>& tokens);

// The float64 reference's logits of every step of `tokens`.
std::vector<std::vector<double>> DecodeReference(const Qwen3Weights& w,
                                                 const std::vector<int>& tokens);

}  // namespace otpu::models

#endif  // OTPU_TESTS_WORKLOADS_QWEN_TEST_UTIL_H_
