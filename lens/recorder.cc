#include "lens/recorder.h"

#include <cstdio>
#include <utility>

#include "base/strings.h"

namespace otpu::lens {

Status IsaStepRunner::Load(const workloads::WorkloadRun& run) {
  dram_ = std::make_unique<SparseMemory>(run.image);
  sim_ = std::make_unique<sim::IsaSim>(run.config, dram_.get());
  return sim_->LoadProgram(run.program);
}

Status StepRunner::WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) {
  return Internal(std::string(KindName(kind())) + " runner: cannot write DRAM between steps");
}

Status IsaStepRunner::WriteDram(uint64_t addr, const std::vector<uint8_t>& bytes) {
  if (!sim_) return Internal("ISA simulator: WriteDram before Load");
  if (!dram_->Contains(addr, bytes.size()))
    return InvalidArgument(StrFormat("step write of %zu bytes at DRAM 0x%llx is outside DRAM",
                                     bytes.size(), (unsigned long long)addr));
  dram_->Write(addr, bytes.data(), bytes.size());
  return OkStatus();
}

StatusOr<Profile> StepRunner::BuildStepProfile(const std::string& name,
                                               const workloads::WorkloadRun& run,
                                               const trace::RunEvents& events, int bucket_cycles) {
  return BuildProfile(kind(), name, run.config, run.program, events, bucket_cycles);
}

StatusOr<trace::RunEvents> IsaStepRunner::Run(const workloads::Step& step) {
  if (!sim_) return Internal("ISA simulator: Run before Load");
  sim::IsaRunOptions opts;
  opts.args = step.args;
  opts.record_events = step.traced;
  return sim_->Run(opts);
}

StatusOr<Recording> Record(const workloads::WorkloadRun& run, StepRunner& runner,
                           const RecordOptions& opts) {
  const std::string& name = run.name;
  RETURN_IF_ERROR(runner.Load(run).WithContext(name));
  int traced = 0;
  for (const workloads::Step& step : run.steps) traced += step.traced ? 1 : 0;

  Recording rec;
  for (size_t i = 0; i < run.steps.size(); ++i) {
    const workloads::Step& step = run.steps[i];
    const std::string where = run.steps.size() == 1 ? name : name + " step " + std::to_string(i);
    for (const workloads::DramWrite& w : step.writes)
      RETURN_IF_ERROR(runner.WriteDram(w.addr, w.bytes).WithContext(where));
    StatusOr<trace::RunEvents> events = runner.Run(step);
    if (!events.ok()) return events.status().WithContext(where);
    if (!step.traced) continue;
    // One traced step is named after the workload; several carry their step number.
    const std::string profile_name = traced == 1 ? name : name + " step " + std::to_string(i);
    StatusOr<Profile> p = runner.BuildStepProfile(profile_name, run, *events, opts.bucket_cycles);
    if (!p.ok()) return p.status().WithContext(where);
    rec.profiles.push_back(std::move(p).value());
  }
  if (run.check) {
    rec.check = run.check(runner.dram());
    if (!rec.check.ok()) {
      std::string numbers = rec.check.detail;
      if (numbers.empty()) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "rel_l2 %.3g (bound %.3g)", rec.check.rel_l2,
                      rec.check.bound);
        numbers = buf;
      }
      return Internal(name + ": check failed: " + numbers);
    }
  }
  return rec;
}

}  // namespace otpu::lens
