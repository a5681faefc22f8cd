// Random programs on the RTL and on the ISA simulator (the golden model): both must leave the
// same DRAM, TMEM and ACT RAM bytes, and an illegal program must stop at the same pc for the
// same reason. OTPU_RTL_SEEDS=N runs N seeds per case instead of the default.
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "sim/isa/checks.h"
#include "sim/isa/isa_sim.h"
#include "workloads/random_program.h"
#include "sim/rtl/rtl_harness.h"
#include "workloads/isa/disasm.h"

namespace otpu::rtl {
namespace {

using isa::Opcode;
using workloads::FillRandomDram;
using workloads::InjectFault;
using workloads::Listing;
using workloads::MakeRandomProgram;
using workloads::RandomProgram;
using workloads::RandomProgramOptions;

int Seeds(int fallback) {
  const char* env = std::getenv("OTPU_RTL_SEEDS");
  return env != nullptr ? std::atoi(env) : fallback;
}

// OTPU_RTL_SEED=N runs only seed N of each case (to reproduce a failure).
bool OnlySeed(uint64_t* seed) {
  const char* env = std::getenv("OTPU_RTL_SEED");
  if (env == nullptr) return false;
  *seed = std::strtoull(env, nullptr, 10);
  return true;
}

// The RTL's timeline, one line per unit instruction, for failure messages.
std::string Timeline(const trace::RunEvents& ev) {
  std::string out = "idx pc unit dispatch ready start release end\n";
  for (const trace::InstrEvent& e : ev.instrs) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "%lld %u %d %lld %lld %lld %lld %lld ",
                  static_cast<long long>(e.idx), e.pc, int(e.unit),
                  static_cast<long long>(e.dispatch), static_cast<long long>(e.ready),
                  static_cast<long long>(e.start), static_cast<long long>(e.release),
                  static_cast<long long>(e.end));
    constexpr uint32_t kZeroRegs[isa::kNumRegs] = {};
    out += buf + isa::Disassemble(e.resolved, kZeroRegs) + "\n";
  }
  return out;
}

// Every unit instruction kind.
std::vector<Opcode> AllKinds() {
  return {Opcode::kLD, Opcode::kST, Opcode::kVOP, Opcode::kQACT, Opcode::kQST, Opcode::kMM};
}

struct Case {
  isa::Config cfg = BuiltConfig();  // a built RTL configuration: its Verilated core runs
  RandomProgramOptions gen;
  int stall = 0;          // memory stall percent (0: ideal)
  bool fault = false;     // inject one illegal instruction
  bool full_tmem = false; // compare all of TMEM, not only the program's region
};

// Runs one random program on both models; "" when they agree, else what differs. `cause`
// receives the ISA simulator's error class (0 when the program halted).
std::string Compare(const Case& c, int* cause) {
  *cause = 0;
  const isa::Config& cfg = c.cfg;
  RandomProgram p = MakeRandomProgram(cfg, c.gen);
  std::string fault;
  if (c.fault) p.code = InjectFault(cfg, p.code, c.gen.seed * 7919 + 1, &fault);
  SparseMemory image(cfg.DRAM_BYTES);
  FillRandomDram(c.gen.seed, c.gen.dram_bytes, &image);
  std::string where = cfg.name + " seed " + std::to_string(c.gen.seed) + " stall " +
                            std::to_string(c.stall) + (c.fault ? " fault " + fault : "") +
                            "\n" + Listing(p.code);

  SparseMemory isa_dram = image;
  sim::IsaSim isa(cfg, &isa_dram);
  if (Status st = isa.LoadProgram(p.code); !st.ok()) return st.message();
  sim::IsaRunOptions io;
  io.args = p.args;
  StatusOr<trace::RunEvents> want = isa.Run(io);

  SparseMemory rtl_dram = image;
  auto h = RtlHarness::Create(cfg);
  if (!h.ok()) return h.status().message();
  if (Status st = (*h)->LoadProgram(p.code); !st.ok()) return st.message();
  RtlRunOptions ro;
  ro.args = p.args;
  ro.mem.stall_percent = c.stall;
  ro.mem.seed = c.gen.seed;
  ro.max_cycles = 1000000;
  StatusOr<RtlRun> got = (*h)->Run(&rtl_dram, ro);
  if (!got.ok()) return "RTL run failed: " + got.status().message() + "\n" + where;
  where += Timeline(got->events);

  if (want.ok()) {
    if (got->stop != Stop::kHalt) {
      return std::string("RTL stopped with ") + StopName(got->stop) + " (" + got->error +
             "), the ISA simulator halted\n" + where;
    }
    if (got->events.instrs.size() != want->instrs.size()) {
      return "RTL ran " + std::to_string(got->events.instrs.size()) +
             " unit instructions, the ISA simulator " + std::to_string(want->instrs.size()) +
             "\n" + where;
    }
    for (size_t i = 0; i < want->instrs.size(); ++i) {
      const trace::InstrEvent& a = got->events.instrs[i];
      const trace::InstrEvent& b = want->instrs[i];
      if (a.pc != b.pc || !(a.resolved == b.resolved)) {
        return "unit instruction " + std::to_string(i) + " differs: RTL pc " +
               std::to_string(a.pc) + ", ISA pc " + std::to_string(b.pc) + "\n" + where;
      }
    }
    if (got->events.retired != want->retired) {
      return "retired " + std::to_string(got->events.retired) + " vs ISA " +
             std::to_string(want->retired) + "\n" + where;
    }
  } else {
    const std::string& msg = want.status().message();
    const uint32_t pc = uint32_t(std::stoul(msg.substr(3)));
    *cause = sim::ErrorCauseOf(msg);
    if (got->stop != Stop::kError || got->error_pc != pc ||
        got->error_cause != sim::ErrorCauseOf(msg)) {
      return std::string("ISA: ") + msg + "; RTL: " + StopName(got->stop) + " " + got->error +
             " (cause " + std::to_string(got->error_cause) + ")\n" + where;
    }
  }

  if (const int64_t at = rtl_dram.FirstDifference(isa_dram); at >= 0) {
    return "DRAM differs at 0x" + std::to_string(at) + ": RTL " +
           std::to_string(rtl_dram.Read8(uint64_t(at))) + ", ISA " +
           std::to_string(isa_dram.Read8(uint64_t(at))) + "\n" + where;
  }
  const uint32_t words = c.full_tmem ? cfg.TMEM_WORDS : c.gen.tmem_words;
  const std::vector<uint32_t> tmem = (*h)->ReadTmem(0, words);
  std::string tdiff;
  int ndiff = 0;
  for (uint32_t a = 0; a < words; ++a) {
    if (tmem[a] != isa.tmem()[a] && ndiff++ < 8) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "TMEM[%u] differs: RTL 0x%08x, ISA 0x%08x\n", a, tmem[a],
                    isa.tmem()[a]);
      tdiff += buf;
    }
  }
  if (ndiff > 0) return tdiff + std::to_string(ndiff) + " TMEM words differ\n" + where;
  {
    sim::ActRam act(cfg);
    (*h)->ReadActRam(&act);
    for (int r = 0; r < cfg.ACT_ROWS; ++r) {
      for (int b = 0; b < cfg.ACT_BLOCKS; ++b) {
        const bool same =
            std::memcmp(act.Block(r, b), isa.act_ram().Block(r, b), size_t(cfg.D)) == 0 &&
            std::bit_cast<uint32_t>(act.Scale(r, b)) ==
                std::bit_cast<uint32_t>(isa.act_ram().Scale(r, b));
        if (!same) {
          return "ACT RAM row " + std::to_string(r) + " block " + std::to_string(b) +
                 " differs\n" + where;
        }
      }
    }
  }
  return "";
}

// Runs `seeds` seeds of a case and reports the first disagreement; returns the error classes
// the ISA simulator raised.
std::set<int> ExpectParity(Case c, int seeds, uint64_t first_seed) {
  std::set<int> causes;
  if (OnlySeed(&first_seed)) seeds = 1;
  for (int i = 0; i < seeds; ++i) {
    c.gen.seed = first_seed + uint64_t(i);
    int cause = 0;
    const std::string diff = Compare(c, &cause);
    EXPECT_EQ(diff, "");
    if (!diff.empty()) break;
    causes.insert(cause);
  }
  return causes;
}

Case DmaOnly() {
  Case c;
  c.gen.kinds = {Opcode::kLD, Opcode::kST};
  return c;
}

// Every kind over a small TMEM/DRAM region: every unit fights over the same words.
Case Hazard() {
  Case c;
  c.gen.kinds = AllKinds();
  c.gen.tmem_words = 160;
  c.gen.dram_bytes = 768;
  c.gen.segments = 24;
  return c;
}

TEST(RtlParity, DmaProgramsMatchIsa) { ExpectParity(DmaOnly(), Seeds(40), 1000); }

TEST(RtlParity, DmaProgramsMatchIsaWithStalls) {
  Case c = DmaOnly();
  c.stall = 30;
  ExpectParity(c, Seeds(30), 2000);
}

TEST(RtlParity, AllKindsMatchIsa) {
  Case c;
  c.gen.kinds = AllKinds();
  c.full_tmem = true;
  ExpectParity(c, Seeds(20), 3000);
}

TEST(RtlParity, HazardProgramsMatchIsa) { ExpectParity(Hazard(), Seeds(40), 4000); }

TEST(RtlParity, HazardProgramsMatchIsaWithStalls) {
  Case c = Hazard();
  c.stall = 40;
  ExpectParity(c, Seeds(30), 5000);
}

TEST(RtlParity, IllegalProgramsStopAtIsaPc) {
  Case c;
  c.gen.kinds = AllKinds();
  c.gen.segments = 10;
  c.fault = true;
  const std::set<int> causes = ExpectParity(c, Seeds(60), 6000);
  EXPECT_GE(causes.size(), 10u) << "the injected faults should reach most error classes";
}

// The card's configuration (D=128, MCOLS=2) in the same build: fewer seeds, the same checks.
Case OnBoard(Case c) {
  c.cfg = isa::Config::Board();
  return c;
}

TEST(RtlParityBoardConfig, AllKindsMatchIsa) {
  Case c;
  c.gen.kinds = AllKinds();
  c.full_tmem = true;
  ExpectParity(OnBoard(c), Seeds(6), 13000);
}

TEST(RtlParityBoardConfig, HazardProgramsMatchIsaWithStalls) {
  Case c = Hazard();
  c.stall = 40;
  ExpectParity(OnBoard(c), Seeds(10), 15000);
}

TEST(RtlParityBoardConfig, IllegalProgramsStopAtIsaPc) {
  Case c;
  c.gen.kinds = AllKinds();
  c.gen.segments = 10;
  c.fault = true;
  const std::set<int> causes = ExpectParity(OnBoard(c), Seeds(30), 16000);
  EXPECT_GE(causes.size(), 8u) << "the injected faults should reach most error classes";
}

}  // namespace
}  // namespace otpu::rtl
