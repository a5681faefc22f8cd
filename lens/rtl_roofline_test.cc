// The RTL's performance floor: MLP decode (M=1, H=1024, F=4096) on the Verilated
// core reaches at least 94% of the port-B roofline, in every RTL configuration (`sim` and the
// card's `board`, both built). mlp8 and the attention layer print theirs (recorded numbers,
// no floor).
#include <gtest/gtest.h>

#include <cstdio>

#include "lens/rtl_step_runner.h"
#include "workloads/list.h"

namespace otpu::lens {
namespace {

// Records `name` on the RTL of `cfg` with the ideal memory and prints its cycles and
// efficiency.
Profile RecordOnRtl(const std::string& name, const isa::Config& cfg = rtl::BuiltConfig()) {
  StatusOr<workloads::WorkloadRun> run = workloads::MakeWorkload(name, cfg);
  OTPU_CHECK(run.ok());
  RtlStepRunner runner(rtl::DramOptions{}, kDefaultBucketCycles);
  StatusOr<Recording> rec = Record(*run, runner);
  EXPECT_TRUE(rec.ok()) << rec.status().message();
  if (!rec.ok()) return Profile{};
  const Profile& p = rec->profiles.back();
  std::printf("%s on the %s RTL: %lld cycles, port-B bound %lld, %.1f%% of the roofline "
              "(%.0f kcycles/s)\n",
              name.c_str(), cfg.name.c_str(), (long long)p.cycles, (long long)p.roofline.per_slice[0].portb,
              100 * p.roofline.efficiency,
              double(runner.last().events.cycles) / runner.last().seconds / 1e3);
  return rec->profiles.back();
}

class RtlRoofline : public ::testing::TestWithParam<std::string> {};

TEST_P(RtlRoofline, MlpDecodeReachesAtLeast94PercentOfThePortBRoofline) {
  StatusOr<isa::Config> cfg = rtl::BuiltConfigNamed(GetParam());
  ASSERT_TRUE(cfg.ok()) << cfg.status().message();
  const Profile p = RecordOnRtl("mlp", *cfg);
  ASSERT_GT(p.cycles, 0);
  const SliceRoofline& r = p.roofline.per_slice[0];
  EXPECT_EQ(r.bound, r.portb);  // decode is bound by the weight stream on port B
  EXPECT_GE(double(r.portb) / double(p.cycles), 0.94)
      << p.cycles << " cycles for " << r.portb << " port-B transfers";
}

INSTANTIATE_TEST_SUITE_P(Configs, RtlRoofline, ::testing::Values("sim", "board"),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

TEST(RtlRooflineRecorded, Mlp8RecordsItsEfficiency) {
  const Profile p = RecordOnRtl("mlp8");
  EXPECT_GT(p.roofline.efficiency, 0.0);
  EXPECT_LE(p.roofline.efficiency, 1.0);
}

TEST(RtlRooflineRecorded, AttentionLayerRecordsItsEfficiency) {
  const Profile p = RecordOnRtl("layer");
  EXPECT_GT(p.roofline.efficiency, 0.0);
  EXPECT_LE(p.roofline.efficiency, 1.0);
}

}  // namespace
}  // namespace otpu::lens
