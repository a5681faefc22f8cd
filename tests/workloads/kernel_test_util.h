// Runs kernel programs and whole workloads on the ISA simulator, for the kernel tests.
#ifndef OTPU_TESTS_WORKLOADS_KERNEL_TEST_UTIL_H_
#define OTPU_TESTS_WORKLOADS_KERNEL_TEST_UTIL_H_

#include <array>
#include <cstdint>
#include <vector>

#include "workloads/isa/run_events.h"
#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"
#include "workloads/kernels/attn.h"
#include "workloads/kernels/kv_cache.h"
#include "workloads/workload.h"

namespace otpu::kernels {

// Runs `prog` once per ARG set on one simulator over `dram` (TMEM and ACT RAM persist between
// runs, as on a card); returns the events of the last run.
StatusOr<trace::RunEvents> RunOnIsa(const isa::Config& cfg, const isa::Program& prog,
                                  SparseMemory* dram,
                                  const std::vector<std::array<uint32_t, 8>>& args = {{}});

// Runs every step of `run` (its DRAM writes, then the program with its ARGs) on a copy of its
// image and returns its check. `dram_out`, when
// given, receives the final DRAM.
StatusOr<workloads::CheckReport> RunWorkload(const workloads::WorkloadRun& run,
                                             SparseMemory* dram_out = nullptr);

// Fills positions [from, t_cap) of every head of the cache with keys (+-3, alternating by
// position) and values (50) that would dominate any output they leaked into: the tests then
// write the real prefix over positions [0, from).
void PoisonKvCache(const KvCachePlan& kv, int from, SparseMemory* dram);

// The small attention the trace and board parity tests run: 4 q / 2 kv heads of 128 over 64
// positions, random inputs (seed 2) written into `image` from workloads::kImageBase.
struct SmallAttn {
  AttnPlan plan;
  isa::Program program;
};
SmallAttn WriteSmallAttn(const isa::Config& cfg, SparseMemory* image);

}  // namespace otpu::kernels

#endif  // OTPU_TESTS_WORKLOADS_KERNEL_TEST_UTIL_H_
