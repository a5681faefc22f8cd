// RtlParityTap and RtlParity on the real board model: a recording's hw profiles equal the rtl
// profiles of their runs, and a changed time, a missing run or a tap that saw no traced run
// are named.
#include "host/programs/rtl_parity_tap.h"

#include <gtest/gtest.h>

#include "host/programs/board_factory.h"
#include "lens/board_record.h"
#include "sim/rtl/rtl_configs.h"
#include "workloads/traced_steps.h"

namespace otpu::host {
namespace {

struct Recorded {
  lens::BoardRecording rec;
  std::vector<lens::decode::TraceRun> runs;
  workloads::WorkloadRun run;
  int board_runs = 0;
};

// qwen-tiny's steps 1 and 2 traced after an untraced step 0, on the board model with the tap.
Recorded RecordQwenTiny() {
  const isa::Config cfg = rtl::BuiltConfig();
  RtlParityTap tap(cfg);
  BoardChoice choice;
  choice.sim = true;
  choice.hook = &tap;
  StatusOr<std::unique_ptr<BoardIface>> board = MakeBoard(choice);
  OTPU_CHECK(board.ok());
  workloads::TraceRequest req;
  req.pos = 1;
  req.tokens = 2;
  StatusOr<workloads::WorkloadRun> run = workloads::MakeTracedWorkload("qwen-tiny", cfg, req);
  OTPU_CHECK(run.ok());
  std::vector<bool> traced;
  for (const workloads::Step& s : run->steps) traced.push_back(s.traced);
  tap.SetTraced(traced);
  lens::BoardRecordOptions opts;
  opts.runner.mem = BoardMemoryName(choice);
  StatusOr<lens::BoardRecording> rec = lens::RecordOnBoard(**board, *run, opts);
  OTPU_CHECK(rec.ok());
  StatusOr<std::vector<lens::decode::TraceRun>> runs = tap.TracedRuns();
  OTPU_CHECK(runs.ok());
  return {std::move(*rec), std::move(*runs), std::move(*run), tap.runs()};
}

class RtlParityTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { recorded_ = new Recorded(RecordQwenTiny()); }
  static void TearDownTestSuite() { delete recorded_; }
  static StatusOr<std::string> Parity(const std::vector<lens::Profile>& hw,
                                      const std::vector<lens::decode::TraceRun>& runs) {
    const Recorded& r = *recorded_;
    return RtlParity(hw, runs, r.rec.info.config, r.run.program, r.rec.bucket_cycles, "axi");
  }
  static Recorded* recorded_;
};
Recorded* RtlParityTest::recorded_ = nullptr;

TEST_F(RtlParityTest, EveryTracedStepEqualsItsRunsRtlProfile) {
  ASSERT_EQ(recorded_->run.steps.size(), 3u);
  EXPECT_FALSE(recorded_->run.steps[0].traced);
  EXPECT_EQ(recorded_->board_runs, 3);  // one core run per step, traced or not
  ASSERT_EQ(recorded_->rec.profiles.size(), 2u);
  ASSERT_EQ(recorded_->runs.size(), 2u);
  StatusOr<std::string> first = Parity(recorded_->rec.profiles, recorded_->runs);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(*first, "");
}

TEST_F(RtlParityTest, AnInstructionThatEndsOneCycleLaterIsNamed) {
  std::vector<lens::Profile> hw = recorded_->rec.profiles;
  ASSERT_GT(hw[1].instrs.size(), 7u);
  hw[1].instrs[7].end += 1;
  StatusOr<std::string> first = Parity(hw, recorded_->runs);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->rfind("profile 2 of 2 (qwen-tiny step 2): instruction 7 (pc ", 0), 0u) << *first;
  EXPECT_NE(first->find(": end "), std::string::npos) << *first;
}

// The tap pairs runs with steps by count: a board that ran the core another number of times
// than the workload has steps makes it refuse to answer.
TEST(RtlParityTapTest, ARunCountOtherThanTheStepsIsAnError) {
  RtlParityTap tap(rtl::BuiltConfig());
  tap.SetTraced({false, true});
  tap.OnRunStart();
  tap.OnRunEnd();
  StatusOr<std::vector<lens::decode::TraceRun>> runs = tap.TracedRuns();
  ASSERT_FALSE(runs.ok());
  EXPECT_EQ(runs.status().message(), "the board ran the core 1 times for 2 steps");
}

// A traced run whose events break the collector's rule (here an end for a slot that holds no
// instruction, as a broken core would give) is an error naming the step; an untraced one is not
// looked at.
TEST(RtlParityTapTest, ABrokenEventRuleInATracedStepIsAnErrorNamingIt) {
  RtlParityTap tap(rtl::BuiltConfig());
  tap.SetTraced({false, true});
  rtl::CoreCycle c;
  c.any = true;
  c.cycle = 7;
  c.end[0].valid = true;
  c.end[0].slot = 3;
  for (int step = 0; step < 2; ++step) {
    tap.OnRunStart();
    tap.OnClock(c);
    tap.OnRunEnd();
  }
  StatusOr<std::vector<lens::decode::TraceRun>> runs = tap.TracedRuns();
  ASSERT_FALSE(runs.ok());
  EXPECT_EQ(runs.status().code(), StatusCode::kInternal);
  EXPECT_EQ(runs.status().message(),
            "step 1: cycle 7: end event for slot 3, which holds no instruction");
}

TEST_F(RtlParityTest, ARunMissingFromTheTapIsAnError) {
  std::vector<lens::decode::TraceRun> runs = recorded_->runs;
  runs.pop_back();
  StatusOr<std::string> first = Parity(recorded_->rec.profiles, runs);
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.status().message(), "the core's event tap saw 1 traced runs for 2 profiles");
}

// The runs are told apart by position: a step order that does not match gives another run's
// profile, which parity names rather than passing.
TEST_F(RtlParityTest, AnotherStepsRunDiffers) {
  std::vector<lens::decode::TraceRun> runs = {recorded_->runs[1], recorded_->runs[0]};
  StatusOr<std::string> first = Parity(recorded_->rec.profiles, runs);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first->rfind("profile 1 of 2 (qwen-tiny step 1): ", 0), 0u) << *first;
}

}  // namespace
}  // namespace otpu::host
