#include "lens/board_record.h"

#include <gtest/gtest.h>

namespace otpu::lens {
namespace {

Profile HwProfile(HwTrace t) {
  Profile p;
  p.kind = ProfileKind::kHw;
  p.name = "qwen-tiny step 3";
  p.cycles = 81234;
  p.roofline.efficiency = 0.451;
  p.hwtrace = t;
  return p;
}

TEST(ProfileLine, SaysCyclesRooflineAndTheTrace) {
  HwTrace t;
  t.records = t.count = 12345;
  t.complete = true;
  EXPECT_EQ(ProfileLine(HwProfile(t)),
            "qwen-tiny step 3: hw profile, 81234 cycles, 45.1% of the roofline, 12345 records "
            "(count 12345, drop 0, lost 0, not wrapped)");
  EXPECT_TRUE(LossWarnings(HwProfile(t)).empty());
  HwTrace streamed = t;
  streamed.keep = "stream";
  EXPECT_EQ(ProfileLine(HwProfile(streamed)),
            "qwen-tiny step 3: hw profile, 81234 cycles, 45.1% of the roofline, 12345 records "
            "(count 12345, drop 0, lost 0, streamed)");
  Profile board = HwProfile(t);
  board.kind = ProfileKind::kBoard;
  board.hwtrace.reset();
  EXPECT_EQ(ProfileLine(board),
            "qwen-tiny step 3: board profile, 81234 cycles, 45.1% of the roofline, counters only "
            "(no trace buffer)");
}

TEST(LossWarnings, NameDropsAndRecordsPastTheBuffer) {
  HwTrace t;
  t.count = 70000;
  t.depth = 65536;
  t.records = 65536;
  t.lost = 70000 - 65536;
  t.drop = 12;
  t.traced_to = 5000;
  EXPECT_EQ(LossWarnings(HwProfile(t)),
            (std::vector<std::string>{
                "warning: qwen-tiny step 3: the capture queue dropped 12 events (TRACE_DROP)",
                "warning: qwen-tiny step 3: 4464 of 70000 records did not fit the buffer of 65536: "
                "the run after cycle 5000 is missing"}));
  t.keep = "last";
  t.drop = 0;
  EXPECT_EQ(LossWarnings(HwProfile(t)).back(),
            "warning: qwen-tiny step 3: 4464 of 70000 records did not fit the buffer of 65536: "
            "the ring kept the last ones");
}

}  // namespace
}  // namespace otpu::lens
