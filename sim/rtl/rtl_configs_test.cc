#include "sim/rtl/rtl_configs.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/rtl/rtl_harness.h"
#include "workloads/isa/instr.h"

namespace otpu::rtl {
namespace {

TEST(RtlConfigs, BothConfigurationsAreBuilt) {
  EXPECT_EQ(BuiltConfigNames(), "sim, board");
  ASSERT_EQ(BuiltConfigs().size(), 2u);
  EXPECT_EQ(BuiltConfigs()[0].Version(), isa::Config::Sim().Version());
  EXPECT_EQ(BuiltConfigs()[1].Version(), isa::Config::Board().Version());
}

TEST(RtlConfigs, SelectsByTheHardwareFieldsNotTheName) {
  isa::Config board = isa::Config::Board();
  board.name = "whatever";
  board.MEM = "stall 20";
  StatusOr<std::string> name = SelectBuiltConfig(board);
  ASSERT_TRUE(name.ok()) << name.status().message();
  EXPECT_EQ(*name, "board");
  EXPECT_EQ(*SelectBuiltConfig(isa::Config::Sim()), "sim");
}

TEST(RtlConfigs, UnsupportedFieldIsInvalidArgumentNamingIt) {
  isa::Config cfg = isa::Config::Sim();
  cfg.D = 64;
  StatusOr<std::string> d = SelectBuiltConfig(cfg);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(d.status().message(),
            "config D=64 matches no RTL model of this build (sim has D=32, board has D=128)");

  cfg = isa::Config::Board();
  cfg.FIFO_DEPTH = 128;  // sim's depth with board's D: no model has both
  StatusOr<std::string> depth = SelectBuiltConfig(cfg);
  ASSERT_FALSE(depth.ok());
  EXPECT_EQ(depth.status().message(),
            "config FIFO_DEPTH=128 matches no RTL model of this build (board has "
            "FIFO_DEPTH=1024)");
}

TEST(RtlConfigs, NamedConfigurationAndAnUnknownName) {
  StatusOr<isa::Config> board = BuiltConfigNamed("board");
  ASSERT_TRUE(board.ok());
  EXPECT_EQ(board->D, 128);
  StatusOr<isa::Config> none = BuiltConfigNamed("fast");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(none.status().message(),
            "RTL configuration 'fast' is not built (built: sim, board)");
}

// Both Verilated cores live in one process; each reports its own VERSION and runs.
TEST(RtlConfigs, HarnessesOfBothConfigurationsRunInOneProcess) {
  for (const isa::Config& cfg : BuiltConfigs()) {
    StatusOr<std::unique_ptr<RtlHarness>> h = RtlHarness::Create(cfg);
    ASSERT_TRUE(h.ok()) << cfg.name << ": " << h.status().message();
    EXPECT_EQ((*h)->config().name, cfg.name);
    const std::vector<isa::Instr> code = {isa::EncodeNop(), isa::EncodeHalt()};
    ASSERT_TRUE((*h)->LoadProgram(code).ok());
    SparseMemory dram(cfg.DRAM_BYTES);
    StatusOr<RtlRun> run = (*h)->Run(&dram, RtlRunOptions{});
    ASSERT_TRUE(run.ok()) << cfg.name << ": " << run.status().message();
    EXPECT_EQ(run->stop, Stop::kHalt) << cfg.name;
  }
}

}  // namespace
}  // namespace otpu::rtl
