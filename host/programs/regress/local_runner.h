// `otpu-regress run` (docs/regress.md "Running"): the selected cells as parallel processes of
// `otpu-regress cell` (one board per process: a process holds one SystemC kernel), results
// reused when a cell's key is unchanged, then the merged reports.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_LOCAL_RUNNER_H_
#define OTPU_HOST_PROGRAMS_REGRESS_LOCAL_RUNNER_H_

#include <string>
#include <vector>

#include "base/exit_codes.h"
#include "host/programs/regress/cell_runner.h"
#include "host/programs/regress/matrix.h"
#include "host/programs/regress/report.h"

namespace otpu::regress {

// Exit codes of otpu-regress (base/exit_codes.h).
using exit_codes::regress::kExitBadInput;
using exit_codes::regress::kExitFail;
using exit_codes::regress::kExitInfra;
using exit_codes::regress::kExitPass;
using exit_codes::regress::kExitUsage;

// The exit code an index stands for.
int ExitCodeOf(const Index& index);

// What the cells' results depend on besides the cell itself (part of the cache key).
struct KeyInputs {
  std::string tool;      // hash of the otpu-regress binary (which links the Verilated models)
  std::string rtl;       // hash of the RTL sources
  std::string extra;     // options that change results: --accept, fault injection
  std::string emulator;  // hash of the otpu-xdma-emu binary card cells start
};
// `emulator` is the otpu-xdma-emu that card cells run (a bare name is searched in PATH).
KeyInputs CurrentKeyInputs(const std::string& extra, const std::string& emulator);
// The cell's key: everything its verdicts depend on, hashed.
std::string CellKey(const Matrix& m, const Cell& cell, const KeyInputs& in,
                    const std::string& baselines_dir);

struct RunOptions {
  std::string out_dir;
  std::string baselines_dir;
  std::string only;
  int shard = 1, shards = 1;
  std::string rerun_failed;  // an index.json: only its failed cells
  int jobs = 1;
  bool reuse = true;
  bool accept = false;
  bool keep_profiles = false;
  std::string inject;        // --inject-trace-flip R:B, passed to the cells
  std::string self;          // the binary the cells run (an instrumented one for --code-coverage)
  std::string emulator;
  bool code_coverage = false;  // cells write their line and toggle counts (--code-coverage)
};

// Runs the selection and writes the reports; returns the exit code (errors printed).
int RunLocal(const Matrix& m, const RunOptions& opts);

// Writes DIR/selection.json for `cells` (what `merge` expects) with the run's id: the merge
// counts only results stamped with it.
Status WriteSelection(const std::string& dir, const Matrix& m, const std::vector<Cell>& cells,
                      const std::string& run_id);

// The shell command that reproduces one cell alone.
std::string ReproduceCommand(const Matrix& m, const Cell& cell, const std::string& baselines_dir,
                             const std::string& default_baselines);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_LOCAL_RUNNER_H_
