// qwen-tiny decode on the Verilated core against the bit-exact ISA simulator: the
// same steps on both leave the same logits and the same greedy token after every position.
#include <gtest/gtest.h>

#include <cstring>

#include "lens/rtl_step_runner.h"
#include "workloads/models/qwen3_engine.h"
#include "workloads/models/qwen3_workload.h"

namespace otpu::lens {
namespace {

// The vocab fp32 logits the LM head left in `dram`.
std::vector<float> Logits(const models::Qwen3Plan& plan, const SparseMemory& dram) {
  std::vector<float> out(size_t(plan.model.vocab_size));
  dram.Read(plan.logits, out.data(), out.size() * sizeof(float));
  return out;
}

TEST(RtlQwen, LogitsAndGreedyTokensEqualTheIsaSimulatorsAtEveryStep) {
  const models::Qwen3Weights w = models::RandomQwen3(models::Qwen3Config::Tiny(), 0);
  StatusOr<models::Qwen3Engine> engine =
      models::BuildQwen3Engine(w, rtl::BuiltConfig(), models::EngineOptions{});
  ASSERT_TRUE(engine.ok()) << engine.status().message();
  workloads::WorkloadRun run;
  run.name = "qwen-tiny";
  run.config = rtl::BuiltConfig();
  run.program = engine->program;
  run.image = engine->image;

  IsaStepRunner isa;
  RtlStepRunner rtl(rtl::DramOptions{}, kDefaultBucketCycles);
  ASSERT_TRUE(isa.Load(run).ok());
  ASSERT_TRUE(rtl.Load(run).ok());
  // The prompt, then the greedy token of the step before (both boards agree on it, or the
  // test has already failed).
  const int prompt = int(models::kTinyPrompt.size());
  std::vector<int> greedy;
  for (int pos = 0; pos < prompt + 2; ++pos) {
    const int token = pos < prompt ? models::kTinyPrompt[size_t(pos)] : greedy.back();
    StatusOr<workloads::Step> step = models::Qwen3Step(engine->plan, w, token, pos);
    ASSERT_TRUE(step.ok()) << step.status().message();
    for (StepRunner* r : {static_cast<StepRunner*>(&isa), static_cast<StepRunner*>(&rtl)}) {
      for (const workloads::DramWrite& wr : step->writes)
        ASSERT_TRUE(r->WriteDram(wr.addr, wr.bytes).ok());
      StatusOr<trace::RunEvents> ev = r->Run(*step);
      ASSERT_TRUE(ev.ok()) << KindName(r->kind()) << " pos " << pos << ": "
                           << ev.status().message();
    }
    const std::vector<float> a = Logits(engine->plan, isa.dram());
    const std::vector<float> b = Logits(engine->plan, rtl.dram());
    ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)), 0) << "pos " << pos;
    EXPECT_EQ(models::ArgMax(a), models::ArgMax(b)) << "pos " << pos;
    greedy.push_back(models::ArgMax(b));
  }
  // Everything else the steps wrote (KV caches, residuals) agrees too.
  EXPECT_EQ(rtl.dram().FirstDifference(isa.dram()), -1);
}

}  // namespace
}  // namespace otpu::lens
