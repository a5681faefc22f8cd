// The streamed trace keeps up (docs/trace.md "Streaming"): every workload of `lens list` that
// runs without a checkpoint, recorded on the board model through Card with the trace drained
// while the core runs, at 0% and 20% DRAM stalls, with the host's register accesses and DMA
// charged as a card costs them (docs/board.md "Time"): nothing dropped, nothing lost, the halt
// and every instruction's end in the trace. (hw = rtl parity for the same workloads is the
// regression's: regress/default.json.) One SimBoard per process: ctest runs each case alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "host/card.h"
#include "lens/board_step_runner.h"
#include "lens/recorder.h"
#include "sim/board/sim_board.h"
#include "workloads/list.h"
#include "workloads/traced_steps.h"

namespace otpu::lens {
namespace {

struct Case {
  const char* name;
  int stall;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.name << " stall " << c.stall; }

class StreamKeepsUpTest : public ::testing::TestWithParam<Case> {};

TEST_P(StreamKeepsUpTest, NothingDroppedNothingLost) {
  auto board = board::SimBoard::Create();
  ASSERT_TRUE(board.ok()) << board.status().message();
  rtl::DramOptions mem = board::SimBoardOptions::DefaultMemory();
  mem.stall_percent = GetParam().stall;
  (*board)->SetMemory(mem);
  auto card = host::Card::Probe(board->get());
  ASSERT_TRUE(card.ok()) << card.status().message();
  ASSERT_TRUE((*card)->info().has_trace_stream());
  auto run = workloads::MakeTracedWorkload(GetParam().name, (*card)->config(), {});
  ASSERT_TRUE(run.ok()) << run.status().message();
  BoardRunnerOptions opts;
  opts.mem = mem.Name();
  opts.timeout = std::chrono::minutes(20);
  BoardStepRunner runner(card->get(), opts);
  RecordOptions ropts;
  ropts.bucket_cycles = int((*card)->info().counter_window());
  auto rec = Record(*run, runner, ropts);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ASSERT_FALSE(rec->profiles.empty());
  const Profile& hw = rec->profiles.back();
  ASSERT_TRUE(hw.hwtrace.has_value());
  const HwTrace& t = *hw.hwtrace;
  EXPECT_EQ(t.keep, "stream");
  EXPECT_EQ(t.drop, 0);
  EXPECT_EQ(t.lost, 0);
  EXPECT_EQ(t.records, t.count);
  EXPECT_TRUE(t.complete);
  EXPECT_EQ(hw.cycles, runner.last().counters.cycles);
  const host::TraceDrain& d = *runner.last().trace;
  std::printf("%s stall %d: %lld cycles, %lld records in %lld drains (%.3f records a cycle)\n",
              GetParam().name, GetParam().stall, (long long)hw.cycles, (long long)t.count,
              (long long)d.drains, double(t.count) / double(std::max<int64_t>(1, hw.cycles)));
}

INSTANTIATE_TEST_SUITE_P(
    Workloads, StreamKeepsUpTest,
    ::testing::Values(Case{"mlp-small", 0}, Case{"mlp-small", 20}, Case{"mlp", 0},
                      Case{"mlp", 20}, Case{"mlp8", 0}, Case{"mlp8", 20}, Case{"attn", 0},
                      Case{"attn", 20}, Case{"attn-qwen", 0}, Case{"attn-qwen", 20},
                      Case{"layer", 0}, Case{"layer", 20}, Case{"qwen-tiny", 0},
                      Case{"qwen-tiny", 20}),
    [](const ::testing::TestParamInfo<Case>& i) {
      std::string n = std::string(i.param.name) + "_stall" + std::to_string(i.param.stall);
      std::replace(n.begin(), n.end(), '-', '_');
      return n;
    });

}  // namespace
}  // namespace otpu::lens
