// The ISA functional-coverage model of the regression (docs/regress.md "Coverage"): a fixed
// list of bins (every legal opcode x weight format x broadcast mode x predicate, edge shapes,
// hazards per kind, space and distance, a full dispatch window, a DRAM stall during each
// unit's transfer), which bins a cell hit, and the merge of a run's cells into coverage.json.
//
// A cell's bins come from what it ran, exactly: the instructions the ISA simulator executed
// (resolved operands, dispatch order: opcode, flags, shapes and hazards), the program
// (sequencer opcodes) and the core's per-cycle events of the board run (window occupancy by
// slot, the DRAM ports' wait bits against the instruction each unit has in flight).
#ifndef OTPU_HOST_PROGRAMS_REGRESS_FUNC_COVERAGE_H_
#define OTPU_HOST_PROGRAMS_REGRESS_FUNC_COVERAGE_H_

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "host/programs/regress/cell_result.h"
#include "sim/rtl/core_cycle.h"
#include "workloads/isa/config.h"
#include "workloads/isa/instr.h"
#include "workloads/isa/program.h"

namespace otpu::regress {

// One bin of the model: "group/name", e.g. "op/VOP.ADD.ROW", "hazard/RAW.TMEM.d1".
struct CoverageBin {
  std::string group;  // op, shape, hazard, window, stall
  std::string name;   // the full name, group prefix included
  std::string what;   // one line: what hits it
};

// Every bin of the model, in report order. The same for every configuration (shapes are
// named relative to D, LANES, MCOLS and the ACT RAM).
const std::vector<CoverageBin>& FunctionalBins();

// The bins one cell hit.
class FunctionalCoverage {
 public:
  explicit FunctionalCoverage(const isa::Config& cfg) : cfg_(cfg) {}
  // Opcodes of the sequencer instructions of `prog` (NOP HALT LI ADDI LOOP: they have no
  // unit, so they are taken from the program the cell loaded).
  void AddProgram(const isa::Program& prog);
  // One run's unit instructions as the ISA simulator executed them, in dispatch order
  // (w1..w3 = effective operands): opcode bins, shapes, and hazards between each instruction
  // and the up to WIN-1 unit instructions before it.
  void AddRun(const std::vector<isa::Instr>& resolved);
  // Hits `bin`, which must be one of FunctionalBins() (a check: the names are this file's).
  void Hit(const std::string& bin);
  const std::set<std::string>& hit() const { return hit_; }

 private:
  void AddShapes(const isa::Instr& in);
  isa::Config cfg_;
  std::set<std::string> hit_;
};

// The per-cycle half of the model, attached to the board model as a hook: the window full
// (every one of WIN slots holds an instruction) and a DRAM stall (the port's wait bit) while
// exactly one unit instruction that uses that port is in flight, per unit and transfer.
class CoverageHook : public rtl::ClockHook {
 public:
  // `cov` is borrowed and must outlive the hook.
  CoverageHook(const isa::Config& cfg, FunctionalCoverage* cov) : cfg_(cfg), cov_(cov) {}
  void OnRunStart() override;
  void OnClock(const rtl::CoreCycle& c) override;

 private:
  isa::Config cfg_;
  FunctionalCoverage* cov_;
  std::array<uint8_t, 16> slot_op_{};   // opcode of the instruction in each slot
  std::array<bool, 16> slot_full_{};
  std::array<uint8_t, 16> slot_flags_{};
  std::array<int, 16> running_{};       // slot started and not ended (per slot)
  bool full_seen_ = false;
  uint32_t stalls_seen_ = 0;            // bit per stall bin already hit
};

// The bins of a run, merged from its cells' results: per bin how many cells hit it and the
// first of them (cells without coverage, e.g. errors, are not counted).
struct CoverageSummary {
  struct Row {
    const CoverageBin* bin = nullptr;
    int cells = 0;
    std::string first_cell;
  };
  std::vector<Row> rows;  // FunctionalBins() order
  int cells = 0;          // cells that reported coverage
  int hit() const;
  double percent() const;
};
CoverageSummary MergeCoverage(const std::vector<CellResult>& cells);
// coverage.json (docs/regress.md "Coverage").
std::string CoverageJson(const CoverageSummary& s);
// The summary.md section: a table per group and the bins never hit.
std::string CoverageMarkdown(const CoverageSummary& s);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_FUNC_COVERAGE_H_
