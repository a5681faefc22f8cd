// SimBoard through BoardIface only, register by register and DMA by DMA. SystemC has one
// kernel per process: gtest_discover_tests runs each case in its own process. Whole runs
// through Card, the host's run protocol, are tests/board/sim_board_run_test.cc.
#include "sim/board/sim_board_testing.h"
#include "sim/board/sim_board.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "host/board_iface.h"
#include "sim/board/board_model.h"
#include "sim/board/child_process.h"
#include "sim/rtl/rtl_harness.h"
#include "workloads/isa/defs.h"

namespace otpu::board {
namespace {

constexpr uint32_t kUptime = static_cast<uint32_t>(isa::Reg::kCOUNTERS);  // UPTIME lo
constexpr int64_t kCoreKhzModel = 100000;  // CORE_KHZ of the model (SPEC 4)

using board_testing::MakeBoard;
using board_testing::Off;
using board_testing::Read;

// ---- registers ----------------------------------------------------------------------------

TEST(SimBoard, IdentityRegistersDescribeTheBuiltBoard) {
  auto board = MakeBoard();
  EXPECT_EQ(Read(*board, Off(isa::Reg::kID)), isa::kID_VALUE);
  EXPECT_EQ(Read(*board, Off(isa::Reg::kVERSION)), rtl::BuiltConfig().Version());
  EXPECT_EQ(Read(*board, Off(isa::Reg::kREGMAP)), isa::kREGMAP_VERSION);
  const uint32_t caps = Read(*board, Off(isa::Reg::kCAPS));
  EXPECT_EQ(caps & (isa::kCAPS_TRACE | isa::kCAPS_TRACE_DMA),
            isa::kCAPS_TRACE | isa::kCAPS_TRACE_DMA);
  EXPECT_EQ(int64_t{1} << ((caps >> 8) & 0xFF), BoardModel::TraceDepth());
  EXPECT_EQ(Read(*board, Off(isa::Reg::kCORE_KHZ)), uint32_t(kCoreKhzModel));
  EXPECT_EQ(board->Describe(), "board model");
}

TEST(SimBoard, ScratchHoldsWhatWasWritten) {
  auto board = MakeBoard();
  for (uint32_t v : {0x00000000u, 0xFFFFFFFFu, 0x12345678u, 0xA5A5A5A5u}) {
    ASSERT_TRUE(board->WriteReg(Off(isa::Reg::kSCRATCH), v).ok());
    EXPECT_EQ(Read(*board, Off(isa::Reg::kSCRATCH)), v);
  }
}

TEST(SimBoard, MapVersionOneHasOnlyTheLowRegistersAndNoTraceWindow) {
  SimBoardOptions opts;
  opts.regmap = 1;
  auto board = MakeBoard(opts);
  EXPECT_EQ(Read(*board, Off(isa::Reg::kID)), isa::kID_VALUE);
  EXPECT_EQ(Read(*board, Off(isa::Reg::kREGMAP)), isa::kUNMAPPED);
  EXPECT_EQ(Read(*board, Off(isa::Reg::kCAPS)), isa::kUNMAPPED);
  uint64_t record = 0;
  const Status s = board->ReadDma(host::kTraceWindowBase, &record, 8);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("0x100000000"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("map-version-1 board has no trace window"), std::string::npos)
      << s.message();
}

TEST(SimBoard, RegisterOffsetsOutsideTheMapAreNamed) {
  auto board = MakeBoard();
  StatusOr<uint32_t> unaligned = board->ReadReg(0x102);
  EXPECT_EQ(unaligned.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(unaligned.status().message().find("register read at offset 0x102"),
            std::string::npos)
      << unaligned.status().message();
  const Status beyond = board->WriteReg(0x1000, 1);
  EXPECT_EQ(beyond.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(beyond.message().find("register write at offset 0x1000"), std::string::npos)
      << beyond.message();
}

// ---- time ---------------------------------------------------------------------------------

TEST(SimBoard, EachRegisterAccessAdvancesTheCoreByRegAccessNs) {
  auto board = MakeBoard();  // reg_access_ns 1000: 100 cycles at CORE_KHZ 100000
  const uint32_t first = Read(*board, kUptime);
  const int64_t cycles = board->cycles();
  const double seconds = board->sim_seconds();
  const uint32_t second = Read(*board, kUptime);
  EXPECT_EQ(second - first, 100u);
  EXPECT_EQ(board->cycles() - cycles, 100);
  EXPECT_DOUBLE_EQ(board->sim_seconds() - seconds, 1e-6);
  EXPECT_EQ(board->cycles(), int64_t(board->sim_seconds() * kCoreKhzModel * 1000 + 0.5));
}

TEST(SimBoard, RegAccessNsSetsWhatAnAccessCosts) {
  SimBoardOptions opts;
  opts.reg_access_ns = 2500;
  auto board = MakeBoard(opts);
  const uint32_t first = Read(*board, kUptime);
  ASSERT_TRUE(board->WriteReg(Off(isa::Reg::kSCRATCH), 7).ok());
  EXPECT_EQ(Read(*board, kUptime) - first, 500u);
}

TEST(SimBoard, DramDmaCostsNoCoreCycles) {
  auto board = MakeBoard();
  std::vector<uint8_t> bytes(1 << 20, 0x5A);
  const int64_t cycles = board->cycles();
  ASSERT_TRUE(board->WriteDma(0x10000, bytes.data(), bytes.size()).ok());
  ASSERT_TRUE(board->ReadDma(0x10000, bytes.data(), bytes.size()).ok());
  EXPECT_EQ(board->cycles(), cycles);
  EXPECT_EQ(board->sim_seconds(), 0.0);
}

// A trace-window DMA read costs a card's setup and bandwidth: 2 us + its 64-byte beats at
// 3.2 GB/s by default, at 100 MHz 200 cycles + 2 cycles a beat.
TEST(SimBoard, TraceWindowDmaCostsSetupAndBandwidth) {
  auto board = MakeBoard();
  std::vector<uint8_t> bytes(64 * 1024);
  int64_t cycles = board->cycles();
  ASSERT_TRUE(board->ReadDma(host::kTraceWindowBase, bytes.data(), bytes.size()).ok());
  EXPECT_EQ(board->cycles() - cycles, 200 + 64 * 1024 / 32);
  cycles = board->cycles();
  ASSERT_TRUE(board->ReadDma(host::kTraceWindowBase + 8, bytes.data(), 8).ok());
  EXPECT_EQ(board->cycles() - cycles, 200 + 2);  // the whole 64-byte beat moves
}

TEST(SimBoard, DmaSetupAndBandwidthOptionsSetWhatAWindowReadCosts) {
  SimBoardOptions opts;
  opts.dma_setup_ns = 500;
  opts.dma_mb_per_s = 800;  // 8 bytes a cycle: slower than the port's 64
  auto board = MakeBoard(opts);
  std::vector<uint8_t> bytes(4096);
  const int64_t cycles = board->cycles();
  ASSERT_TRUE(board->ReadDma(host::kTraceWindowBase, bytes.data(), bytes.size()).ok());
  EXPECT_EQ(board->cycles() - cycles, 50 + 4096 / 8);
}

// SimBoard::RunFor: the card runs with no host access (the emulator's slow fault).
TEST(SimBoard, RunForLetsTheCardRun) {
  auto board = MakeBoard();
  const uint32_t first = Read(*board, kUptime);
  board->RunFor(std::chrono::microseconds(30));
  EXPECT_EQ(Read(*board, kUptime) - first, 100u + 3000u);
}

// ---- DMA ----------------------------------------------------------------------------------

TEST(SimBoard, DmaRoundTripsAtOddAddressesAndLengths) {
  auto board = MakeBoard();
  const uint64_t dram = rtl::BuiltConfig().DRAM_BYTES;
  std::mt19937_64 rng(5);
  // Odd starts and lengths, across 64-byte beats and 64 KiB pages, and at DRAM's last byte.
  const std::vector<std::pair<uint64_t, size_t>> spans = {
      {1, 1}, {3, 61}, {0xFFFD, 7}, {0x12345, 100003}, {dram - 5, 5}, {0x40001, 0}};
  for (const auto& [addr, len] : spans) {
    std::vector<uint8_t> data(len);
    for (uint8_t& b : data) b = uint8_t(rng());
    ASSERT_TRUE(board->WriteDma(addr, data.data(), len).ok());
    std::vector<uint8_t> back(len + 2, 0xEE);
    ASSERT_TRUE(board->ReadDma(addr, back.data() + 1, len).ok());
    EXPECT_EQ(std::vector<uint8_t>(back.begin() + 1, back.end() - 1), data) << addr;
    EXPECT_EQ(back.front(), 0xEE);
    EXPECT_EQ(back.back(), 0xEE);
  }
  // A read overlapping two writes sees both.
  const uint8_t a[3] = {1, 2, 3}, b[2] = {4, 5};
  ASSERT_TRUE(board->WriteDma(0x777, a, 3).ok());
  ASSERT_TRUE(board->WriteDma(0x77A, b, 2).ok());
  uint8_t got[5] = {};
  ASSERT_TRUE(board->ReadDma(0x777, got, 5).ok());
  EXPECT_EQ(std::vector<uint8_t>(got, got + 5), (std::vector<uint8_t>{1, 2, 3, 4, 5}));
}

TEST(SimBoard, DmaOutsideDramAndTheWindowIsInvalidArgumentNamingTheAddress) {
  auto board = MakeBoard();
  const uint64_t dram = rtl::BuiltConfig().DRAM_BYTES;
  uint8_t buf[16] = {};
  const Status past_end = board->WriteDma(dram - 4, buf, 8);
  EXPECT_EQ(past_end.code(), StatusCode::kInvalidArgument);
  char addr[32];
  std::snprintf(addr, sizeof(addr), "card address 0x%llX", (unsigned long long)(dram - 4));
  EXPECT_NE(past_end.message().find(addr), std::string::npos) << past_end.message();
  EXPECT_NE(past_end.message().find("DMA write of 8 bytes"), std::string::npos);

  const Status gap = board->ReadDma(uint64_t{3} << 31, buf, 1);  // between DRAM and window
  EXPECT_EQ(gap.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(gap.message().find("0x180000000 is outside DRAM"), std::string::npos)
      << gap.message();
}

TEST(SimBoard, TheTraceWindowIsReadOnlyAndDepthRecordsLong) {
  auto board = MakeBoard();
  uint8_t buf[16] = {};
  const Status write = board->WriteDma(host::kTraceWindowBase, buf, 8);
  EXPECT_EQ(write.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(write.message().find("read only"), std::string::npos) << write.message();

  const uint64_t end = host::kTraceWindowBase + 8 * uint64_t(BoardModel::TraceDepth());
  EXPECT_TRUE(board->ReadDma(end - 3, buf, 3).ok());
  const Status beyond = board->ReadDma(end - 3, buf, 4);
  EXPECT_EQ(beyond.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(beyond.message().find("trace window [0x100000000, "), std::string::npos)
      << beyond.message();
}

TEST(SimBoardDeathTest, SetMemoryWithABadOptionNamesItAndStops) {
  auto board = MakeBoard();
  rtl::DramOptions bad = SimBoardOptions::DefaultMemory();
  bad.latency = 0;
  EXPECT_DEATH(board->SetMemory(bad), "SimBoardOptions.mem.latency must be >= 1");
}

// ---- child processes ------------------------------------------------------------------

TEST(RunInChild, ReturnsWhatTheChildReturned) {
  StatusOr<std::string> text = RunInChild([] { return std::string("from the child"); });
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(*text, "from the child");
}

TEST(RunInChild, AChildThatDiesIsInternalNamingTheSignal) {
  StatusOr<std::string> text = RunInChild([]() -> std::string { std::abort(); });
  EXPECT_EQ(text.status().code(), StatusCode::kInternal);
  EXPECT_NE(text.status().message().find("died of signal 6"), std::string::npos)
      << text.status().message();
}

// ---- construction -------------------------------------------------------------------------

TEST(SimBoard, ASecondBoardInOneProcessIsFailedPrecondition) {
  auto board = MakeBoard();
  StatusOr<std::unique_ptr<SimBoard>> second = SimBoard::Create();
  EXPECT_EQ(second.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(second.status().message().find("one simulation kernel per process"),
            std::string::npos)
      << second.status().message();
  EXPECT_EQ(Read(*board, Off(isa::Reg::kID)), isa::kID_VALUE);  // the first still works
}

TEST(SimBoard, BadOptionsAreInvalidArgumentNamingTheField) {
  struct Case {
    const char* field;
    void (*set)(SimBoardOptions*);
  };
  const Case cases[] = {
      {"quantum_cycles", [](SimBoardOptions* o) { o->quantum_cycles = 0; }},
      {"reg_access_ns", [](SimBoardOptions* o) { o->reg_access_ns = 15; }},
      {"reg_access_ns", [](SimBoardOptions* o) { o->reg_access_ns = -10; }},
      {"dma_setup_ns", [](SimBoardOptions* o) { o->dma_setup_ns = 15; }},
      {"dma_mb_per_s", [](SimBoardOptions* o) { o->dma_mb_per_s = 0; }},
      {"dma_mb_per_s", [](SimBoardOptions* o) { o->dma_mb_per_s = 3250; }},
      {"regmap", [](SimBoardOptions* o) { o->regmap = 3; }},
      {"config", [](SimBoardOptions* o) { o->config.D = 64; }},
      {"mem.latency", [](SimBoardOptions* o) { o->mem.latency = 0; }},
      {"mem.stall_percent", [](SimBoardOptions* o) { o->mem.stall_percent = 101; }},
      {"mem.beats_per_cycle", [](SimBoardOptions* o) { o->mem.beats_per_cycle = 0; }},
      {"mem.queue_beats", [](SimBoardOptions* o) { o->mem.queue_beats = 0; }},
  };
  for (const Case& c : cases) {
    SimBoardOptions opts;
    c.set(&opts);
    StatusOr<std::unique_ptr<SimBoard>> board = SimBoard::Create(opts);
    EXPECT_EQ(board.status().code(), StatusCode::kInvalidArgument) << c.field;
    EXPECT_NE(board.status().message().find(std::string("SimBoardOptions.") + c.field),
              std::string::npos)
        << board.status().message();
  }
  // Rejected options leave the process free to make its board.
  EXPECT_TRUE(SimBoard::Create().ok());
}

}  // namespace
}  // namespace otpu::board
