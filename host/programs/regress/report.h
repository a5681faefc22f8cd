// A regression run's reports (docs/regress.md "Reports"), made from the per-cell results: the
// merged index (JSON), JUnit XML (a <testsuite> per cell, a <testcase> per verdict) and a
// Markdown summary for a CI step summary or a PR comment. Also the metamorphic check along
// the stall axis: a cell's cycles never fall as its memory's stalls rise.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_REPORT_H_
#define OTPU_HOST_PROGRAMS_REGRESS_REPORT_H_

#include <map>
#include <string>
#include <vector>

#include "host/programs/regress/cell_result.h"
#include "base/status.h"

namespace otpu::regress {

// One failed metamorphic relation: a cell whose cycles fell as stalls rose.
struct StallInversion {
  std::string lower_id, higher_id;  // lower and higher stall percent
  int64_t lower_cycles = 0, higher_cycles = 0;
};

struct Index {
  std::string matrix;
  std::string name;  // the matrix's name
  std::vector<CellResult> cells;  // in matrix order
  std::vector<std::string> missing;  // selected cells without a result (counted as errors)
  std::vector<StallInversion> inversions;
  double wall_s = 0;
  // Each cell's log (the end of logs/CELL.log, or a Slurm task's logs/TASK.log), by id: the
  // JUnit's <system-out>. Filled by ReadIndexDir; not part of index.json.
  std::map<std::string, std::string> logs;
  bool passed() const;
  int count(Outcome o) const;
};

// Orders the results, finds the stall inversions; `missing` are the ids expected but absent.
Index MakeIndex(const std::string& matrix, const std::string& name, std::vector<CellResult> cells,
                std::vector<std::string> missing, double wall_s);

// Reads DIR/cells/*.json of the cells DIR/selection.json selects into an index (for `merge`
// and `run`). A result whose run id is not the selection's ("run") is stale: that cell is an
// error naming both runs; a cell without a result is missing; both count against the run.
StatusOr<Index> ReadIndexDir(const std::string& dir);
// The merged index file and back.
std::string IndexJson(const Index& index);
StatusOr<Index> ParseIndex(const std::string& json, const std::string& path);

// The most of a cell's log the JUnit carries: its end, where the failure is.
inline constexpr size_t kLogTailBytes = 64 * 1024;
// The last kLogTailBytes of `path` ("" when it cannot be read), from a line start when one is
// near, marked when cut.
std::string LogTail(const std::string& path);
// `s` as XML text: escaped, and without what XML 1.0 cannot hold (control characters other
// than tab, newline and carriage return, U+FFFE, U+FFFF, surrogates, bytes that are not UTF-8).
std::string XmlText(const std::string& s);

std::string JUnitXml(const Index& index);
std::string MarkdownSummary(const Index& index);
// summary.md's roll-up across the cells whose performance differed (CellResult::moved): per
// instruction of a workload (its pc), in how many cells it moved and by how much, most cells
// first; the first `max_rows`. "" when no cell moved.
std::string MovedRollup(const Index& index, size_t max_rows = 30);

// Writes DIR/index.json, DIR/junit.xml and DIR/summary.md (each atomically).
Status WriteReports(const std::string& dir, const Index& index);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_REPORT_H_
