#include "workloads/random_program.h"

#include <gtest/gtest.h>

#include "sim/isa/isa_sim.h"

namespace otpu::workloads {
namespace {

using isa::Opcode;

RandomProgramOptions Everything(uint64_t seed) {
  RandomProgramOptions o;
  o.seed = seed;
  o.kinds = {Opcode::kLD, Opcode::kST, Opcode::kMM, Opcode::kQACT, Opcode::kQST, Opcode::kVOP};
  return o;
}

StatusOr<trace::RunEvents> RunOnIsa(const RandomProgram& p, SparseMemory* dram) {
  sim::IsaSim isa(isa::Config::Sim(), dram);
  RETURN_IF_ERROR(isa.LoadProgram(p.code));
  sim::IsaRunOptions opts;
  opts.args = p.args;
  return isa.Run(opts);
}

TEST(RandomProgram, ProgramsAreLegalOnTheIsaSimulator) {
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    RandomProgramOptions o = Everything(seed);
    if (seed % 2 == 0) {
      o.tmem_words = 160;
      o.dram_bytes = 768;
    }
    RandomProgram p = MakeRandomProgram(isa::Config::Sim(), o);
    SparseMemory dram(isa::Config::Sim().DRAM_BYTES);
    StatusOr<trace::RunEvents> r = RunOnIsa(p, &dram);
    ASSERT_TRUE(r.ok()) << "seed " << seed << ": " << r.status().message() << "\n"
                        << Listing(p.code);
  }
}

TEST(RandomProgram, UsesEveryKindAndLoops) {
  std::map<int, int> seen;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    for (const isa::Instr& in : MakeRandomProgram(isa::Config::Sim(), Everything(seed)).code) {
      ++seen[in.opcode()];
    }
  }
  for (Opcode op : {Opcode::kLD, Opcode::kST, Opcode::kMM, Opcode::kQACT, Opcode::kQST,
                    Opcode::kVOP, Opcode::kLOOP, Opcode::kLI, Opcode::kADDI}) {
    EXPECT_GT(seen[int(op)], 0) << isa::OpcodeName(op);
  }
}

TEST(RandomProgram, SameSeedSameProgram) {
  EXPECT_EQ(MakeRandomProgram(isa::Config::Sim(), Everything(9)).code,
            MakeRandomProgram(isa::Config::Sim(), Everything(9)).code);
}

TEST(RandomProgram, InjectedFaultsMakeMostProgramsIllegal) {
  int illegal = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    RandomProgram p = MakeRandomProgram(isa::Config::Sim(), Everything(seed));
    std::string what;
    p.code = InjectFault(isa::Config::Sim(), p.code, seed, &what);
    EXPECT_FALSE(what.empty());
    SparseMemory dram(isa::Config::Sim().DRAM_BYTES);
    illegal += !RunOnIsa(p, &dram).ok();
  }
  EXPECT_GT(illegal, 45);  // a fault inside a loop that runs 0 times is never reached
}

}  // namespace
}  // namespace otpu::workloads

namespace otpu::workloads {
namespace {

// A DRAM base moves the DRAM operands only: the same rng draws give the same instructions.
TEST(RandomProgram, DramBaseKeepsTheProgramsShape) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RandomProgramOptions o = Everything(seed);
    const RandomProgram at0 = MakeRandomProgram(isa::Config::Sim(), o);
    o.dram_base = uint64_t{1} << 20;
    const RandomProgram moved = MakeRandomProgram(isa::Config::Sim(), o);
    ASSERT_EQ(at0.code.size(), moved.code.size()) << "seed " << seed;
    for (size_t pc = 0; pc < at0.code.size(); ++pc) {
      EXPECT_EQ(at0.code[pc].opcode(), moved.code[pc].opcode()) << "seed " << seed << " pc " << pc;
    }
    SparseMemory dram(isa::Config::Sim().DRAM_BYTES);
    EXPECT_TRUE(RunOnIsa(moved, &dram).ok()) << "seed " << seed;
  }
}

}  // namespace
}  // namespace otpu::workloads
