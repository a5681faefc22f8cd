// The roofline: the busier port bounds a slice, the slowest slice the run.
#include "lens/roofline.h"

#include <gtest/gtest.h>

namespace otpu::lens {
namespace {

TEST(Roofline, TheBusierPortBoundsASlice) {
  EXPECT_EQ(SliceRooflineOf(300, 120), (SliceRoofline{300, 120, 300}));
  Ports ports;
  ports.bmxu = 10;
  ports.bdma = 5;
  ports.amxu = 12;
  ports.aq = 7;
  EXPECT_EQ(SliceRooflineOf(ports), (SliceRoofline{15, 19, 19}));
}

TEST(Roofline, TheSlowestSliceBoundsTheRun) {
  const Roofline r = RooflineOf({SliceRooflineOf(100, 40), SliceRooflineOf(20, 250)}, 1000);
  EXPECT_EQ(r.bound, 250);
  EXPECT_DOUBLE_EQ(r.efficiency, 0.25);
  EXPECT_EQ(r.per_slice.size(), 2u);
}

TEST(Roofline, NoCyclesIsNoEfficiency) {
  EXPECT_EQ(RooflineOf({SliceRooflineOf(5, 5)}, 0).efficiency, 0.0);
  EXPECT_EQ(RooflineOf({}, 100).bound, 0);
}

}  // namespace
}  // namespace otpu::lens
