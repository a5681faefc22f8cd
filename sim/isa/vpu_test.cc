// VOP: every function and B mode on small hand-made cases.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/isa/fp32.h"
#include "sim/isa/test_util.h"

namespace otpu::sim {
namespace {

using isa::At;
using isa::VopFn;

constexpr uint32_t kA = 1000, kB = 2000, kDst = 3000;

class VopTest : public IsaSimTest {
 protected:
  // A(r, j) and B(r, j) at rows of stride `stride`: simple distinct normal values.
  void FillAB(uint32_t m, uint32_t n, uint32_t stride) {
    for (uint32_t r = 0; r < m; ++r) {
      for (uint32_t j = 0; j < n; ++j) {
        SetT(kA + r * stride + j, float(int(r * 5 + j * 3) - 7) * 0.375f);
        SetT(kB + r * stride + j, float(int(j * 2 + r) - 3) * 1.25f + 0.5f);
      }
    }
  }
  float A(uint32_t r, uint32_t j, uint32_t stride) const { return T(kA + r * stride + j); }
  float B(uint32_t r, uint32_t j, uint32_t stride) const { return T(kB + r * stride + j); }
  bool Ok(const isa::VopOp& op) {
    auto r = RunCode({isa::EncodeVop(op)});
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok();
  }
};

TEST_F(VopTest, AddSubMulMaxMinWithFullB) {
  const uint32_t m = 2, n = 5, s = 8;
  FillAB(m, n, s);
  struct Case {
    VopFn fn;
    float (*f)(float, float);
  } cases[] = {
      {VopFn::kADD, [](float a, float b) { return a + b; }},
      {VopFn::kSUB, [](float a, float b) { return a - b; }},
      {VopFn::kMUL, [](float a, float b) { return a * b; }},
      {VopFn::kMAX, [](float a, float b) { return a > b ? a : b; }},
      {VopFn::kMIN, [](float a, float b) { return a < b ? a : b; }},
  };
  for (const Case& c : cases) {
    isa::VopOp op = Vop(c.fn, kDst, kA, kB, n, m);
    op.dst_stride = op.a_stride = op.b_stride = s;
    ASSERT_TRUE(Ok(op));
    for (uint32_t r = 0; r < m; ++r)
      for (uint32_t j = 0; j < n; ++j)
        EXPECT_EQ(T(kDst + r * s + j), c.f(A(r, j, s), B(r, j, s))) << int(c.fn) << " " << r << "," << j;
  }
}

TEST_F(VopTest, RowModeUsesOneBPerRow) {
  FillAB(3, 4, 4);
  isa::VopOp op = Vop(VopFn::kMUL, kDst, kA, kB, 4, 3);
  op.bmode = isa::BMode::kROW;
  op.b_stride = 2;
  ASSERT_TRUE(Ok(op));
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t j = 0; j < 4; ++j) EXPECT_EQ(T(kDst + r * 4 + j), A(r, j, 4) * T(kB + 2 * r));
}

TEST_F(VopTest, ColModeUsesOneBPerColumn) {
  FillAB(3, 4, 4);
  isa::VopOp op = Vop(VopFn::kADD, kDst, kA, kB, 4, 3);
  op.bmode = isa::BMode::kCOL;
  op.b_stride = 1000;  // ignored in COL mode
  ASSERT_TRUE(Ok(op));
  for (uint32_t r = 0; r < 3; ++r)
    for (uint32_t j = 0; j < 4; ++j) EXPECT_EQ(T(kDst + r * 4 + j), A(r, j, 4) + T(kB + j));
}

TEST_F(VopTest, ScalarModeUsesOneB) {
  FillAB(2, 3, 3);
  isa::VopOp op = Vop(VopFn::kSUB, kDst, kA, kB + 4, 3, 2);
  op.bmode = isa::BMode::kSCALAR;
  ASSERT_TRUE(Ok(op));
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t j = 0; j < 3; ++j) EXPECT_EQ(T(kDst + r * 3 + j), A(r, j, 3) - T(kB + 4));
}

TEST_F(VopTest, BZeroReadsNoB) {
  FillAB(1, 4, 4);
  SetT(kA + 1, -0.0f);
  isa::VopOp op = Vop(VopFn::kADD, kDst, kA, 0xFFFFFF00u, 4);  // B outside TMEM: never read
  op.bzero = true;
  ASSERT_TRUE(Ok(op));
  for (uint32_t j = 0; j < 4; ++j) EXPECT_EQ(T(kDst + j), A(0, j, 4) + 0.0f);
  EXPECT_EQ(fp32::Bits(T(kDst + 1)), 0u);  // -0 + +0 = +0
}

TEST_F(VopTest, CopyAndFillMoveBitsUnchanged) {
  sim.tmem()[kA] = 0x7FA00001u;      // a signalling NaN: not canonicalised by COPY
  sim.tmem()[kA + 1] = 0x00000123u;  // a subnormal: not flushed by COPY
  sim.tmem()[kB] = 0xFFC0BEEFu;
  isa::VopOp copy = Vop(VopFn::kCOPY, kDst, kA, 0xFFFFFF00u, 2);  // COPY reads no B
  ASSERT_TRUE(Ok(copy));
  EXPECT_EQ(sim.tmem()[kDst], 0x7FA00001u);
  EXPECT_EQ(sim.tmem()[kDst + 1], 0x00000123u);
  isa::VopOp fill = Vop(VopFn::kFILL, kDst + 10, 0xFFFFFF00u, kB, 3);  // FILL reads no A
  fill.bmode = isa::BMode::kSCALAR;
  ASSERT_TRUE(Ok(fill));
  for (int j = 0; j < 3; ++j) EXPECT_EQ(sim.tmem()[kDst + 10 + j], 0xFFC0BEEFu);
}

TEST_F(VopTest, CompositeFunctionsApplyToTheScaledDifference) {
  const uint32_t n = 6;
  for (uint32_t j = 0; j < n; ++j) {
    SetT(kA + j, 0.75f * float(j) + 0.5f);
    SetT(kB + j, 0.25f);
  }
  const float c = 1.5f;
  struct Case {
    VopFn fn;
    float (*f)(float);
    double (*ref)(double);
  } cases[] = {
      {VopFn::kEXP2, fp32::Exp2, [](double x) { return std::exp2(x); }},
      {VopFn::kRECIP, fp32::Recip, [](double x) { return 1.0 / x; }},
      {VopFn::kRSQRT, fp32::Rsqrt, [](double x) { return 1.0 / std::sqrt(x); }},
  };
  for (const Case& cs : cases) {
    isa::VopOp op = Vop(cs.fn, kDst, kA, kB, n);
    op.c = fp32::Bits(c);
    ASSERT_TRUE(Ok(op));
    for (uint32_t j = 0; j < n; ++j) {
      float x = (T(kA + j) - 0.25f) * c;  // exact for these values
      EXPECT_EQ(fp32::Bits(T(kDst + j)), fp32::Bits(cs.f(x))) << int(cs.fn) << " " << j;
      EXPECT_NEAR(T(kDst + j), cs.ref(x), 1e-6 * std::fabs(cs.ref(x)));
    }
  }
}

TEST_F(VopTest, RsqrtOfNegativeScaledValueIsNaN) {
  SetT(kA, 4.0f);
  isa::VopOp op = Vop(VopFn::kRSQRT, kDst, kA, 0, 1);
  op.bzero = true;
  op.c = fp32::Bits(-1.0f);
  ASSERT_TRUE(Ok(op));
  EXPECT_EQ(sim.tmem()[kDst], 0x7FC00000u);
  op.c = fp32::Bits(1.0f);
  ASSERT_TRUE(Ok(op));
  EXPECT_NEAR(T(kDst), 0.5f, 1e-7f);
}

TEST_F(VopTest, ScaleIsTheDifferenceTimesC) {
  FillAB(1, 4, 4);
  isa::VopOp op = Vop(VopFn::kSCALE, kDst, kA, kB, 4);
  op.c = fp32::Bits(0.5f);
  ASSERT_TRUE(Ok(op));
  for (uint32_t j = 0; j < 4; ++j) EXPECT_EQ(T(kDst + j), (A(0, j, 4) - B(0, j, 4)) * 0.5f);
}

// LANES = 8 partials and the folding tree, in plain float arithmetic.
float Tree8(const std::vector<float>& x) {
  float p[8] = {};
  for (size_t j = 0; j < x.size(); ++j) p[j % 8] += x[j];
  return ((p[0] + p[4]) + (p[2] + p[6])) + ((p[1] + p[5]) + (p[3] + p[7]));
}

TEST_F(VopTest, RowSumWritesOneScaledWordPerRow) {
  const uint32_t m = 3, n = 13, s = 16;
  std::vector<std::vector<float>> rows(m);
  for (uint32_t r = 0; r < m; ++r)
    for (uint32_t j = 0; j < n; ++j) {
      float v = (j % 4 == 0 ? 3e7f : 1.0f) * float(int(j) - 6 + int(r));
      rows[r].push_back(v);
      SetT(kA + r * s + j, v);
    }
  isa::VopOp op = Vop(VopFn::kRSUM, kDst, kA, 0, n, m);
  op.a_stride = s;
  op.dst_stride = 2;
  op.c = fp32::Bits(0.25f);
  ASSERT_TRUE(Ok(op));
  for (uint32_t r = 0; r < m; ++r) EXPECT_EQ(T(kDst + 2 * r), Tree8(rows[r]) * 0.25f) << r;
  EXPECT_EQ(T(kDst + 1), 0.0f);  // one word per row
}

TEST_F(VopTest, RowSumOfSquaresAndRowMax) {
  const uint32_t n = 20;
  std::vector<float> x, sq;
  for (uint32_t j = 0; j < n; ++j) {
    x.push_back(float(int(j * 7 % 11) - 5) * 0.3f);
    sq.push_back(x.back() * x.back());
    SetT(kA + j, x.back());
  }
  isa::VopOp op = Vop(VopFn::kRSSQ, kDst, kA, 0, n);
  op.c = fp32::Bits(1.0f / 20.0f);
  ASSERT_TRUE(Ok(op));
  EXPECT_EQ(T(kDst), Tree8(sq) * (1.0f / 20.0f));
  op.fn = VopFn::kRMAX;
  op.c = fp32::Bits(2.0f);
  ASSERT_TRUE(Ok(op));
  EXPECT_EQ(T(kDst), 1.5f * 2.0f);  // max of (j*7 % 11 - 5) * 0.3 is 5 * 0.3
}

TEST_F(VopTest, InPlaceOperationReadsBeforeWriting) {
  FillAB(2, 4, 4);
  std::vector<float> want;
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t j = 0; j < 4; ++j) want.push_back(A(r, j, 4) * B(r, j, 4));
  isa::VopOp op = Vop(VopFn::kMUL, kA, kA, kB, 4, 2);
  ASSERT_TRUE(Ok(op));
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(T(kA + i), want[i]);
}

TEST_F(VopTest, SubnormalOperandsAreFlushed) {
  sim.tmem()[kA] = 0x00000005u;  // tiny positive subnormal
  sim.tmem()[kB] = 0x80000000u;  // -0
  isa::VopOp op = Vop(VopFn::kMAX, kDst, kA, kB, 1);
  ASSERT_TRUE(Ok(op));
  EXPECT_EQ(sim.tmem()[kDst], 0u);  // max(+0, -0)
}

}  // namespace
}  // namespace otpu::sim
