// The captured check: the real report goes to the caller, the copy's check always passes, and
// the rest of the workload is copied whole.
#include "workloads/captured_check.h"

#include <gtest/gtest.h>

namespace otpu::workloads {
namespace {

TEST(WithCapturedCheck, ReportsTheRealCheckAndPasses) {
  WorkloadRun run;
  run.name = "w";
  run.steps.resize(2);
  run.outputs.push_back({64, 8});
  run.check = [](const SparseMemory&) {
    CheckReport bad;
    bad.rel_l2 = 0.5;
    bad.bound = 0.1;
    bad.detail = "rel_l2 0.5";
    return bad;
  };
  CheckReport captured;
  const WorkloadRun copy = WithCapturedCheck(run, &captured);
  EXPECT_EQ(copy.name, "w");
  EXPECT_EQ(copy.steps.size(), 2u);
  ASSERT_EQ(copy.outputs.size(), 1u);
  EXPECT_EQ(copy.outputs[0].addr, 64u);
  EXPECT_TRUE(copy.check(SparseMemory(4096)).ok());
  EXPECT_FALSE(captured.ok());
  EXPECT_EQ(captured.detail, "rel_l2 0.5");
}

}  // namespace
}  // namespace otpu::workloads
