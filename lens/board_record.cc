#include "lens/board_record.h"

#include "base/strings.h"

namespace otpu::lens {

StatusOr<workloads::WorkloadRun> MakeTracedWorkload(const std::string& name, const isa::Config& cfg,
                                                    const TraceRequest& req) {
  if (req.tokens < 1) {
    return InvalidArgument(StrFormat("--tokens %d: trace at least 1 step", req.tokens));
  }
  if (req.pos < -1)
    return InvalidArgument(StrFormat("--pos %d: a position is at least 0", req.pos));
  workloads::WorkloadOptions wopts;
  wopts.wf = req.wf;
  const bool positional = workloads::TakesPosition(name);
  if (positional && req.pos >= 0) wopts.pos = req.pos + req.tokens - 1;
  ASSIGN_OR_RETURN(workloads::WorkloadRun run, workloads::MakeWorkload(name, cfg, wopts));
  if (positional && req.pos < 0 && req.tokens > 1) {
    // The default first position is the workload's own traced one; build up to the last.
    const int first = int(run.steps.size()) - 1;
    wopts.pos = first + req.tokens - 1;
    ASSIGN_OR_RETURN(run, workloads::MakeWorkload(name, cfg, wopts));
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
  if (first < 0 || first + req.tokens > steps) {
    return InvalidArgument(StrFormat("--pos %d --tokens %d: workload %s has %d step%s to trace",
                                     req.pos, req.tokens, name.c_str(), steps,
                                     steps == 1 ? "" : "s"));
  }
  for (int i = 0; i < steps; ++i)
    run.steps[size_t(i)].traced = i >= first && i < first + req.tokens;
  return run;
}

std::string ProfileLine(const Profile& p) {
  std::string line =
      StrFormat("%s: %s profile, %lld cycles, %.1f%% of the roofline", p.name.c_str(),
                KindName(p.kind), (long long)p.cycles, 100 * p.roofline.efficiency);
  if (!p.hwtrace) return line + ", counters only (no trace buffer)";
  const HwTrace& t = *p.hwtrace;
  return line + StrFormat(", %lld records (count %lld, drop %lld, lost %lld, %s)",
                          (long long)t.records, (long long)t.count, (long long)t.drop,
                          (long long)t.lost, t.wrapped ? "wrapped" : "not wrapped");
}

std::vector<std::string> LossWarnings(const Profile& p) {
  std::vector<std::string> lines;
  if (!p.hwtrace || p.hwtrace->complete) return lines;
  const HwTrace& t = *p.hwtrace;
  const std::string head = "warning: " + p.name + ": ";
  if (t.drop > 0) {
    lines.push_back(
        head + StrFormat("the capture queue dropped %lld events (TRACE_DROP)", (long long)t.drop));
  }
  if (t.lost > 0) {
    const std::string what =
        t.keep == "last" ? std::string("the ring kept the last ones")
                         : "the run after cycle " + std::to_string(t.traced_to) + " is missing";
    lines.push_back(head + StrFormat("%lld of %lld records did not fit the buffer of %lld: %s",
                                     (long long)t.lost, (long long)t.count, (long long)t.depth,
                                     what.c_str()));
  }
  if (lines.empty()) {
    lines.push_back(head + StrFormat("the trace is incomplete (%lld instructions without an end)",
                                     (long long)t.open_at_end));
  }
  return lines;
}

}  // namespace otpu::lens
