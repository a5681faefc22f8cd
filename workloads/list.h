// The workload list of SPEC section 8: what `lens list` prints and what `lens record NAME`
// builds. Each workload is a DRAM image, a resident program, the ARGs of each step, which
// step is traced, and a check against the float64 reference (workloads/kernels/).
#ifndef OTPU_WORKLOADS_LIST_H_
#define OTPU_WORKLOADS_LIST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "workloads/common/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/defs.h"
#include "workloads/workload.h"

namespace otpu::workloads {

// DRAM below this address is left to the host (the program image); kernel data starts here.
inline constexpr uint64_t kImageBase = uint64_t{1} << 20;

// A list entry: the name `lens record` takes and one line saying what it runs.
struct WorkloadInfo {
  std::string name;
  std::string description;
};

// Every workload of SPEC section 8, in its order (qwen-tiny and qwen included).
std::vector<WorkloadInfo> ListWorkloads();

// Settings a command line may change; workloads ignore those that do not apply to them.
struct WorkloadOptions {
  int pos = -1;                           // layer: position of the traced step (-1: 1023)
  isa::WFormat wf = isa::WFormat::kINT8;  // mlp, mlp-small, mlp8: weight format
};

// Builds the named workload for `cfg`: image, program, steps (the traced one marked) and the
// check. NotFound naming the workload and the valid names for an unknown one; NotFound for
// qwen-tiny and qwen until the Qwen3 engine exists; InvalidArgument when `cfg` cannot run it.
StatusOr<WorkloadRun> MakeWorkload(const std::string& name, const isa::Config& cfg);
// The same with options; InvalidArgument naming the option when a value is out of range.
StatusOr<WorkloadRun> MakeWorkload(const std::string& name, const isa::Config& cfg,
                                   const WorkloadOptions& opts);

}  // namespace otpu::workloads

#endif  // OTPU_WORKLOADS_LIST_H_
