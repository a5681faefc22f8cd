// The foundation's kernels on the RTL: the same DRAM and TMEM bytes as the ISA simulator, with
// the ideal and the stalling memory. Each run prints its cycles and the model's speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>

#include "sim/isa/isa_sim.h"
#include "sim/rtl/rtl_harness.h"
#include "workloads/kernels/attn.h"
#include "workloads/kernels/mlp.h"
#include "workloads/kernels/quantize.h"
#include "workloads/list.h"

namespace otpu::rtl {
namespace {

constexpr uint64_t kBase = uint64_t{1} << 20;

struct Kernel {
  explicit Kernel(const isa::Config& c = BuiltConfig()) : cfg(c), image(c.DRAM_BYTES) {}
  isa::Config cfg;  // a built RTL configuration: its Verilated core runs the kernel
  isa::Program program;
  SparseMemory image;
  std::array<uint32_t, 8> args{};
};

Kernel Mlp(isa::WFormat wf, const isa::Config& cfg = BuiltConfig()) {
  Kernel k(cfg);
  kernels::DramLayout dram(kBase, uint32_t(cfg.D));
  // 4-bit weights need H to be a multiple of 2·D (256 on the board configuration).
  const int h = wf == isa::WFormat::kINT8 ? 128 : std::max(128, 2 * cfg.D);
  const kernels::MlpShape shape{.m = 3, .h = h, .f = 256, .wf = wf};
  StatusOr<kernels::MlpPlan> plan = kernels::PlanMlp(shape, cfg, &dram);
  OTPU_CHECK(plan.ok());
  std::vector<float> x(size_t(shape.m) * shape.h);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(int(i % 23) - 11) / 8.0f;
  OTPU_CHECK(kernels::WriteMlpWeights(*plan, kernels::MlpWeights::Random(shape, 1), &k.image).ok());
  OTPU_CHECK(kernels::WriteMlpInput(*plan, x, &k.image).ok());
  isa::ProgramBuilder b;
  kernels::EmitMlp(b, *plan);
  k.program = b.Finish();
  return k;
}

Kernel Attn(const isa::Config& cfg = BuiltConfig()) {
  Kernel k(cfg);
  kernels::DramLayout dram(kBase, uint32_t(cfg.D));
  const kernels::AttnShape shape{.hq = 4, .hkv = 2, .hd = 128, .t = 128};
  StatusOr<kernels::AttnPlan> plan = kernels::PlanAttn(shape, cfg, &dram);
  OTPU_CHECK(plan.ok());
  OTPU_CHECK(
      kernels::WriteAttnInputs(*plan, kernels::AttnInputs::Random(shape, 2), &k.image).ok());
  isa::ProgramBuilder b;
  kernels::EmitAttn(b, *plan);
  k.program = b.Finish();
  return k;
}

// The layer workload (attention block of Qwen3-0.6B's shape): its image with the first step's
// host writes applied, and that step's ARG values.
Kernel Layer() {
  StatusOr<workloads::WorkloadRun> run = workloads::MakeWorkload("layer", BuiltConfig());
  OTPU_CHECK(run.ok());
  OTPU_CHECK(!run->steps.empty());
  Kernel k;
  k.program = run->program;
  k.image = run->image;
  for (const workloads::DramWrite& w : run->steps[0].writes) {
    k.image.Write(w.addr, w.bytes.data(), w.bytes.size());
  }
  k.args = run->steps[0].args;
  return k;
}

// Runs the kernel on both models and compares every byte of DRAM and TMEM; the RTL's cycles.
void ExpectParityInto(const Kernel& k, const char* name, const DramOptions& mem, int64_t* cycles) {
  const isa::Config& cfg = k.cfg;
  SparseMemory isa_dram = k.image;
  sim::IsaSim isa(cfg, &isa_dram);
  ASSERT_TRUE(isa.LoadProgram(k.program).ok());
  sim::IsaRunOptions isa_opts;
  isa_opts.args = k.args;
  StatusOr<trace::RunEvents> want = isa.Run(isa_opts);
  ASSERT_TRUE(want.ok()) << want.status().message();

  SparseMemory rtl_dram = k.image;
  auto h = RtlHarness::Create(cfg);
  ASSERT_TRUE(h.ok());
  ASSERT_TRUE((*h)->LoadProgram(k.program).ok());
  RtlRunOptions opts;
  opts.mem = mem;
  opts.args = k.args;
  StatusOr<RtlRun> got = (*h)->Run(&rtl_dram, opts);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->stop, Stop::kHalt) << got->error;
  std::printf("%s (%s, %s): %lld cycles (ISA nominal %lld), %.0f kcycles/s\n", name,
              cfg.name.c_str(), opts.mem.Name().c_str(), static_cast<long long>(got->events.cycles),
              static_cast<long long>(want->cycles), double(got->events.cycles) / got->seconds / 1e3);

  EXPECT_EQ(rtl_dram.FirstDifference(isa_dram), -1);
  const std::vector<uint32_t> tmem = (*h)->ReadTmem(0, cfg.TMEM_WORDS);
  int differ = 0;
  for (uint32_t a = 0; a < cfg.TMEM_WORDS; ++a) differ += tmem[a] != isa.tmem()[a];
  EXPECT_EQ(differ, 0) << "TMEM words differ";
  EXPECT_EQ(got->events.instrs.size(), want->instrs.size());

  // The RTL moves exactly the cost model's transfers (docs/isa.md "Cost model").
  std::array<int64_t, 4> nominal{};  // bmxu bdma amxu aq
  for (const trace::InstrEvent& e : got->events.instrs) {
    switch (static_cast<isa::Opcode>(e.resolved.opcode())) {
      case isa::Opcode::kMM: nominal[0] += e.port_b, nominal[2] += e.port_a; break;
      case isa::Opcode::kLD:
      case isa::Opcode::kST: nominal[1] += e.port_b; break;
      case isa::Opcode::kQST: nominal[3] += e.port_a; break;
      default: break;
    }
  }
  EXPECT_EQ(got->ports, nominal);
  *cycles = got->events.cycles;
}

int64_t ExpectParity(const Kernel& k, const char* name, const DramOptions& mem) {
  int64_t cycles = -1;
  ExpectParityInto(k, name, mem, &cycles);
  return cycles;
}

DramOptions Stall(int percent) {
  DramOptions mem;
  mem.stall_percent = percent;
  return mem;
}

DramOptions Axi(int latency, int stall) {
  DramOptions mem;
  mem.axi = true;
  mem.latency = latency;
  mem.stall_percent = stall;
  return mem;
}

TEST(RtlKernels, MlpSmallInt8MatchesIsa) {
  ExpectParity(Mlp(isa::WFormat::kINT8), "mlp-small", {});
}

TEST(RtlKernels, MlpSmallInt4MatchesIsaWithStalls) {
  ExpectParity(Mlp(isa::WFormat::kINT4), "mlp-small int4", Stall(30));
}

TEST(RtlKernels, MlpSmallFp4MatchesIsa) {
  ExpectParity(Mlp(isa::WFormat::kFP4), "mlp-small fp4", {});
}

TEST(RtlKernels, AttnMatchesIsa) { ExpectParity(Attn(), "attn 4q/2kv t=128", {}); }

TEST(RtlKernels, AttnMatchesIsaWithStalls) {
  ExpectParity(Attn(), "attn 4q/2kv t=128", Stall(30));
}

TEST(RtlKernels, MlpSmallOnTheAxiMemoryMatchesIsaAndSlowsWithLatency) {
  const Kernel k = Mlp(isa::WFormat::kINT8);
  const int64_t fast = ExpectParity(k, "mlp-small", Axi(4, 0));
  const int64_t slow = ExpectParity(k, "mlp-small", Axi(64, 0));
  EXPECT_GT(fast, 0);
  EXPECT_GT(slow, fast);
}

TEST(RtlKernels, AttnOnTheStallingAxiMemoryMatchesIsa) {
  EXPECT_GT(ExpectParity(Attn(), "attn 4q/2kv t=128", Axi(16, 20)), 0);
}

TEST(RtlKernels, LayerMatchesIsa) { ExpectParity(Layer(), "layer", {}); }

// The card's configuration (D=128, MCOLS=2), built alongside.
TEST(RtlKernelsBoardConfig, MlpSmallInt8MatchesIsa) {
  ExpectParity(Mlp(isa::WFormat::kINT8, isa::Config::Board()), "mlp-small", {});
}

TEST(RtlKernelsBoardConfig, MlpSmallInt4MatchesIsaWithStalls) {
  ExpectParity(Mlp(isa::WFormat::kINT4, isa::Config::Board()), "mlp-small int4", Stall(30));
}

TEST(RtlKernelsBoardConfig, MlpSmallFp4OnTheStallingAxiMemoryMatchesIsa) {
  ExpectParity(Mlp(isa::WFormat::kFP4, isa::Config::Board()), "mlp-small fp4", Axi(16, 20));
}

TEST(RtlKernelsBoardConfig, AttnMatchesIsaWithStalls) {
  ExpectParity(Attn(isa::Config::Board()), "attn 4q/2kv t=128", Stall(30));
}

}  // namespace
}  // namespace otpu::rtl
