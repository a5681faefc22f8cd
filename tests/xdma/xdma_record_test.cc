// The recorder over the XDMA path equals the recorder over the board model: the same workload
// recorded through Card on XdmaBoard on otpu-xdma-emu (a SimBoard in another process, reached
// through FUSE) and through Card on a SimBoard in this process gives the same profiles,
// instruction for instruction, counter for counter, bucket for bucket, and passes its check.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "host/xdma/xdma_board.h"
#include "host/xdma_emu/test_emulator.h"
#include "lens/board_record.h"
#include "lens/profile_json.h"
#include "sim/board/sim_board.h"
#include "workloads/traced_steps.h"

namespace otpu {
namespace {

using xdma_emu::testing::Emulator;

// The profiles of `name` (its default traced step) recorded on `board`, as JSON.
StatusOr<std::string> RecordOn(host::BoardIface* board, const std::string& name,
                               workloads::TraceRequest request) {
  ASSIGN_OR_RETURN(std::unique_ptr<lens::BoardRecorder> recorder,
                   lens::BoardRecorder::Probe(board));
  ASSIGN_OR_RETURN(workloads::WorkloadRun run,
                   workloads::MakeTracedWorkload(name, recorder->info().config, request));
  lens::BoardRecordOptions opts;
  opts.runner.timeout = std::chrono::milliseconds(300000);  // the board model is slow
  opts.runner.mem = board::SimBoardOptions::DefaultMemory().Name();
  ASSIGN_OR_RETURN(lens::BoardRecording rec, recorder->Record(run, opts));
  if (!rec.check.ok()) return Internal(name + " check failed: " + rec.check.detail);
  lens::ProfileFile file;
  file.created = "fixed";
  file.profiles = std::move(rec.profiles);
  return lens::ProfileFileToJson(file);
}

void ExpectSameProfiles(const std::string& name, workloads::TraceRequest request) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  StatusOr<std::unique_ptr<host::XdmaBoard>> xdma = host::XdmaBoard::Create(emu.prefix());
  ASSERT_TRUE(xdma.ok()) << xdma.status().message();
  StatusOr<std::string> via_xdma = RecordOn(xdma->get(), name, request);
  ASSERT_TRUE(via_xdma.ok()) << via_xdma.status().message();

  StatusOr<std::unique_ptr<board::SimBoard>> sim = board::SimBoard::Create();
  ASSERT_TRUE(sim.ok()) << sim.status().message();
  StatusOr<std::string> via_sim = RecordOn(sim->get(), name, request);
  ASSERT_TRUE(via_sim.ok()) << via_sim.status().message();

  EXPECT_GT(via_xdma->size(), 1000u);
  EXPECT_TRUE(*via_xdma == *via_sim) << name << ": the profiles differ (" << via_xdma->size()
                                     << " vs " << via_sim->size() << " bytes of JSON)";
}

TEST(XdmaRecord, MlpSmallProfileEqualsTheBoardModels) { ExpectSameProfiles("mlp-small", {}); }

// Positions 0..3, the last traced (about 20 s: both paths run the board model).
TEST(XdmaRecord, QwenTinyStepEqualsTheBoardModels) { ExpectSameProfiles("qwen-tiny", {}); }

}  // namespace
}  // namespace otpu
