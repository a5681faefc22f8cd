// The regression matrix (docs/regress.md "Matrix"): a checked-in JSON file whose cells are
// workload (with its options) x RTL configuration x memory x transport x seed. Each cell has a
// stable id and a seed derived from the matrix's base seed and that id, so any cell reproduces
// on its own.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_MATRIX_H_
#define OTPU_HOST_PROGRAMS_REGRESS_MATRIX_H_

#include <cstdint>
#include <string>
#include <vector>

#include "sim/rtl/dram_model.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/defs.h"

namespace otpu::regress {

// A cell's DRAM: "ideal", "stall N", "axi" or "axi stall N" (SPEC 3.5; sim/rtl/dram_model.h).
struct Memory {
  bool axi = false;
  int stall = 0;  // percent of cycles ready is withheld (seeded)
  // "ideal", "stall 20", "axi", "axi stall 20": the profile's config.MEM.
  std::string Name() const;
  // "ideal", "stall20", "axi", "axi-stall20": the form used in cell ids.
  std::string IdPart() const;
};
// Parses a memory name; InvalidArgument naming it otherwise.
StatusOr<Memory> ParseMemory(const std::string& text);

// Matrix-wide DRAM timing (not part of cell ids: changing it changes results, not names).
struct DramTiming {
  int latency = -1;             // read latency, cycles (-1: the model's default)
  int queue_beats = -1;         // axi: backlog per channel above which ready is withheld
  double beats_per_cycle = -1;  // axi: bandwidth cap per channel
};

struct Cell {
  int index = 0;          // position in the expanded matrix (stable for a given file)
  std::string id;         // "qwen-tiny+pos2/board/axi-stall20/card/s0"
  std::string workload;   // a name from `lens list`
  int pos = -1;           // --pos (-1: the workload's default)
  isa::WFormat wf = isa::WFormat::kINT8;
  std::string config;     // "sim" or "board"
  Memory memory;
  std::string transport;  // "sim" (the board model in process) or "card" (otpu-xdma-emu)
  int seed_index = 0;
  uint64_t seed = 0;      // the DRAM model's seed: from the base seed and the id
  // The random workload's program and data seed ("random+seed3/..."); 0 for the others.
  uint64_t program_seed = 0;
  // The id with '/' as '.', for file names.
  std::string FileName() const;
};

struct Matrix {
  std::string path;  // where it was read from
  std::string name;
  std::string description;
  uint64_t base_seed = 1;
  DramTiming dram;
  double timeout_s = 1800;  // per cell run on the board
  std::vector<Cell> cells;
  // The DRAM model options of `cell` (its memory, seed and the matrix's timing).
  rtl::DramOptions DramOf(const Cell& cell) const;
};

// Reads and expands a matrix file. InvalidArgument naming the file and the field for a bad one
// (unknown workload, configuration, memory or transport, duplicate cell ids, unknown keys).
StatusOr<Matrix> ReadMatrix(const std::string& path);
StatusOr<Matrix> ParseMatrix(const std::string& json, const std::string& path);

// The ISA configuration named "sim" or "board" (SPEC 3.1).
StatusOr<isa::Config> ConfigNamed(const std::string& name);

// Which cells of `m` to run: those whose id matches `only` (a PCRE2 regex, "" = all: see
// cell_filter.h for its bounds) and
// that fall in shard `shard` of `shards` (1-based; by a hash of the id, so a cell stays in its
// shard when others are added). InvalidArgument for a bad regex or shard.
StatusOr<std::vector<Cell>> SelectCells(const Matrix& m, const std::string& only, int shard,
                                        int shards);

// A 64-bit hash of `text` (seeds, shards, cache keys).
uint64_t Hash64(const std::string& text);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_MATRIX_H_
