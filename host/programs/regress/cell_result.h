// A cell's result (docs/regress.md "Results"): the source of truth of a regression run, one
// JSON file per cell, from which the index, JUnit XML and the Markdown summary are made.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_CELL_RESULT_H_
#define OTPU_HOST_PROGRAMS_REGRESS_CELL_RESULT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace otpu::regress {

// The verdicts of a cell, in this order: the functional ones first, so a functional bug is
// never reported as performance alone (docs/regress.md "Verdicts").
inline constexpr const char* kVerdictNames[] = {"correctness", "parity", "dependency",
                                                "assertions", "performance"};

// pass; fail (the verdict's check failed: a finding); error (the cell could not be judged: a
// crash, a missing tool, an emulator that did not start: infrastructure); skip.
enum class Outcome { kPass, kFail, kError, kSkip };
const char* OutcomeName(Outcome o);
bool ParseOutcome(const std::string& name, Outcome* o);

struct Verdict {
  std::string name;  // one of kVerdictNames
  Outcome outcome = Outcome::kSkip;
  std::string message;  // one line: why it failed, or what passed
  std::string detail;   // more lines (the diff, the first divergence); may be empty
  // Measured seconds of this verdict's work (docs/regress.md "Verdict times"): the shared
  // recording counts for correctness, the rtl/hw comparison for parity, the baseline
  // comparison for performance. 0 in results older than the field.
  double time_s = 0;
};

// One instruction of the program (a pc) whose timing differed from the baseline in a cell, its
// dynamic runs taken together: what summary.md's roll-up counts across cells.
struct MovedInstr {
  int64_t pc = 0;
  std::string name;    // "MM"
  std::string source;  // "workloads/kernels/mlp.cc:131", or ""
  int64_t runs = 0;    // dynamic runs of the pc that moved
  int64_t d_busy = 0;  // their change of own cycles (end - start), summed
  int64_t d_end = 0;   // the largest change of an end (by magnitude): how far it moved
  bool operator==(const MovedInstr&) const = default;
};

struct CellResult {
  std::string id;
  int index = 0;
  std::string matrix;  // the matrix file
  std::string workload;
  std::string config;
  std::string memory;
  std::string transport;
  uint64_t seed = 0;
  std::string key;      // hash of everything the result depends on (cache)
  std::string command;  // reproduces this cell alone
  // The run (or Slurm submission) whose result this is: selection.json's "run". A result of
  // another run is stale and never counts (ReadIndexDir). "" when the cell ran alone.
  std::string run;
  bool reused = false;  // taken from an earlier run with the same key
  double wall_s = 0;
  // When the cell started (ISO 8601, UTC, seconds: JUnit's testsuite timestamp) and on which
  // host (on Slurm every cell may run on another node). "" in results older than the fields.
  std::string started;
  std::string hostname;
  int64_t cycles = -1;
  double efficiency = -1;
  std::string profile;  // the kept profile (failing cells), relative to the output dir
  std::string accepted; // with --accept: what the baseline update changed ("" = nothing)
  // Instructions whose timing differed from the baseline (performance failed, or was accepted
  // with changes), by pc, most own cycles first; empty in results older than the field.
  std::vector<MovedInstr> moved;
  std::vector<Verdict> verdicts;
  // The functional-coverage bins the cell hit (func_coverage.h); `has_coverage` is false for a
  // cell that did not get as far as collecting them (an error) and in older results.
  bool has_coverage = false;
  std::vector<std::string> coverage;
  // The waveform of the cell's first divergence (`cell --waves`), relative to the output dir.
  std::string waves;
  // Where a failing cell first diverged, for its waves: the board run (0 = the first step's)
  // and its run cycle (docs/regress.md "Waves"); -1 when the cell did not fail or stopped
  // before its recording.
  int divergence_run = -1;
  int64_t divergence_cycle = -1;
  // The build that produced the result (otpu::VersionString()); "" in results older than it.
  std::string tool_version;

  // Pass when every verdict passed (or was skipped); error when any is an error; else fail.
  Outcome outcome() const;
};

std::string CellResultJson(const CellResult& r);
// InvalidArgument naming `path` for anything but a result a cell writes (its verdicts exactly
// kVerdictNames, in order).
StatusOr<CellResult> ParseCellResult(const std::string& json, const std::string& path);

// A result of every verdict an error with `why`, for a cell without a readable result.
CellResult ErrorResult(const std::string& id, int index, const std::string& why);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_CELL_RESULT_H_
