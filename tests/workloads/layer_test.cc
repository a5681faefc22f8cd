#include "workloads/kernels/layer.h"

#include <gtest/gtest.h>

#include <random>

#include "workloads/kernels/reference.h"
#include "tests/workloads/kernel_test_util.h"

namespace otpu::kernels {
namespace {

constexpr uint64_t kBase = 1 << 20;

std::vector<float> RandomNormal(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

struct LayerCase {
  const char* name;
  LayerShape shape;
  int prefix = 0;  // positions the host fills before the first step
  int steps = 1;   // decode steps run by the program, at prefix, prefix+1, ...
  bool board = false;
};

void PrintTo(const LayerCase& c, std::ostream* os) { *os << c.name; }

// Runs `c.steps` decode steps on one simulator and checks each step's y and its KV append.
class LayerShapes : public ::testing::TestWithParam<LayerCase> {};

TEST_P(LayerShapes, MatchesTheFloat64ReferenceAtEveryStep) {
  const LayerCase& c = GetParam();
  isa::Config cfg = c.board ? isa::Config::Board() : isa::Config::Sim();
  DramLayout layout(kBase, uint32_t(cfg.D));
  StatusOr<LayerPlan> plan = PlanLayer(c.shape, cfg, c.steps, &layout);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  const LayerShape& s = plan->shape;
  LayerWeights w = LayerWeights::Random(s, 5);
  SparseMemory dram(cfg.DRAM_BYTES);
  ASSERT_TRUE(WriteLayerWeights(*plan, w, &dram).ok());
  const size_t prefix = size_t(s.hkv) * c.prefix * s.hd;
  std::vector<float> k = RandomNormal(prefix, 6), v = RandomNormal(prefix, 7);
  PoisonKvCache(plan->core.kv, c.prefix, &dram);  // positions past each step must stay masked
  ASSERT_TRUE(WriteKvPrefix(plan->core.kv, k, v, c.prefix, &dram).ok());
  RefKvCache cache(s.hkv, s.hd);
  cache.AppendPrefix(k, v, c.prefix);

  std::vector<std::vector<float>> xs;
  std::vector<std::array<uint32_t, 8>> args;
  for (int i = 0; i < c.steps; ++i) {
    xs.push_back(RandomNormal(size_t(s.h), 100 + i));
    ASSERT_TRUE(WriteLayerInput(*plan, i, xs.back(), &dram).ok());
    auto a = LayerArgs(*plan, c.prefix + i, i);
    ASSERT_TRUE(a.ok()) << a.status().message();
    args.push_back(*a);
  }
  isa::ProgramBuilder b;
  EmitLayer(b, *plan);
  isa::Program prog = b.Finish();
  StatusOr<trace::RunEvents> run = RunOnIsa(cfg, prog, &dram, args);
  ASSERT_TRUE(run.ok()) << run.status().message();

  for (int i = 0; i < c.steps; ++i) {
    std::vector<double> ref = RefLayerStep(s, w, xs[i], &cache);
    double rel = RelL2Delta(ReadLayerOutput(*plan, dram, i), ref, xs[i]);
    std::printf("[ measure  ] layer %s pos %d rel_l2 %.5f bound %.3f\n", c.name, c.prefix + i,
                rel, LayerBound(s.wf));
    EXPECT_LE(rel, LayerBound(s.wf)) << "pos " << c.prefix + i;
    // The program's own append: the K row and V column of this position.
    const int pos = c.prefix + i;
    for (int j = 0; j < s.hkv; ++j) {
      std::vector<float> kr = ReadK(plan->core.kv, dram, j, pos);
      std::vector<float> vr = ReadV(plan->core.kv, dram, j, pos);
      std::vector<double> kref(cache.k[j].begin() + size_t(pos) * s.hd,
                               cache.k[j].begin() + size_t(pos + 1) * s.hd);
      std::vector<double> vref(cache.v[j].begin() + size_t(pos) * s.hd,
                               cache.v[j].begin() + size_t(pos + 1) * s.hd);
      EXPECT_LE(RelL2(kr, kref), LayerBound(s.wf)) << "K head " << j << " pos " << pos;
      EXPECT_LE(RelL2(vr, vref), LayerBound(s.wf)) << "V head " << j << " pos " << pos;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Layer, LayerShapes,
    ::testing::Values(
        LayerCase{"first_position", {.h = 64, .hq = 2, .hkv = 1, .hd = 32, .t_max = 8}, 0, 1},
        LayerCase{"steps_across_a_tile_edge",
                  {.h = 128, .hq = 4, .hkv = 2, .hd = 64, .t_max = 80, .t_tile = 32}, 30, 4},
        LayerCase{"odd_h96_3q_3kv",
                  {.h = 96, .hq = 3, .hkv = 3, .hd = 32, .t_max = 50}, 17, 2},
        LayerCase{"last_position_fills_the_cache",
                  {.h = 256, .hq = 8, .hkv = 2, .hd = 128, .t_max = 64, .t_tile = 64}, 63, 1},
        LayerCase{"board", {.h = 256, .hq = 4, .hkv = 2, .hd = 128, .t_max = 300}, 200, 2,
                  true},
        LayerCase{"int4_projections",
                  {.h = 128, .hq = 4, .hkv = 2, .hd = 64, .t_max = 40, .wf = isa::WFormat::kINT4},
                  20, 2},
        LayerCase{"fp4_projections",
                  {.h = 128, .hq = 4, .hkv = 2, .hd = 64, .t_max = 40, .wf = isa::WFormat::kFP4},
                  20, 2},
        LayerCase{"fp4_board",
                  {.h = 256, .hq = 4, .hkv = 2, .hd = 128, .t_max = 300,
                   .wf = isa::WFormat::kFP4},
                  100, 1, true}),
    [](const ::testing::TestParamInfo<LayerCase>& info) { return std::string(info.param.name); });

TEST(Layer, ProgramIsTheSameForEveryPosition) {
  DramLayout layout(kBase, 32);
  auto plan = PlanLayer({.h = 64, .hq = 2, .hkv = 1, .hd = 32, .t_max = 100}, isa::Config::Sim(),
                        1, &layout);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  auto a10 = LayerArgs(*plan, 10, 0), a90 = LayerArgs(*plan, 90, 0);
  ASSERT_TRUE(a10.ok() && a90.ok());
  EXPECT_NE(*a10, *a90);  // only the ARGs change
  EXPECT_EQ((*a90)[5], 91u / uint32_t(plan->shape.t_tile));
}

TEST(Layer, EveryInstructionRecordsAKernelSourceLine) {
  DramLayout layout(kBase, 32);
  auto plan = PlanLayer({.h = 64, .hq = 2, .hkv = 1, .hd = 32, .t_max = 100}, isa::Config::Sim(),
                        1, &layout);
  ASSERT_TRUE(plan.ok());
  isa::ProgramBuilder b;
  EmitLayer(b, *plan);
  isa::Program prog = b.Finish();
  for (size_t pc = 0; pc + 1 < prog.size(); ++pc) {
    ASSERT_GE(prog.source[pc], 0) << "pc " << pc;
    const std::string& file = prog.sources[prog.source[pc]].file;
    EXPECT_TRUE(file == "workloads/kernels/layer.cc" || file == "workloads/kernels/attn.cc")
        << "pc " << pc << " " << file;
  }
}

TEST(LayerErrors, PositionOutsideTheCacheNamesIt) {
  DramLayout layout(kBase, 32);
  auto plan = PlanLayer({.h = 64, .hq = 2, .hkv = 1, .hd = 32, .t_max = 100}, isa::Config::Sim(),
                        1, &layout);
  ASSERT_TRUE(plan.ok());
  auto a = LayerArgs(*plan, 100, 0);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("position 100 is outside the cache of 100"),
            std::string::npos);
}

TEST(LayerErrors, IoRowOutsideNamesIt) {
  DramLayout layout(kBase, 32);
  auto plan = PlanLayer({.h = 64, .hq = 2, .hkv = 1, .hd = 32, .t_max = 100}, isa::Config::Sim(),
                        2, &layout);
  ASSERT_TRUE(plan.ok());
  auto a = LayerArgs(*plan, 3, 2);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("io row 2"), std::string::npos);
}

TEST(LayerErrors, QHeadsWiderThanAnActRamRow) {
  isa::Config cfg = isa::Config::Sim();
  cfg.ACT_BLOCKS = 4;
  DramLayout layout(kBase, 32);
  auto plan = PlanLayer({.h = 64, .hq = 8, .hkv = 1, .hd = 32, .t_max = 10}, cfg, 1, &layout);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("ACT_BLOCKS*D=128"), std::string::npos)
      << plan.status().message();
}

TEST(LayerErrors, FourBitProjectionsNeedMultiplesOfTwoD) {
  DramLayout layout(kBase, 32);
  auto plan = PlanLayer({.h = 96, .hq = 3, .hkv = 3, .hd = 32, .t_max = 10,
                         .wf = isa::WFormat::kINT4},
                        isa::Config::Sim(), 1, &layout);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("multiples of 2D=64 for int4 weights"),
            std::string::npos)
      << plan.status().message();
}

TEST(LayerErrors, WrongWeightSizesAreRejected) {
  DramLayout layout(kBase, 32);
  auto plan = PlanLayer({.h = 64, .hq = 2, .hkv = 1, .hd = 32, .t_max = 10}, isa::Config::Sim(), 1,
                        &layout);
  ASSERT_TRUE(plan.ok());
  LayerWeights w = LayerWeights::Random(plan->shape, 1);
  w.wk.pop_back();
  SparseMemory dram(isa::Config::Sim().DRAM_BYTES);
  Status st = WriteLayerWeights(*plan, w, &dram);
  EXPECT_NE(st.message().find("wq/wk/wv/wo sizes"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace otpu::kernels
