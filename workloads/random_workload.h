// The `random` workload: one random program (workloads/random_program.h) for a seed, over
// seeded random fp32 data in DRAM, built for either configuration. It has no float64
// reference: the regression judges it by comparing the board's state with the ISA
// simulator's (docs/regress.md "Random cells"), so its check only says so.
#ifndef OTPU_WORKLOADS_RANDOM_WORKLOAD_H_
#define OTPU_WORKLOADS_RANDOM_WORKLOAD_H_

#include <cstdint>

#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/random_program.h"
#include "workloads/workload.h"

namespace otpu::workloads {

// The generator's settings for `seed` on `cfg`: every unit instruction kind, loops, and one
// seed in three with small regions (instructions fight over the same words: hazards of every
// kind and distance); the DRAM region starts at kImageBase.
RandomProgramOptions RandomWorkloadOptions(const isa::Config& cfg, uint64_t seed);

// The random workload of `seed` for `cfg`: one traced step of the program with its ARGs,
// the data region filled by FillRandomDram, that region as the outputs. InvalidArgument when
// the program does not fit IMEM.
StatusOr<WorkloadRun> MakeRandomWorkload(const isa::Config& cfg, uint64_t seed);

}  // namespace otpu::workloads

#endif  // OTPU_WORKLOADS_RANDOM_WORKLOAD_H_
