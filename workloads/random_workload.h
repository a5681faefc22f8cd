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

// The `random-illegal` workload of `seed`: a shorter random program of the same generator
// (its own data) that ends in illegal kind `seed mod IllegalKindCount()`
// (workloads/random_program.h EndInIllegal), so consecutive seeds end in every legality error
// of docs/isa.md "Errors". The run stops with ERROR: the regression judges the error (pc and
// cause) and the outputs against the ISA simulator's (docs/regress.md "Illegal programs").
StatusOr<WorkloadRun> MakeRandomIllegalWorkload(const isa::Config& cfg, uint64_t seed);

}  // namespace otpu::workloads

#endif  // OTPU_WORKLOADS_RANDOM_WORKLOAD_H_
