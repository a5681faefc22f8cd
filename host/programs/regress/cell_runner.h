// Runs one regression cell (docs/regress.md "Verdicts"): the workload on the ISA simulator and
// on the board (the board model in process, or otpu-xdma-emu through the XDMA path), with the
// core's lossless event tap on, and judges three things:
//   correctness  the board's DRAM outputs byte-equal the ISA simulator's, and the kernel's
//                float64 reference bound holds;
//   parity       the hw profile rebuilt from the trace records equals the rtl profile of the
//                same run (else: the first divergence);
//   performance  the hw profile equals the cell's reviewed baseline exactly (else: the
//                instructions that moved most).
#ifndef OTPU_HOST_PROGRAMS_REGRESS_CELL_RUNNER_H_
#define OTPU_HOST_PROGRAMS_REGRESS_CELL_RUNNER_H_

#include <string>

#include "host/programs/regress/cell_result.h"
#include "host/programs/regress/matrix.h"
#include "lens/profile.h"

namespace otpu::regress {

struct CellOptions {
  std::string baselines_dir;  // <dir>/<cell file name>.json
  std::string out_dir;        // profiles of failing cells go to <dir>/profiles/
  bool accept = false;        // rewrite the baseline when performance differs (or is missing)
  bool keep_profile = false;  // keep the profile of a passing cell too
  std::string emulator;       // the otpu-xdma-emu binary (card cells)
  std::string command;        // the command that reproduces the cell (in the result)
  std::string key;            // the cell's cache key (in the result)
  // Fault injection for testing the parity gate: flip bit `flip_bit` of trace record
  // `flip_record` as it is read from the board (-1: none).
  int64_t flip_record = -1;
  int flip_bit = 0;
};

// Runs `cell` of `m`. Never fails: what could not be done is an `error` verdict naming it.
CellResult RunCell(const Matrix& m, const Cell& cell, const CellOptions& opts);

// The first difference between an rtl and an hw profile of one run ("" when they agree in
// everything parity covers): "instruction 41 (pc 13 MM): end 1234 (rtl) vs 1240 (hw)".
std::string FirstDivergence(const lens::Profile& rtl, const lens::Profile& hw);

// The same for a trace cut short by a full buffer (keep first): only what the trace holds up
// to cycle `traced_to` is compared (instructions, their events up to the cut, whole counter
// windows of `bucket_cycles` before it).
std::string FirstDivergenceInTrace(const lens::Profile& rtl, const lens::Profile& hw,
                                   int64_t traced_to, int bucket_cycles);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_CELL_RUNNER_H_
