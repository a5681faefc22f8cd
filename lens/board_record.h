// What `otpu-lens record` needs around the recorder (SPEC 9): the workload with the steps to
// trace marked (--pos, --tokens), and the lines it prints for each profile, loss warnings
// included. Nothing here knows which board runs.
#ifndef OTPU_LENS_BOARD_RECORD_H_
#define OTPU_LENS_BOARD_RECORD_H_

#include <string>
#include <vector>

#include "lens/profile.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/list.h"

namespace otpu::lens {

// Which steps to trace, one profile each.
struct TraceRequest {
  int pos = -1;    // first traced step: a decode position (layer, qwen-tiny, qwen) or a step
                   // index (the others); -1: the workload's default
  int tokens = 1;  // steps traced from there on
  isa::WFormat wf = isa::WFormat::kINT8;
};

// Builds workload `name` for `cfg` with steps pos .. pos + tokens - 1 traced (a decode
// workload gets the positions up to the last one, the earlier ones untraced). NotFound for an
// unknown name (listing the valid ones); InvalidArgument naming --pos or --tokens when the
// workload has no such steps.
StatusOr<workloads::WorkloadRun> MakeTracedWorkload(const std::string& name, const isa::Config& cfg,
                                                    const TraceRequest& req);

// "qwen-tiny step 3: hw profile, 81234 cycles, 45.1% of the roofline, 12345 records (count
// 12345, drop 0, lost 0, not wrapped)"; a board profile says "counters only" instead.
std::string ProfileLine(const Profile& p);

// "warning: NAME: ..." lines for what the trace lost (TRACE_DROP, records past the buffer,
// cut groups); none for a complete trace or a profile without one.
std::vector<std::string> LossWarnings(const Profile& p);

}  // namespace otpu::lens

#endif  // OTPU_LENS_BOARD_RECORD_H_
