// What `otpu-regress run --accept` leaves stale in the other matrices (docs/regress.md
// "Baselines"): matrices share one baselines directory, cell by cell id, so accepting one
// matrix's new figures can leave another's baselines behind the RTL. Printed after the run.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_STALE_BASELINES_H_
#define OTPU_HOST_PROGRAMS_REGRESS_STALE_BASELINES_H_

#include <string>
#include <vector>

#include "host/programs/regress/cell_result.h"
#include "host/programs/regress/matrix.h"

namespace otpu::regress {

// One other matrix's cells that this accept left stale, for one reason.
struct StaleCells {
  std::string matrix;  // the other matrix's file
  // "shared": same cell id, so it reads the baseline this run rewrote, but its matrix runs
  // other DRAM timing (the new figures are not its own). "not_run": not run here, and its
  // workload (with options) on its configuration changed here, so its baseline very likely
  // disagrees now.
  std::string reason;
  std::vector<std::string> ids;
  std::string recheck;  // the command that re-judges and re-accepts them
};

// The other matrices' stale cells after `results` of matrix `m` were run with --accept against
// `baselines_dir`. Other matrices are the *.json files beside m's file that read as matrices
// and whose baselines directory (beside them) is `baselines_dir`; changed cells are those whose
// result has `accepted` text. Empty when nothing was accepted or nothing is stale.
std::vector<StaleCells> FindStaleBaselines(const Matrix& m, const std::vector<CellResult>& results,
                                           const std::string& baselines_dir);

// The report otpu-regress prints: per matrix and reason the cells (the first `max_ids`) and the
// command to recheck them; "" when the list is empty.
std::string StaleBaselinesText(const std::vector<StaleCells>& stale, size_t max_ids = 8);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_STALE_BASELINES_H_
