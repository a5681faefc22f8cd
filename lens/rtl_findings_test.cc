// The findings of rtl profiles (lens/findings.h) on real runs of the Verilated core: mlp8,
// whose MXU consumer is the bottleneck, and mlp-small. The named cause is the attribution's
// biggest, the named instruction the one whose unit counters or runs hold that cause.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "lens/attribution.h"
#include "lens/findings.h"
#include "lens/rtl_step_runner.h"
#include "workloads/list.h"

namespace otpu::lens {
namespace {

Profile RecordOnRtl(const std::string& name) {
  StatusOr<workloads::WorkloadRun> run = workloads::MakeWorkload(name, rtl::BuiltConfig());
  OTPU_CHECK(run.ok());
  RtlStepRunner runner(rtl::DramOptions{}, kDefaultBucketCycles);
  StatusOr<Recording> rec = Record(*run, runner);
  if (!rec.ok()) std::printf("%s\n", rec.status().message().c_str());
  OTPU_CHECK(rec.ok());
  for (const Note& n : rec->profiles.back().notes) std::printf("  %s\n", n.text.c_str());
  return rec->profiles.back();
}

const Profile& Mlp8() {
  static const Profile* p = new Profile(RecordOnRtl("mlp8"));
  return *p;
}
const Profile& MlpSmall() {
  static const Profile* p = new Profile(RecordOnRtl("mlp-small"));
  return *p;
}

// The cause (index into Causes()) with the most cycles, streaming and "nothing" aside.
int BiggestLoss(const Profile& p) {
  const Analysis a = Analyze(p);
  int best = 1;
  for (int q = 1; q < kNumCauses - 1; ++q) {
    if (a.causes[size_t(q)] > a.causes[size_t(best)]) best = q;
  }
  return best;
}

// The pc whose instructions sum the most of unit counter `name`.
int64_t PcWithMost(const Profile& p, const std::string& name) {
  std::map<int64_t, int64_t> sum;
  for (const InstrRow& r : p.instrs) {
    for (const CounterValue& c : r.counters) {
      if (c.name == name) sum[r.pc] += c.value;
    }
  }
  int64_t pc = -1, most = 0;
  for (const auto& [k, v] : sum) {
    if (v > most) most = v, pc = k;
  }
  return pc;
}

// The "pc N NAME" and "at FILE:LINE" of pc `pc`.
std::string Named(const Profile& p, int64_t pc) {
  const ProgramRow& row = p.programs[0][size_t(pc)];
  return "pc " + std::to_string(pc) + " " + row.name;
}
std::string Line(const Profile& p, int64_t pc) {
  const Source& s = p.sources[size_t(p.programs[0][size_t(pc)].source)];
  return " at " + s.file + ":" + std::to_string(s.line);
}

TEST(RtlFindings, Mlp8NamesTheMxuNotConsumingAndItsMm) {
  const Profile& p = Mlp8();
  ASSERT_EQ(BiggestLoss(p), 3);  // notcons: the consumer is the bottleneck
  const int64_t pc = PcWithMost(p, "bp");
  ASSERT_GE(pc, 0);
  ASSERT_GE(p.notes.size(), 2u);
  const std::string& text = p.notes[1].text;
  EXPECT_EQ(text.rfind("MXU not consuming for ", 0), 0u) << text;
  EXPECT_NE(text.find("during " + Named(p, pc)), std::string::npos) << text;
  EXPECT_NE(text.find(Line(p, pc)), std::string::npos) << text;
  EXPECT_EQ(p.programs[0][size_t(pc)].name, "MM");
}

TEST(RtlFindings, MlpSmallNamesItsBiggestLossFirst) {
  const Profile& p = MlpSmall();
  const int q = BiggestLoss(p);
  ASSERT_GE(p.notes.size(), 2u);
  const std::string& text = p.notes[1].text;
  EXPECT_EQ(text.rfind(std::string(Causes()[size_t(q)].label) + " for ", 0), 0u) << text;
  EXPECT_NE(text.find(" during pc "), std::string::npos) << text;
  EXPECT_NE(text.find(".cc:"), std::string::npos) << text;
}

TEST(RtlFindings, MxuGapsAreOrderedAndHoldNoMm) {
  for (const Profile* p : {&Mlp8(), &MlpSmall()}) {
    ASSERT_FALSE(p->mxu_gaps.empty());
    int64_t last = 0;
    for (const MxuGap& g : p->mxu_gaps) {
      EXPECT_GE(g.start, last);
      EXPECT_LT(g.start, g.end);
      EXPECT_LE(g.end, p->cycles);
      last = g.end;
      for (const InstrRow& r : p->instrs) {
        if (r.name != "MM") continue;
        EXPECT_FALSE(r.start < g.end && r.end > g.start)
            << "MM at pc " << r.pc << " runs in gap " << g.start << ".." << g.end;
      }
    }
  }
}

}  // namespace
}  // namespace otpu::lens
