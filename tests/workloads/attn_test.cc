#include "workloads/kernels/attn.h"

#include <gtest/gtest.h>

#include "workloads/kernels/reference.h"
#include "tests/workloads/kernel_test_util.h"

namespace otpu::kernels {
namespace {

constexpr uint64_t kBase = 1 << 20;

struct AttnCase {
  const char* name;
  AttnShape shape;
  bool board = false;
};

std::vector<double> ToDouble(const std::vector<float>& v) { return {v.begin(), v.end()}; }

void PrintTo(const AttnCase& c, std::ostream* os) { *os << c.name; }

class AttnShapes : public ::testing::TestWithParam<AttnCase> {};

TEST_P(AttnShapes, MatchesTheFloat64ReferenceWithinItsBound) {
  const AttnCase& c = GetParam();
  isa::Config cfg = c.board ? isa::Config::Board() : isa::Config::Sim();
  DramLayout layout(kBase, uint32_t(cfg.D));
  StatusOr<AttnPlan> plan = PlanAttn(c.shape, cfg, &layout);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  AttnInputs in = AttnInputs::Random(plan->shape, 11);
  SparseMemory dram(cfg.DRAM_BYTES);
  PoisonKvCache(plan->core.kv, plan->shape.t, &dram);  // positions >= T must stay masked
  ASSERT_TRUE(WriteAttnInputs(*plan, in, &dram).ok());
  isa::ProgramBuilder b;
  EmitAttn(b, *plan);
  isa::Program prog = b.Finish();
  StatusOr<trace::RunEvents> run = RunOnIsa(cfg, prog, &dram);
  ASSERT_TRUE(run.ok()) << run.status().message();
  const AttnShape& s = plan->shape;
  std::vector<double> ref =
      RefAttn(s.hq, s.hkv, s.hd, s.t, ToDouble(in.q), ToDouble(in.k), ToDouble(in.v));
  double rel = RelL2(ReadAttnOutput(*plan, dram), ref);
  RecordProperty("rel_l2", std::to_string(rel));
  std::printf("[ measure  ] attn %s rel_l2 %.5f bound %.3f\n", c.name, rel, kAttnBound);
  EXPECT_LE(rel, kAttnBound);
}

INSTANTIATE_TEST_SUITE_P(
    Attn, AttnShapes,
    ::testing::Values(
        AttnCase{"one_position", {.hq = 2, .hkv = 1, .hd = 32, .t = 1}},
        AttnCase{"tail_only_t37", {.hq = 4, .hkv = 2, .hd = 64, .t = 37}},
        AttnCase{"full_tiles_t128_tt64", {.hq = 4, .hkv = 4, .hd = 32, .t = 128, .t_tile = 64}},
        AttnCase{"tiles_and_tail_t300_tt64", {.hq = 6, .hkv = 2, .hd = 96, .t = 300, .t_tile = 64}},
        AttnCase{"gqa8_t520", {.hq = 8, .hkv = 1, .hd = 128, .t = 520}},
        AttnCase{"mha_t256", {.hq = 3, .hkv = 3, .hd = 128, .t = 256}},
        AttnCase{"board_t300", {.hq = 4, .hkv = 2, .hd = 128, .t = 300}, true}),
    [](const ::testing::TestParamInfo<AttnCase>& info) { return std::string(info.param.name); });

TEST(Attn, EveryInstructionRecordsAKernelSourceLine) {
  DramLayout layout(kBase, 32);
  auto plan = PlanAttn({.hq = 4, .hkv = 2, .hd = 64, .t = 100}, isa::Config::Sim(), &layout);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  isa::ProgramBuilder b;
  EmitAttn(b, *plan);
  isa::Program prog = b.Finish();
  for (size_t pc = 0; pc + 1 < prog.size(); ++pc) {
    ASSERT_GE(prog.source[pc], 0) << "pc " << pc;
    EXPECT_EQ(prog.sources[prog.source[pc]].file, "workloads/kernels/attn.cc") << "pc " << pc;
  }
}

TEST(Attn, TileIsAMultipleOfDAtMost256) {
  EXPECT_EQ(AttnTile(2048, isa::Config::Sim()), 256);
  EXPECT_EQ(AttnTile(37, isa::Config::Sim()), 64);
  EXPECT_EQ(AttnTile(37, isa::Config::Board()), 128);
}

std::string PlanError(const AttnShape& shape, isa::Config cfg = isa::Config::Sim()) {
  DramLayout layout(kBase, uint32_t(cfg.D));
  StatusOr<AttnPlan> plan = PlanAttn(shape, cfg, &layout);
  EXPECT_FALSE(plan.ok());
  return plan.ok() ? "" : plan.status().message();
}

TEST(AttnErrors, QHeadsNotAMultipleOfKvHeads) {
  std::string e = PlanError({.hq = 6, .hkv = 4, .hd = 32, .t = 10});
  EXPECT_NE(e.find("6q/4kv"), std::string::npos) << e;
  EXPECT_NE(e.find("multiple of kv heads"), std::string::npos) << e;
}

TEST(AttnErrors, GroupLargerThanActRows) {
  std::string e = PlanError({.hq = 32, .hkv = 1, .hd = 32, .t = 10});
  EXPECT_NE(e.find("ACT_ROWS=16"), std::string::npos) << e;
}

TEST(AttnErrors, HeadDimNotAMultipleOfD) {
  std::string e = PlanError({.hq = 2, .hkv = 1, .hd = 48, .t = 10});
  EXPECT_NE(e.find("head dim 48"), std::string::npos) << e;
}

TEST(AttnErrors, TileTooWideForActRam) {
  isa::Config cfg = isa::Config::Sim();
  cfg.ACT_BLOCKS = 8;
  std::string e = PlanError({.hq = 2, .hkv = 1, .hd = 128, .t = 512}, cfg);
  EXPECT_NE(e.find("ACT_BLOCKS=8"), std::string::npos) << e;
}

TEST(AttnErrors, NoPositions) {
  EXPECT_NE(PlanError({.hq = 2, .hkv = 1, .hd = 32, .t = 0}).find("T must be >= 1"),
            std::string::npos);
}

TEST(KvCache, PrefixRoundTripsThroughTheCacheLayout) {
  isa::Config cfg = isa::Config::Sim();
  DramLayout layout(kBase, 32);
  auto kv = PlanKvCache(2, 64, 40, 32, cfg, &layout);
  ASSERT_TRUE(kv.ok()) << kv.status().message();
  EXPECT_EQ(kv->t_cap, 64u);  // room for the tail tile after 40 positions
  AttnInputs in = AttnInputs::Random({.hq = 2, .hkv = 2, .hd = 64, .t = 40}, 3);
  SparseMemory dram(cfg.DRAM_BYTES);
  ASSERT_TRUE(WriteKvPrefix(*kv, in.k, in.v, 40, &dram).ok());
  for (int j = 0; j < 2; ++j)
    for (int pos : {0, 17, 39}) {
      std::vector<float> k = ReadK(*kv, dram, j, pos), v = ReadV(*kv, dram, j, pos);
      for (int e = 0; e < 64; ++e) {
        size_t i = (size_t(j) * 40 + pos) * 64 + e;
        EXPECT_NEAR(k[e], in.k[i], 0.03) << j << " " << pos << " " << e;
        EXPECT_NEAR(v[e], in.v[i], 0.03) << j << " " << pos << " " << e;
      }
    }
}

TEST(KvCache, MaskWindowKeepsTheFirstValidPositions) {
  isa::Config cfg = isa::Config::Sim();
  DramLayout layout(kBase, 32);
  auto kv = PlanKvCache(1, 32, 100, 64, cfg, &layout);
  ASSERT_TRUE(kv.ok());
  SparseMemory dram(cfg.DRAM_BYTES);
  ASSERT_TRUE(WriteKvMask(*kv, &dram).ok());
  std::vector<float> w = ReadFloats(dram, kv->MaskWindow(5), 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(w[i], i < 5 ? 0.0f : kNegBig) << i;
}

TEST(KvCacheErrors, PrefixLongerThanTheCacheNamesBoth) {
  DramLayout layout(kBase, 32);
  auto kv = PlanKvCache(1, 32, 10, 32, isa::Config::Sim(), &layout);
  ASSERT_TRUE(kv.ok());
  SparseMemory dram(isa::Config::Sim().DRAM_BYTES);
  Status st = WriteKvPrefix(*kv, {}, {}, 11, &dram);
  EXPECT_NE(st.message().find("prefix of 11 positions, the cache holds 10"), std::string::npos)
      << st.message();
}

TEST(KvCacheErrors, TileNotAMultipleOfD) {
  DramLayout layout(kBase, 32);
  auto kv = PlanKvCache(1, 32, 10, 48, isa::Config::Sim(), &layout);
  ASSERT_FALSE(kv.ok());
  EXPECT_NE(kv.status().message().find("position tile 48"), std::string::npos);
}

}  // namespace
}  // namespace otpu::kernels
