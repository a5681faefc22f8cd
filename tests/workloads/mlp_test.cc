#include "workloads/kernels/mlp.h"

#include <gtest/gtest.h>

#include <random>

#include "workloads/kernels/reference.h"
#include "tests/workloads/kernel_test_util.h"

namespace otpu::kernels {
namespace {

constexpr uint64_t kBase = 1 << 20;

std::vector<float> RandomX(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

struct MlpCase {
  const char* name;
  MlpShape shape;
  bool board = false;
};

void PrintTo(const MlpCase& c, std::ostream* os) { *os << c.name; }

// Builds, runs and checks one MLP; returns the relative L2 error of y - x.
double RunMlp(const MlpShape& shape, const isa::Config& cfg, uint32_t seed,
              isa::Program* prog_out = nullptr) {
  DramLayout dram_layout(kBase, uint32_t(cfg.D));
  StatusOr<MlpPlan> plan = PlanMlp(shape, cfg, &dram_layout);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  if (!plan.ok()) return 1e9;
  MlpWeights w = MlpWeights::Random(plan->shape, seed);
  std::vector<float> x = RandomX(size_t(shape.m) * shape.h, seed + 100);
  SparseMemory dram(cfg.DRAM_BYTES);
  EXPECT_TRUE(WriteMlpWeights(*plan, w, &dram).ok());
  EXPECT_TRUE(WriteMlpInput(*plan, x, &dram).ok());
  isa::ProgramBuilder b;
  EmitMlp(b, *plan);
  isa::Program prog = b.Finish();
  StatusOr<trace::RunEvents> run = RunOnIsa(cfg, prog, &dram);
  EXPECT_TRUE(run.ok()) << run.status().message();
  if (prog_out) *prog_out = prog;
  return RelL2Delta(ReadMlpOutput(*plan, dram), RefMlp(plan->shape, w, x), x);
}

class MlpShapes : public ::testing::TestWithParam<MlpCase> {};

TEST_P(MlpShapes, MatchesTheFloat64ReferenceWithinItsBound) {
  const MlpCase& c = GetParam();
  isa::Config cfg = c.board ? isa::Config::Board() : isa::Config::Sim();
  double rel = RunMlp(c.shape, cfg, 7);
  RecordProperty("rel_l2", std::to_string(rel));
  std::printf("[ measure  ] mlp %s rel_l2 %.5f bound %.3f\n", c.name, rel, MlpBound(c.shape.wf));
  EXPECT_LE(rel, MlpBound(c.shape.wf));
}

using isa::WFormat;
INSTANTIATE_TEST_SUITE_P(
    Mlp, MlpShapes,
    ::testing::Values(
        MlpCase{"small_m3_h128_f256", {.m = 3, .h = 128, .f = 256}},
        MlpCase{"odd_m1_h32_f32", {.m = 1, .h = 32, .f = 32}},
        MlpCase{"odd_m5_h96_f160", {.m = 5, .h = 96, .f = 160}},
        MlpCase{"tiled_m2_h64_f384_ft64", {.m = 2, .h = 64, .f = 384, .f_tile = 64}},
        MlpCase{"odd_tiles_m3_h64_f192_ft64", {.m = 3, .h = 64, .f = 192, .f_tile = 64}},
        MlpCase{"m16_two_passes", {.m = 16, .h = 128, .f = 256}},
        MlpCase{"int4", {.m = 2, .h = 128, .f = 256, .wf = WFormat::kINT4}},
        MlpCase{"fp4", {.m = 2, .h = 128, .f = 256, .wf = WFormat::kFP4}},
        MlpCase{"fp4_tiled", {.m = 3, .h = 128, .f = 512, .wf = WFormat::kFP4, .f_tile = 128}},
        MlpCase{"board_m3_h128_f256", {.m = 3, .h = 128, .f = 256}, true},
        MlpCase{"board_int4_m2_h256_f512", {.m = 2, .h = 256, .f = 512, .wf = WFormat::kINT4},
                true}),
    [](const ::testing::TestParamInfo<MlpCase>& info) { return std::string(info.param.name); });

TEST(Mlp, EveryInstructionRecordsItsKernelSourceLine) {
  DramLayout dram(kBase, 32);
  StatusOr<MlpPlan> plan = PlanMlp({.m = 2, .h = 64, .f = 128}, isa::Config::Sim(), &dram);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  isa::ProgramBuilder b;
  EmitMlp(b, *plan);
  isa::Program prog = b.Finish();
  for (size_t pc = 0; pc + 1 < prog.size(); ++pc) {
    ASSERT_GE(prog.source[pc], 0) << "pc " << pc;
    const isa::SourceLine& s = prog.sources[prog.source[pc]];
    EXPECT_EQ(s.file, "workloads/kernels/mlp.cc") << "pc " << pc;
    EXPECT_FALSE(s.text.empty()) << "pc " << pc;
  }
}

TEST(Mlp, ProgramSizeDoesNotGrowWithTheShape) {
  DramLayout d1(kBase, 32), d2(kBase, 32);
  auto small = PlanMlp({.m = 1, .h = 128, .f = 512, .f_tile = 128}, isa::Config::Sim(), &d1);
  auto big = PlanMlp({.m = 8, .h = 1024, .f = 4096}, isa::Config::Sim(), &d2);
  ASSERT_TRUE(small.ok() && big.ok());
  isa::ProgramBuilder b1, b2;
  EmitMlp(b1, *small);
  EmitMlp(b2, *big);
  EXPECT_EQ(b1.Finish().size(), b2.Finish().size());
}

TEST(Mlp, ListShapeTilesFAndDoubleBuffers) {
  DramLayout dram(kBase, 32);
  auto plan = PlanMlp({.m = 8, .h = 1024, .f = 4096}, isa::Config::Sim(), &dram);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->shape.f_tile, 1024);
  EXPECT_EQ(plan->tiles, 4);
  EXPECT_EQ(plan->buffers, 2);
}

std::string PlanError(const MlpShape& shape, isa::Config cfg = isa::Config::Sim()) {
  DramLayout dram(kBase, uint32_t(cfg.D));
  StatusOr<MlpPlan> plan = PlanMlp(shape, cfg, &dram);
  EXPECT_FALSE(plan.ok());
  return plan.ok() ? "" : plan.status().message();
}

TEST(MlpErrors, TooManyRowsNamesActRows) {
  EXPECT_NE(PlanError({.m = 17, .h = 64, .f = 64}).find("ACT_ROWS"), std::string::npos);
}

TEST(MlpErrors, HiddenNotAMultipleOfDNamesH) {
  std::string e = PlanError({.m = 1, .h = 48, .f = 64});
  EXPECT_NE(e.find("H must be"), std::string::npos) << e;
  EXPECT_NE(e.find("32"), std::string::npos) << e;
}

TEST(MlpErrors, FourBitNeedsTwoBlocksOfD) {
  std::string e = PlanError({.m = 1, .h = 32, .f = 64, .wf = isa::WFormat::kINT4});
  EXPECT_NE(e.find("multiple of 64"), std::string::npos) << e;
}

TEST(MlpErrors, TileNotDividingFNamesTheTile) {
  std::string e = PlanError({.m = 1, .h = 64, .f = 96, .f_tile = 64});
  EXPECT_NE(e.find("f_tile 64"), std::string::npos) << e;
}

TEST(MlpErrors, HiddenTooWideForActRamNamesTheLimit) {
  isa::Config cfg = isa::Config::Sim();
  cfg.ACT_BLOCKS = 4;
  std::string e = PlanError({.m = 1, .h = 128, .f = 64}, cfg);
  EXPECT_NE(e.find("ACT_BLOCKS"), std::string::npos) << e;
}

TEST(MlpErrors, ImageTooSmallNamesTheRegion) {
  isa::Config cfg = isa::Config::Sim();
  cfg.DRAM_BYTES = kBase + 4096;
  std::string e = PlanError({.m = 1, .h = 256, .f = 256}, cfg);
  EXPECT_NE(e.find("mlp.w_gate"), std::string::npos) << e;
}

TEST(MlpErrors, WrongInputSizeNamesX) {
  DramLayout layout(kBase, 32);
  auto plan = PlanMlp({.m = 2, .h = 64, .f = 64}, isa::Config::Sim(), &layout);
  ASSERT_TRUE(plan.ok());
  SparseMemory dram(isa::Config::Sim().DRAM_BYTES);
  Status st = WriteMlpInput(*plan, std::vector<float>(100), &dram);
  EXPECT_NE(st.message().find("mlp x has 100 values, expected M*H=128"), std::string::npos)
      << st.message();
}

}  // namespace
}  // namespace otpu::kernels
