#include "workloads/traced_steps.h"

#include "base/strings.h"
#include "workloads/list.h"

namespace otpu::workloads {

bool TraceSteps(WorkloadRun* run, int first, int count) {
  const int steps = int(run->steps.size());
  if (first < 0 || count < 1 || first + count > steps) return false;
  for (int i = 0; i < steps; ++i) run->steps[size_t(i)].traced = i >= first && i < first + count;
  return true;
}

StatusOr<WorkloadRun> MakeTracedWorkload(const std::string& name, const isa::Config& cfg,
                                         const TraceRequest& req) {
  if (req.tokens < 1) {
    return InvalidArgument(StrFormat("--tokens %d: trace at least 1 step", req.tokens));
  }
  if (req.pos < -1)
    return InvalidArgument(StrFormat("--pos %d: a position is at least 0", req.pos));
  WorkloadOptions wopts;
  wopts.wf = req.wf;
  wopts.seed = req.seed;
  const bool positional = TakesPosition(name);
  if (positional && req.pos >= 0) wopts.pos = req.pos + req.tokens - 1;
  ASSIGN_OR_RETURN(WorkloadRun run, MakeWorkload(name, cfg, wopts));
  if (positional && req.pos < 0 && req.tokens > 1) {
    // The default first position is the workload's own traced one; build up to the last.
    const int first = int(run.steps.size()) - 1;
    wopts.pos = first + req.tokens - 1;
    ASSIGN_OR_RETURN(run, MakeWorkload(name, cfg, wopts));
  }
  const int steps = int(run.steps.size());
  int first = 0;
  if (positional) {
    first = steps - req.tokens;  // the positions run as steps 0..pos
  } else {
    first = req.pos;
    for (int i = 0; first < 0 && i < steps; ++i) {
      if (run.steps[size_t(i)].traced) first = i;  // the workload's own first traced step
    }
  }
  if (!TraceSteps(&run, first, req.tokens)) {
    return InvalidArgument(StrFormat("--pos %d --tokens %d: workload %s has %d step%s to trace",
                                     req.pos, req.tokens, name.c_str(), steps,
                                     steps == 1 ? "" : "s"));
  }
  return run;
}

}  // namespace otpu::workloads
