#include "lens/build_board_profile.h"

#include <gtest/gtest.h>

namespace otpu::lens {
namespace {

isa::Program TwoInstructions() {
  isa::ProgramBuilder b;
  b.Vop({.fn = isa::VopFn::kCOPY, .dst = isa::At(64), .a = isa::At(0), .b = {}, .n = 8});
  return b.Finish();
}

host::RunCounters Counters() {
  host::RunCounters c;
  c.cycles = 1000;
  c.icount = 2;
  c.b_rd = 300;
  c.b_wr = 100;
  c.a_rd = 50;
  c.a_wr = 20;
  c.b_stall = 7;
  return c;
}

TEST(BuildBoardProfile, MapOneCardFillsRooflineAndPortsFromThePerRunCounters) {
  host::CardInfo info;
  info.regmap = 1;
  info.config = isa::Config::Sim();
  auto p = BuildBoardProfile("mlp-small", info, TwoInstructions(), Counters(), "card");
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->kind, ProfileKind::kBoard);
  EXPECT_EQ(p->cycles, 1000);
  EXPECT_EQ(p->config.MEM, "card");
  EXPECT_EQ(p->roofline.bound, 400);
  EXPECT_DOUBLE_EQ(p->roofline.efficiency, 0.4);
  EXPECT_EQ(p->bytes, 400 * 32 + 70 * 4);
  EXPECT_EQ(p->slices[0].ports.amxu, 50);
  EXPECT_EQ(p->slices[0].ports.aq, 20);
  EXPECT_EQ(p->slices[0].buckets.size(), 0u);
  EXPECT_TRUE(p->instrs.empty());
  EXPECT_EQ(p->programs[0].size(), 2u);
  ASSERT_TRUE(p->board.has_value());
  EXPECT_EQ(p->board->size(), 7u);
  EXPECT_EQ((*p->board)[0], (CounterValue{"CYCLES", 1000}));
  EXPECT_EQ(p->notes.back().level, NoteLevel::kInfo);
  EXPECT_NE(p->notes.back().text.find("counters only: the bitstream has no trace buffer "
                                      "(register map 1)"),
            std::string::npos)
      << p->notes.back().text;
}

TEST(BuildBoardProfile, FreeRunningCountersGiveBusyAndMacs) {
  host::CardInfo info;
  info.regmap = 2;
  info.core_khz = 250000;
  info.config = isa::Config::Sim();
  host::RunCounters c = Counters();
  std::array<int64_t, isa::kNumCounters> f{};
  f[size_t(isa::Counter::kMXU_MAC)] = 4096;
  f[size_t(isa::Counter::kMXU_BUSY)] = 600;
  f[size_t(isa::Counter::kVPU_BUSY)] = 30;
  c.free_running = f;
  auto p = BuildBoardProfile("x", info, TwoInstructions(), c, "card");
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->clock_mhz, 250.0);
  EXPECT_EQ(p->macs, 4096);
  EXPECT_EQ(p->slices[0].busy[size_t(isa::Unit::kMXU)], 600);
  EXPECT_EQ(p->slices[0].busy[size_t(isa::Unit::kVPU)], 30);
  EXPECT_EQ(p->board->size(), 7u + isa::kNumCounters);
  EXPECT_EQ(p->board->back().name, "MXU_STARVE");
  EXPECT_NE(p->notes.back().text.find("(CAPS bit0 is 0)"), std::string::npos);
}

}  // namespace
}  // namespace otpu::lens
