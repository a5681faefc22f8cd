// The workload list of SPEC section 8: what `lens list` prints and what `lens record NAME`
// builds. Each workload is a DRAM image, a resident program, the ARGs of each step, which
// step is traced, and a check against the float64 reference (workloads/kernels/).
#ifndef OTPU_WORKLOADS_LIST_H_
#define OTPU_WORKLOADS_LIST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
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
  int pos = -1;  // layer, qwen-tiny, qwen: position of the traced step (-1: their default)
  isa::WFormat wf = isa::WFormat::kINT8;  // mlp*, qwen-tiny, qwen: weight format
  uint64_t seed = 0;  // random: the program's and the data's seed
};

// True for the workloads whose traced step is a decode position that WorkloadOptions::pos
// picks (layer, qwen-tiny, qwen); in the others `lens record --pos N` traces step N.
bool TakesPosition(const std::string& name);

// Builds the named workload for `cfg`: image, program, steps (the traced one marked) and the
// check. NotFound naming the workload and the valid names for an unknown one, or naming the
// missing checkpoint directory of qwen; InvalidArgument when `cfg` cannot run it.
//
// qwen-tiny is the random Qwen3 of seed 0 (workloads/models/): steps for positions 0..pos,
// the last one traced, over the prompt kTinyPrompt (default pos 3, its last token). qwen
// loads models/Qwen3-0.6B and its tokenizer and runs the chat-templated default prompt
// (default pos: its last token). Their 4-bit weights come through the image cache
// (workloads/models/image_cache.h).
StatusOr<WorkloadRun> MakeWorkload(const std::string& name, const isa::Config& cfg);
// The same with options; InvalidArgument naming the option when a value is out of range.
StatusOr<WorkloadRun> MakeWorkload(const std::string& name, const isa::Config& cfg,
                                   const WorkloadOptions& opts);

}  // namespace otpu::workloads

#endif  // OTPU_WORKLOADS_LIST_H_
