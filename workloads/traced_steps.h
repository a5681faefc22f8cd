// Which steps of a workload are traced, one profile each (SPEC 2: a workload says which steps
// to trace): the --pos/--tokens selection every recording command shares, on any board.
#ifndef OTPU_WORKLOADS_TRACED_STEPS_H_
#define OTPU_WORKLOADS_TRACED_STEPS_H_

#include <string>

#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/workload.h"

namespace otpu::workloads {

// Which steps to trace, one profile each.
struct TraceRequest {
  int pos = -1;    // first traced step: a decode position (layer, qwen-tiny, qwen) or a step
                   // index (the others); -1: the workload's default
  int tokens = 1;  // steps traced from there on
  isa::WFormat wf = isa::WFormat::kINT8;
  uint64_t seed = 0;  // random: the program's seed
};

// Marks steps first .. first + count - 1 traced and every other step untraced. False, with
// `run` unchanged, when the workload has no such steps.
bool TraceSteps(WorkloadRun* run, int first, int count);

// Builds workload `name` for `cfg` with steps pos .. pos + tokens - 1 traced (a decode
// workload gets the positions up to the last one, the earlier ones untraced). NotFound for an
// unknown name (listing the valid ones); InvalidArgument naming --pos or --tokens when the
// workload has no such steps.
StatusOr<WorkloadRun> MakeTracedWorkload(const std::string& name, const isa::Config& cfg,
                                         const TraceRequest& req);

}  // namespace otpu::workloads

#endif  // OTPU_WORKLOADS_TRACED_STEPS_H_
