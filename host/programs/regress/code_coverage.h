// Verilator code coverage of a regression run (docs/regress.md "Code coverage"): the cells of
// an instrumented build each write the line and toggle counts of their board model
// (<out>/code-coverage/<cell>.dat); the run merges them with `verilator_coverage --write`,
// annotates the sources with `verilator_coverage --annotate`, and reports per module the line
// and toggle coverage and the lines never run.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_CODE_COVERAGE_H_
#define OTPU_HOST_PROGRAMS_REGRESS_CODE_COVERAGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace otpu::regress {

// One coverage point of a .dat file (instances merged: a point is its place in the source).
struct CoveragePoint {
  std::string kind;    // "line" (Verilator's v_line and v_branch) or "toggle" (v_toggle)
  std::string module;  // from the page, "v_line/otpu_seq" -> otpu_seq
  std::string file;
  int line = 0;
  std::string column_comment;  // column and comment: tells points of one line apart
  uint64_t count = 0;          // summed over instances
};

// The points of a verilator_coverage .dat file's text, instances merged; InvalidArgument
// naming `path` and the line for a line that is not a point.
StatusOr<std::vector<CoveragePoint>> ParseCoverageDat(const std::string& text,
                                                      const std::string& path);

struct ModuleCoverage {
  std::string module;
  std::string file;  // the module's source (one module per file)
  int line_points = 0, line_hit = 0;
  int toggle_points = 0, toggle_hit = 0;
  std::vector<int> uncovered_lines;  // lines with a line point never hit, ascending
  double line_percent() const { return line_points ? 100.0 * line_hit / line_points : 100.0; }
  double toggle_percent() const {
    return toggle_points ? 100.0 * toggle_hit / toggle_points : 100.0;
  }
};

struct CodeCoverage {
  int cells = 0;
  std::vector<ModuleCoverage> modules;  // by module name
  // Totals over the modules whose file is under `rtl/core/` (the target's scope).
  int core_line_points = 0, core_line_hit = 0, core_toggle_points = 0, core_toggle_hit = 0;
  double core_line_percent() const {
    return core_line_points ? 100.0 * core_line_hit / core_line_points : 0;
  }
  double core_toggle_percent() const {
    return core_toggle_points ? 100.0 * core_toggle_hit / core_toggle_points : 0;
  }
};
CodeCoverage SummarizeCodeCoverage(const std::vector<CoveragePoint>& points, int cells);

// Merges <out>/code-coverage/*.dat into <out>/code_coverage.dat (verilator_coverage --write),
// annotates the sources into <out>/code-coverage-annotated/, and summarizes. Unavailable
// naming verilator_coverage when it is missing or fails; NotFound when no cell wrote counts.
StatusOr<CodeCoverage> MergeCodeCoverage(const std::string& out_dir);

// <out>/code_coverage.json and the Markdown section (a table per module, rtl/core's total,
// the lines never run).
std::string CodeCoverageJson(const CodeCoverage& c);
std::string CodeCoverageMarkdown(const CodeCoverage& c);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_CODE_COVERAGE_H_
