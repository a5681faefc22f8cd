// Runs one regression cell (docs/regress.md "Verdicts"): the workload on the ISA simulator and
// on the board (the board model in process, or otpu-xdma-emu through the XDMA path), with the
// core's lossless event tap on, and judges correctness, parity and performance
// (host/programs/regress/verdicts.h). Performance is judged on the rtl profile from the event
// tap, tied to the board's hw profile by parity.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_CELL_RUNNER_H_
#define OTPU_HOST_PROGRAMS_REGRESS_CELL_RUNNER_H_

#include <cstdint>
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
  std::string run_id;         // the run this cell belongs to (in the result; --run)
  // Fault injection for testing the parity gate: flip bit `flip_bit` of trace record
  // `flip_record` as it is read from the board (-1: none; host/bit_flip_board.h).
  int64_t flip_record = -1;
  int flip_bit = 0;
  // Waves (an instrumented build only, docs/regress.md "Waves"): an FST of run `waves_run`'s
  // cycles [waves_cycle - window/2, waves_cycle + window/2] to <out_dir>/waves/<cell>.fst.
  int waves_run = -1;
  int64_t waves_cycle = -1;
  int64_t waves_window = 200;
  // Line and toggle coverage (an instrumented build only) to <out_dir>/code-coverage/<cell>.dat.
  bool code_coverage = false;
};

// The first divergence of a failing cell's verdicts as a run cycle of its traced (last) step,
// for its waves: parity's first instruction whose times differ between `rtl` and `hw`,
// performance's first that differs from `baseline` (nullptr: none), correctness's last writer
// of the first differing word (named in its message) when it ran in that step, else the
// step's last cycle. -1 when every verdict passed.
int64_t DivergenceCycle(const std::vector<Verdict>& verdicts, const lens::Profile& rtl,
                        const lens::Profile* hw, const lens::Profile* baseline, int last_step);

// Runs `cell` of `m`. Never fails: what could not be done is an `error` verdict naming it.
CellResult RunCell(const Matrix& m, const Cell& cell, const CellOptions& opts);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_CELL_RUNNER_H_
