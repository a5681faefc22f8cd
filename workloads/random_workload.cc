#include "workloads/random_workload.h"

#include <string>

#include "workloads/list.h"

namespace otpu::workloads {

RandomProgramOptions RandomWorkloadOptions(const isa::Config& cfg, uint64_t seed) {
  RandomProgramOptions o;
  o.seed = seed;
  // Enough segments that most programs hold every kind and a few loops, few enough that a
  // cell stays a second or two on the board model.
  o.segments = 40;
  // VOP three times: it has 70 forms (fn x B mode) where the others have a handful.
  o.kinds = {isa::Opcode::kLD,   isa::Opcode::kST,  isa::Opcode::kMM,  isa::Opcode::kQACT,
             isa::Opcode::kQST, isa::Opcode::kVOP, isa::Opcode::kVOP, isa::Opcode::kVOP};
  // Regions scale with D so MM's weight rows (k >= D bytes) still fit the small variant.
  const uint32_t d = uint32_t(cfg.D);
  const bool crowded = seed % 3 == 0;
  o.tmem_words = crowded ? 160 : 2048;
  o.dram_bytes = crowded ? 24 * d : 512 * d;
  o.dram_base = kImageBase;
  // Toward the coverage model's edges; a crowded program also crowds the ACT RAM.
  o.edges = true;
  o.act_blocks = crowded ? 4 : 0;
  return o;
}

namespace {

// The workload `name` of program `p` (generated with `o` for `seed`): the seed's data in its
// DRAM region, one traced step with the program's ARGs, the region as the outputs, and a check
// that reports `what` (" (N instructions)" is added after the name and seed).
StatusOr<WorkloadRun> WorkloadOf(const isa::Config& cfg, const std::string& name, uint64_t seed,
                                 const RandomProgramOptions& o, RandomProgram p,
                                 const std::string& what) {
  if (p.code.size() > cfg.IMEM_WORDS) {
    return InvalidArgument(name + " program of seed " + std::to_string(seed) + " has " +
                           std::to_string(p.code.size()) + " instructions, IMEM holds " +
                           std::to_string(cfg.IMEM_WORDS));
  }
  WorkloadRun run;
  run.name = name;
  run.config = cfg;
  run.image = SparseMemory(cfg.DRAM_BYTES);
  FillRandomDram(seed, o.dram_bytes, &run.image, o.dram_base);
  run.program.code = std::move(p.code);
  run.program.source.assign(run.program.code.size(), -1);
  run.program.comment.assign(run.program.code.size(), "");
  run.steps = {Step{.args = p.args, .traced = true}};
  run.outputs = {{o.dram_base, o.dram_bytes}};
  const std::string detail = name + " program of seed " + std::to_string(seed) + " (" +
                             std::to_string(run.program.size()) + " instructions)" + what;
  run.check = [detail](const SparseMemory&) { return CheckReport{0, 0, detail}; };
  return run;
}

}  // namespace

StatusOr<WorkloadRun> MakeRandomWorkload(const isa::Config& cfg, uint64_t seed) {
  const RandomProgramOptions o = RandomWorkloadOptions(cfg, seed);
  return WorkloadOf(cfg, "random", seed, o, MakeRandomProgram(cfg, o),
                    ": no float64 reference, the ISA simulator is the judge");
}

StatusOr<WorkloadRun> MakeRandomIllegalWorkload(const isa::Config& cfg, uint64_t seed) {
  RandomProgramOptions o = RandomWorkloadOptions(cfg, seed);
  o.segments = 8;  // a short legal prefix: the cell is about its end
  RandomProgram p = MakeRandomProgram(cfg, o);
  std::string fault;
  const int kind = int(seed % uint64_t(IllegalKindCount()));
  p.code = EndInIllegal(cfg, std::move(p.code), kind, &fault);
  return WorkloadOf(cfg, "random-illegal", seed, o, std::move(p),
                    " ends in " + fault + " (kind " + std::to_string(kind) + ")");
}

}  // namespace otpu::workloads
