// A workload as the recorder sees it: a DRAM image, a resident program, the ARG values of each
// step, which steps to trace, and how to check the results. Nothing here knows which board
// (ISA simulator, RTL, board model or card) runs it.
#ifndef OTPU_WORKLOADS_WORKLOAD_H_
#define OTPU_WORKLOADS_WORKLOAD_H_

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"

namespace otpu::workloads {

// Bytes the host writes into DRAM before a step runs (a decode step's embedding row).
struct DramWrite {
  uint64_t addr = 0;
  std::vector<uint8_t> bytes{};
};

// A DRAM range: `bytes` bytes from `addr`.
struct DramRange {
  uint64_t addr = 0;
  uint64_t bytes = 0;
};

struct Step {
  std::array<uint32_t, 8> args{};  // ARG0..7 for this run of the program
  bool traced = false;             // record a profile of this step
  std::vector<DramWrite> writes{};  // applied in order before the run
};

// Result of checking a finished workload against its float64 reference.
struct CheckReport {
  double rel_l2 = 0;      // ||got - ref|| / ||ref|| over the checked outputs
  double bound = 0;       // the documented bound rel_l2 must stay under
  std::string detail;     // "out 3x128 rel_l2 0.0123 (bound 0.03)"
  bool ok() const { return rel_l2 <= bound; }
};

struct WorkloadRun {
  std::string name;
  isa::Config config;
  isa::Program program;
  SparseMemory image{1};   // initial DRAM contents (sized to config.DRAM_BYTES)
  std::vector<Step> steps;
  // Reads the outputs from DRAM after the last step and compares them with the reference.
  std::function<CheckReport(const SparseMemory& dram)> check;
  // Every byte `check` reads: a board's runner reads these back from the card before the
  // check (list_test checks that they are enough).
  std::vector<DramRange> outputs;
};

}  // namespace otpu::workloads

#endif  // OTPU_WORKLOADS_WORKLOAD_H_
