// Parity on the board model (SPEC 5): a workload recorded through Card and
// the trace buffer (BoardStepRunner) gives the hw profile that the core's lossless event tap
// (SimBoard::AddHook with the RTL's EventCollector) gives as an rtl profile of the same run,
// and the decoded records equal that event stream. mlp-small, a small attention, a small
// layer, a qwen-tiny decode step (positions 0..2 untraced, 3 traced) and mlp8 (more records
// than the buffer holds: streamed), at 0% and 20% DRAM stalls, on a board of the build's default configuration and on one of the card's `board`
// configuration (both are built). One SimBoard per process: ctest runs each case alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "host/card.h"
#include "lens/board_step_runner.h"
#include "lens/build_hw_profile.h"
#include "lens/profile_json.h"
#include "lens/rtl_step_runner.h"
#include "lens/trace/decoder.h"
#include "sim/board/sim_board.h"
#include "sim/rtl/event_collector.h"
#include "workloads/kernels/attn.h"
#include "workloads/kernels/kv_cache.h"
#include "workloads/kernels/layer.h"
#include "tests/workloads/kernel_test_util.h"
#include "workloads/list.h"

namespace otpu::lens {
namespace {

struct Case {
  const char* name;
  int stall;                 // DRAM stall percent
  const char* config = "";   // RTL configuration of the board ("": the build's default)
  TraceKeep keep = TraceKeep::kAuto;  // auto: streamed (the board model has CAPS bit2)
};
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name << " stall " << c.stall << (*c.config ? " config " : "") << c.config << " keep "
      << TraceKeepName(c.keep);
}

std::vector<float> Random(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

// A one-step workload of `program` over `image`, outputs `out`, no check (parity is the check).
workloads::WorkloadRun OneStep(const std::string& name, const isa::Config& cfg,
                               isa::Program program, SparseMemory image,
                               std::array<uint32_t, 8> args, workloads::DramRange out) {
  workloads::WorkloadRun run;
  run.name = name;
  run.config = cfg;
  run.program = std::move(program);
  run.image = std::move(image);
  run.steps = {workloads::Step{.args = args, .traced = true}};
  run.outputs = {out};
  return run;
}

workloads::WorkloadRun AttnSmall(const isa::Config& cfg) {
  SparseMemory image(cfg.DRAM_BYTES);
  kernels::SmallAttn attn = kernels::WriteSmallAttn(cfg, &image);
  const kernels::AttnShape& shape = attn.plan.shape;
  return OneStep("attn-small", cfg, std::move(attn.program), std::move(image), {},
                 {attn.plan.out, uint64_t(shape.hq) * shape.hd * 4});
}

// The layer of the list at hidden 256, 4 q / 2 kv heads, a 64-position cache, position 5.
workloads::WorkloadRun LayerSmall(const isa::Config& cfg) {
  constexpr int kPos = 5;
  SparseMemory image(cfg.DRAM_BYTES);
  kernels::DramLayout dram(workloads::kImageBase, uint32_t(cfg.D));
  const kernels::LayerShape shape{.h = 256, .hq = 4, .hkv = 2, .hd = 128, .t_max = 64};
  auto plan = kernels::PlanLayer(shape, cfg, 1, &dram);
  OTPU_CHECK(plan.ok());
  OTPU_CHECK(
      kernels::WriteLayerWeights(*plan, kernels::LayerWeights::Random(plan->shape, 1), &image)
          .ok());
  const size_t prefix = size_t(shape.hkv) * kPos * shape.hd;
  OTPU_CHECK(
      kernels::WriteKvPrefix(plan->core.kv, Random(prefix, 3), Random(prefix, 4), kPos, &image)
          .ok());
  OTPU_CHECK(kernels::WriteLayerInput(*plan, 0, Random(size_t(shape.h), 2), &image).ok());
  isa::ProgramBuilder b;
  kernels::EmitLayer(b, *plan);
  auto args = kernels::LayerArgs(*plan, kPos, 0);
  OTPU_CHECK(args.ok());
  return OneStep("layer-small", cfg, b.Finish(), std::move(image), *args,
                 {plan->y, uint64_t(shape.h) * 4});
}

workloads::WorkloadRun Make(const std::string& name, const isa::Config& cfg) {
  if (name == "attn-small") return AttnSmall(cfg);
  if (name == "layer-small") return LayerSmall(cfg);
  auto run = workloads::MakeWorkload(name, cfg);
  OTPU_CHECK(run.ok());
  return std::move(run).value();
}

// The profile as compared: kind, name, the card's counters and hwtrace are the hw path's own.
std::string Json(Profile p) {
  p.kind = ProfileKind::kRtl;
  p.name = "x";
  p.hwtrace.reset();
  p.board.reset();
  ProfileFile f;
  f.profiles.push_back(std::move(p));
  auto j = ProfileFileToJson(f);
  OTPU_CHECK(j.ok());
  return *j;
}

class BoardParityTest : public ::testing::TestWithParam<Case> {};

TEST_P(BoardParityTest, HwProfileEqualsRtlProfileAndRecordsEqualTheEvents) {
  board::SimBoardOptions bopts;
  if (*GetParam().config) {
    auto named = rtl::BuiltConfigNamed(GetParam().config);
    ASSERT_TRUE(named.ok()) << named.status().message();
    bopts.config = *named;
  }
  auto board = board::SimBoard::Create(bopts);
  ASSERT_TRUE(board.ok()) << board.status().message();
  rtl::DramOptions mem = board::SimBoardOptions::DefaultMemory();
  mem.stall_percent = GetParam().stall;
  (*board)->SetMemory(mem);
  auto card = host::Card::Probe(board->get());
  ASSERT_TRUE(card.ok()) << card.status().message();
  const isa::Config cfg = (*card)->config();
  EXPECT_EQ(cfg.name, bopts.config.name) << "Card reads the board's configuration from VERSION";
  rtl::EventCollector collector(cfg);
  (*board)->AddHook(&collector);  // the last run it saw is the traced one (the last step)

  const workloads::WorkloadRun run = Make(GetParam().name, cfg);
  BoardRunnerOptions opts;
  opts.mem = mem.Name();
  opts.timeout = std::chrono::minutes(5);
  opts.keep = GetParam().keep;
  opts.keep_records = true;  // decoded again below, record by record
  BoardStepRunner runner(card->get(), opts);
  RecordOptions ropts;
  ropts.bucket_cycles = int((*card)->info().counter_window());
  auto rec = Record(run, runner, ropts);
  ASSERT_TRUE(rec.ok()) << rec.status().message();
  ASSERT_EQ(rec->profiles.size(), 1u);
  ASSERT_TRUE(collector.status().ok()) << collector.status().message();
  ASSERT_TRUE(collector.halted());

  const Profile& hw = rec->profiles[0];
  ASSERT_TRUE(hw.hwtrace.has_value());
  EXPECT_TRUE(hw.hwtrace->complete);
  EXPECT_EQ(hw.hwtrace->drop, 0);
  EXPECT_EQ(hw.hwtrace->lost, 0);
  EXPECT_EQ(hw.hwtrace->keep, GetParam().keep == TraceKeep::kAuto ? std::string("stream")
                                                                    : TraceKeepName(GetParam().keep));
  EXPECT_EQ(hw.cycles, runner.last().counters.cycles);
  const decode::TraceRun want =
      ToTraceRun(collector.events(), collector.windows(), collector.ports(), collector.halted());
  auto rtl = BuildRtlProfile("rtl", cfg, run.program, want, ropts.bucket_cycles, mem.Name());
  ASSERT_TRUE(rtl.ok()) << rtl.status().message();
  EXPECT_EQ(Json(hw), Json(*rtl));

  auto tokens = decode::Tokenize(runner.records());
  ASSERT_TRUE(tokens.ok()) << tokens.status().message();
  auto decoded = decode::Decode(*tokens, run.program, cfg);
  ASSERT_TRUE(decoded.ok()) << decoded.status().message();
  const trace::RunEvents& got = decoded->run.events;
  EXPECT_EQ(got.cycles, want.events.cycles);
  ASSERT_EQ(got.instrs.size(), want.events.instrs.size());
  for (size_t i = 0; i < got.instrs.size(); ++i) {
    const trace::InstrEvent &a = got.instrs[i], &b = want.events.instrs[i];
    ASSERT_TRUE(a.pc == b.pc && a.resolved == b.resolved && a.dispatch == b.dispatch &&
                a.ready == b.ready && a.release == b.release && a.start == b.start &&
                a.end == b.end && a.counters == b.counters && a.work == b.work)
        << "instruction " << i << " (pc " << b.pc << ")";
  }
  EXPECT_EQ(decoded->run.windows, want.windows);
  EXPECT_EQ(decoded->run.ports, want.ports);
  std::printf("%s (%s, %s): %lld cycles, %zu records, %zu instructions\n", GetParam().name,
              cfg.name.c_str(), mem.Name().c_str(), (long long)hw.cycles, runner.records().size(),
              got.instrs.size());
}

INSTANTIATE_TEST_SUITE_P(Workloads, BoardParityTest,
                         ::testing::Values(Case{"mlp-small", 0}, Case{"mlp-small", 20},
                                           Case{"attn-small", 0}, Case{"attn-small", 20},
                                           Case{"layer-small", 0}, Case{"layer-small", 20},
                                           Case{"qwen-tiny", 0}, Case{"qwen-tiny", 20},
                                           Case{"mlp-small", 0, "board"},
                                           Case{"mlp-small", 20, "board"},
                                           Case{"attn-small", 20, "board"},
                                           Case{"layer-small", 20, "board"},
                                           // mlp8 overflowed the 64 Ki buffer (keep first lost
                                           // most of it); streamed, it is whole.
                                           Case{"mlp8", 0}, Case{"mlp8", 20},
                                           // The buffer alone, as on a card without streaming.
                                           Case{"mlp-small", 20, "", TraceKeep::kFirst},
                                           Case{"qwen-tiny", 0, "", TraceKeep::kLast}),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           std::string n =
                               std::string(i.param.name) + "_stall" + std::to_string(i.param.stall);
                           if (*i.param.config) n += std::string("_") + i.param.config;
                           if (i.param.keep != TraceKeep::kAuto) {
                             n += std::string("_keep_") + TraceKeepName(i.param.keep);
                           }
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

}  // namespace
}  // namespace otpu::lens
