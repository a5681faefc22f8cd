// The register map of the Verilated board (SPEC 4, docs/registers.md) through BoardModel's
// register bus: reset values, read/write behaviour, unmapped offsets, map version 1, the
// counters and STATUS.AXI_ERR.
#include "sim/board/board_model.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <memory>
#include <set>
#include <string>

#include "sim/rtl/rtl_harness.h"
#include "base/sparse_memory.h"
#include "workloads/isa/defs.h"

namespace otpu::board {
namespace {

using isa::Reg;

constexpr uint32_t Off(Reg r) { return static_cast<uint32_t>(r); }
constexpr uint32_t kCounters = Off(Reg::kCOUNTERS);

std::unique_ptr<BoardModel> MakeModel(const isa::Config& cfg, rtl::DramModel* dram,
                                      int regmap) {
  StatusOr<std::unique_ptr<BoardModel>> m = BoardModel::Create(cfg, dram, regmap);
  OTPU_CHECK(m.ok());
  return std::move(m).value();
}

// A board of configuration `cfg` on an ideal memory.
struct Board {
  explicit Board(int regmap = 2, const isa::Config& cfg = rtl::BuiltConfig())
      : mem(cfg.DRAM_BYTES),
        dram(&mem, cfg.D, rtl::DramOptions{}),
        owned(MakeModel(cfg, &dram, regmap)),
        model(*owned) {}
  SparseMemory mem;
  rtl::DramModel dram;
  std::unique_ptr<BoardModel> owned;
  BoardModel& model;
};

// Offsets of map version 1 (0x000..0x038) and version 2.
std::set<uint32_t> MappedV1() {
  std::set<uint32_t> out;
  for (uint32_t off = 0; off <= Off(Reg::kSCRATCH); off += 4) out.insert(off);
  return out;
}

std::set<uint32_t> MappedV2() {
  std::set<uint32_t> out = MappedV1();
  for (Reg r : {Reg::kREGMAP, Reg::kCAPS, Reg::kCORE_KHZ, Reg::kBUILD_ID, Reg::kTRACE_CTRL,
                Reg::kTRACE_COUNT, Reg::kTRACE_DROP, Reg::kTRACE_ADDR, Reg::kTRACE_LO,
                Reg::kTRACE_HI, Reg::kTRACE_WIDX, Reg::kTRACE_RPTR}) {
    out.insert(Off(r));
  }
  for (uint32_t i = 0; i < uint32_t(isa::kNumArgs); ++i) out.insert(Off(Reg::kARG0) + 4 * i);
  for (uint32_t i = 0; i < 2 * uint32_t(isa::kNumCounters); ++i) out.insert(kCounters + 4 * i);
  return out;
}

uint32_t ExpectedCaps() {
  return isa::kCAPS_TRACE | isa::kCAPS_TRACE_DMA | isa::kCAPS_TRACE_STREAM | isa::kCAPS_4BIT |
         uint32_t(std::countr_zero(uint64_t(BoardModel::TraceDepth())))
             << isa::kCAPS_DEPTH_SHIFT |
         6u << isa::kCAPS_WINDOW_SHIFT;
}

TEST(BoardRegs, ResetValues) {
  Board b;
  BoardModel& m = b.model;
  EXPECT_EQ(m.ReadReg(Off(Reg::kID)), isa::kID_VALUE);
  EXPECT_EQ(m.ReadReg(Off(Reg::kVERSION)), rtl::BuiltConfig().Version());
  EXPECT_EQ(m.ReadReg(Off(Reg::kCTRL)), 0u);
  EXPECT_EQ(m.ReadReg(Off(Reg::kSTATUS)), isa::kSTATUS_WR_IDLE);
  for (Reg r : {Reg::kPROG_ADDR, Reg::kPROG_N, Reg::kCYCLES_LO, Reg::kCYCLES_HI, Reg::kICOUNT,
                Reg::kB_RD, Reg::kB_WR, Reg::kA_RD, Reg::kA_WR, Reg::kB_STALL, Reg::kSCRATCH,
                Reg::kTRACE_CTRL, Reg::kTRACE_COUNT, Reg::kTRACE_DROP, Reg::kTRACE_ADDR}) {
    EXPECT_EQ(m.ReadReg(Off(r)), 0u) << "offset 0x" << std::hex << Off(r);
  }
  EXPECT_EQ(m.ReadReg(Off(Reg::kREGMAP)), isa::kREGMAP_VERSION);
  EXPECT_EQ(m.ReadReg(Off(Reg::kCAPS)), ExpectedCaps());
  EXPECT_EQ(m.ReadReg(Off(Reg::kCORE_KHZ)), 100000u);
  EXPECT_EQ(m.ReadReg(Off(Reg::kBUILD_ID)), 0u);
  for (int i = 0; i < isa::kNumArgs; ++i) {
    EXPECT_EQ(m.ReadReg(Off(Reg::kARG0) + 4 * uint32_t(i)), 0u) << "ARG" << i;
  }
  // Every free-running counter but UPTIME is 0 with the core idle.
  for (int k = 1; k < isa::kNumCounters; ++k) {
    EXPECT_EQ(m.ReadReg(kCounters + 8 * uint32_t(k)), 0u)
        << isa::CounterName(static_cast<isa::Counter>(k));
    EXPECT_EQ(m.ReadReg(kCounters + 8 * uint32_t(k) + 4), 0u);
  }
}

TEST(BoardRegs, ScratchRoundTrips) {
  Board b;
  for (uint32_t v : {0xFFFFFFFFu, 0x12345678u, 0x80000001u, 0u}) {
    b.model.WriteReg(Off(Reg::kSCRATCH), v);
    EXPECT_EQ(b.model.ReadReg(Off(Reg::kSCRATCH)), v);
  }
}

TEST(BoardRegs, WritableRegistersKeepTheirBits) {
  Board b;
  BoardModel& m = b.model;
  const uint32_t d = uint32_t(rtl::BuiltConfig().D);
  m.WriteReg(Off(Reg::kPROG_ADDR), 0x12345677u);
  EXPECT_EQ(m.ReadReg(Off(Reg::kPROG_ADDR)), 0x12345677u & ~(d - 1)) << "chunk aligned";
  m.WriteReg(Off(Reg::kPROG_N), 0xABCD1234u);
  EXPECT_EQ(m.ReadReg(Off(Reg::kPROG_N)), 0x1234u) << "16 bits";
  for (uint32_t i = 0; i < uint32_t(isa::kNumArgs); ++i) {
    m.WriteReg(Off(Reg::kARG0) + 4 * i, 0x1000u * (i + 1) + i);
  }
  for (uint32_t i = 0; i < uint32_t(isa::kNumArgs); ++i) {
    EXPECT_EQ(m.ReadReg(Off(Reg::kARG0) + 4 * i), 0x1000u * (i + 1) + i) << "ARG" << i;
  }
  const uint32_t depth_mask = uint32_t(BoardModel::TraceDepth() - 1);
  m.WriteReg(Off(Reg::kTRACE_ADDR), 0xFFFFFFFFu);
  EXPECT_EQ(m.ReadReg(Off(Reg::kTRACE_ADDR)), depth_mask) << "mod DEPTH";
  m.WriteReg(Off(Reg::kTRACE_CTRL),
             isa::kTRACE_CTRL_ENABLE | isa::kTRACE_CTRL_STOP_WHEN_FULL | isa::kTRACE_CTRL_BUSY);
  EXPECT_EQ(m.ReadReg(Off(Reg::kTRACE_CTRL)),
            isa::kTRACE_CTRL_ENABLE | isa::kTRACE_CTRL_STOP_WHEN_FULL)
      << "BUSY is read-only";
  m.WriteReg(Off(Reg::kTRACE_CTRL), isa::kTRACE_CTRL_CLEAR);
  EXPECT_EQ(m.ReadReg(Off(Reg::kTRACE_CTRL)), 0u) << "CLEAR reads 0";
}

TEST(BoardRegs, CtrlClearAndLoadReadZero) {
  Board b;
  b.model.WriteReg(Off(Reg::kCTRL), isa::kCTRL_CLEAR);
  EXPECT_EQ(b.model.ReadReg(Off(Reg::kCTRL)), 0u);
  b.model.WriteReg(Off(Reg::kCTRL), isa::kCTRL_LOAD);  // PROG_N = 0: nothing to load
  EXPECT_EQ(b.model.ReadReg(Off(Reg::kCTRL)), 0u);
  EXPECT_EQ(b.model.ReadReg(Off(Reg::kSTATUS)) & isa::kSTATUS_LOADING, 0u);
}

TEST(BoardRegs, ReadOnlyRegistersIgnoreWrites) {
  Board b;
  BoardModel& m = b.model;
  const std::set<Reg> read_only = {Reg::kID, Reg::kVERSION, Reg::kSTATUS, Reg::kCYCLES_LO,
                                   Reg::kCYCLES_HI, Reg::kICOUNT, Reg::kB_RD, Reg::kB_WR,
                                   Reg::kA_RD, Reg::kA_WR, Reg::kB_STALL, Reg::kREGMAP,
                                   Reg::kCAPS, Reg::kCORE_KHZ, Reg::kBUILD_ID,
                                   Reg::kTRACE_COUNT, Reg::kTRACE_DROP};
  for (Reg r : read_only) {
    const uint32_t before = m.ReadReg(Off(r));
    m.WriteReg(Off(r), ~before);
    EXPECT_EQ(m.ReadReg(Off(r)), before) << "offset 0x" << std::hex << Off(r);
  }
}

// Every offset outside the map reads UNMAPPED, and writing there changes no register.
void ExpectUnmappedOffsets(int regmap, const std::set<uint32_t>& mapped) {
  Board b(regmap);
  BoardModel& m = b.model;
  m.WriteReg(Off(Reg::kSCRATCH), 0x5A5A5A5Au);
  m.WriteReg(Off(Reg::kPROG_ADDR), 0x00000400u);
  m.WriteReg(Off(Reg::kPROG_N), 7);
  int unmapped = 0;
  for (uint32_t off = 0; off < 0x1000; off += 4) {
    if (mapped.count(off)) continue;
    ++unmapped;
    m.WriteReg(off, 0xFFFFFFFFu);
    EXPECT_EQ(m.ReadReg(off), isa::kUNMAPPED) << "map " << regmap << " offset 0x" << std::hex
                                              << off;
  }
  EXPECT_EQ(unmapped, 1024 - int(mapped.size()));
  EXPECT_EQ(m.ReadReg(Off(Reg::kSCRATCH)), 0x5A5A5A5Au);
  EXPECT_EQ(m.ReadReg(Off(Reg::kPROG_ADDR)), 0x00000400u);
  EXPECT_EQ(m.ReadReg(Off(Reg::kPROG_N)), 7u);
  EXPECT_EQ(m.ReadReg(Off(Reg::kCTRL)), 0u);
}

TEST(BoardRegs, UnmappedOffsetsReadDeadbeef) { ExpectUnmappedOffsets(2, MappedV2()); }

TEST(BoardRegs, MapOneHasOnlyTheLowRegisters) {
  ExpectUnmappedOffsets(1, MappedV1());
  Board b(1);
  EXPECT_EQ(b.model.ReadReg(Off(Reg::kID)), isa::kID_VALUE);
  EXPECT_EQ(b.model.ReadReg(Off(Reg::kVERSION)), rtl::BuiltConfig().Version());
  EXPECT_EQ(b.model.ReadReg(Off(Reg::kREGMAP)), isa::kUNMAPPED);
  EXPECT_EQ(b.model.ReadReg(Off(Reg::kCAPS)), isa::kUNMAPPED);
}

TEST(BoardRegs, UptimeCountsEveryCycle) {
  Board b;
  BoardModel& m = b.model;
  const uint32_t uptime = kCounters + 8 * uint32_t(isa::Counter::kUPTIME);
  const uint32_t first = m.ReadReg(uptime);
  m.Cycles(100);
  const uint32_t second = m.ReadReg(uptime);
  EXPECT_EQ(second - first, 101u) << "100 idle cycles and the first read's";
  EXPECT_EQ(m.ReadReg(uptime + 4), 0u);
  EXPECT_EQ(int64_t(second), m.cycle() - 1) << "the read samples the cycle it is made in";
}

// A load whose range leaves DRAM reads nothing and sets the sticky AXI_ERR, in every
// configuration: with `board`'s 4 GiB every 32-bit PROG_ADDR is inside DRAM, but a program
// that runs past its end must not wrap to address 0.
void ExpectLoadRefused(const isa::Config& cfg, uint32_t prog_addr, uint32_t prog_n) {
  SCOPED_TRACE(cfg.name + " PROG_ADDR " + std::to_string(prog_addr) + " PROG_N " +
               std::to_string(prog_n));
  Board b(2, cfg);
  BoardModel& m = b.model;
  m.WriteReg(Off(Reg::kPROG_ADDR), prog_addr);
  m.WriteReg(Off(Reg::kPROG_N), prog_n);
  m.WriteReg(Off(Reg::kCTRL), isa::kCTRL_LOAD);
  m.Cycles(100);
  EXPECT_TRUE(b.dram.status().ok()) << "the loader reads nothing: " << b.dram.status().message();
  EXPECT_EQ(b.dram.stats().b_reads, 0);
  uint32_t status = m.ReadReg(Off(Reg::kSTATUS));
  EXPECT_EQ(status & isa::kSTATUS_LOADING, 0u);
  EXPECT_NE(status & isa::kSTATUS_AXI_ERR, 0u) << "STATUS 0x" << std::hex << status;
  m.Cycles(10);
  EXPECT_NE(m.ReadReg(Off(Reg::kSTATUS)) & isa::kSTATUS_AXI_ERR, 0u) << "sticky";
  m.WriteReg(Off(Reg::kCTRL), isa::kCTRL_CLEAR);
  EXPECT_EQ(m.ReadReg(Off(Reg::kSTATUS)) & isa::kSTATUS_AXI_ERR, 0u) << "CLEAR clears it";
}

TEST(BoardRegs, LoadFromOutsideDramSetsStickyAxiErr) {
  for (const isa::Config& cfg : rtl::BuiltConfigs()) {
    // The last chunk of DRAM and one instruction past it (32-bit PROG_ADDR: board's last
    // chunk is 0xFFFFFF80).
    ExpectLoadRefused(cfg, uint32_t(cfg.DRAM_BYTES - uint64_t(cfg.D)), uint32_t(cfg.D / 32 + 1));
    if (cfg.DRAM_BYTES < (uint64_t{1} << 32)) ExpectLoadRefused(cfg, 0xFFFFFF00u, 1);
  }
}

TEST(BoardRegs, LoadOfTheLastChunkOfDramIsInside) {
  for (const isa::Config& cfg : rtl::BuiltConfigs()) {
    Board b(2, cfg);
    b.model.WriteReg(Off(Reg::kPROG_ADDR), uint32_t(cfg.DRAM_BYTES - uint64_t(cfg.D)));
    b.model.WriteReg(Off(Reg::kPROG_N), uint32_t(cfg.D / 32));
    b.model.WriteReg(Off(Reg::kCTRL), isa::kCTRL_LOAD);
    b.model.Cycles(100);
    EXPECT_EQ(b.dram.stats().b_reads, 1) << cfg.name;
    EXPECT_EQ(b.model.ReadReg(Off(Reg::kSTATUS)) & (isa::kSTATUS_LOADING | isa::kSTATUS_AXI_ERR),
              0u)
        << cfg.name;
  }
}

// Both Verilated boards in one process, each reading its own VERSION.
TEST(BoardRegs, EveryBuiltConfigurationHasABoard) {
  for (const isa::Config& cfg : rtl::BuiltConfigs()) {
    Board b(2, cfg);
    EXPECT_EQ(b.model.config().name, cfg.name);
    EXPECT_EQ(b.model.ReadReg(Off(Reg::kVERSION)), cfg.Version()) << cfg.name;
  }
}

TEST(BoardRegs, CreateRefusesAConfigurationNoBoardHas) {
  isa::Config cfg = isa::Config::Board();
  cfg.MCOLS = 4;
  SparseMemory mem(cfg.DRAM_BYTES);
  rtl::DramModel dram(&mem, cfg.D, rtl::DramOptions{});
  StatusOr<std::unique_ptr<BoardModel>> m = BoardModel::Create(cfg, &dram);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(m.status().message().find("config MCOLS=4 matches no RTL model"), std::string::npos)
      << m.status().message();
}

}  // namespace
}  // namespace otpu::board
