#include "sim/isa/fp32.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

namespace otpu::sim::fp32 {
namespace {

constexpr uint32_t kNaN = 0x7FC00000u;
const float kInf = std::numeric_limits<float>::infinity();
const float kMinNormal = 0x1p-126f;
const float kSubnormal = 0x1p-130f;

float F(uint32_t bits) { return FromBits(bits); }
// A NaN with a payload and the sign set: results must still be the canonical NaN.
float OddNaN() { return F(0xFFC01234u); }
int64_t Ulps(float a, float b) { return std::llabs(int64_t(Bits(a)) - int64_t(Bits(b))); }

TEST(Fp32Ftz, SubnormalsBecomeZerosOfTheSameSign) {
  EXPECT_EQ(Bits(Ftz(kSubnormal)), 0u);
  EXPECT_EQ(Bits(Ftz(-kSubnormal)), 0x80000000u);
  EXPECT_EQ(Bits(Ftz(F(0x007FFFFFu))), 0u);
}

TEST(Fp32Ftz, NormalsZerosAndSpecialsStay) {
  for (float x : {kMinNormal, -kMinNormal, 1.5f, -0.0f, 0.0f, kInf, -kInf})
    EXPECT_EQ(Bits(Ftz(x)), Bits(x)) << x;
}

TEST(Fp32Add, SignedZeros) {
  EXPECT_EQ(Bits(Add(-0.0f, -0.0f)), 0x80000000u);
  EXPECT_EQ(Bits(Add(0.0f, -0.0f)), 0u);
  EXPECT_EQ(Bits(Add(-0.0f, 0.0f)), 0u);
  EXPECT_EQ(Bits(Sub(3.25f, 3.25f)), 0u);
  EXPECT_EQ(Bits(Sub(-3.25f, -3.25f)), 0u);
}

TEST(Fp32Add, SubnormalInputsAreFlushedFirst) {
  EXPECT_EQ(Bits(Add(kSubnormal, kSubnormal)), 0u);
  EXPECT_EQ(Bits(Add(-kSubnormal, 0.0f)), 0u);  // -0 + +0
  EXPECT_EQ(Bits(Add(-kSubnormal, -0.0f)), 0x80000000u);
  EXPECT_EQ(Add(kMinNormal, kSubnormal), kMinNormal);
}

TEST(Fp32Add, SubnormalResultFlushesWithTheExactSign) {
  EXPECT_EQ(Bits(Add(1.5f * kMinNormal, -kMinNormal)), 0u);
  EXPECT_EQ(Bits(Add(-1.5f * kMinNormal, kMinNormal)), 0x80000000u);
  EXPECT_EQ(Add(2.0f * kMinNormal, -kMinNormal), kMinNormal);
}

TEST(Fp32Add, RoundsTiesToEven) {
  EXPECT_EQ(Add(1.0f, 0x1p-24f), 1.0f);                     // halfway, 1.0 is even
  EXPECT_EQ(Add(1.0f + 0x1p-23f, 0x1p-24f), 1.0f + 0x1p-22f);  // halfway, rounds up to even
  EXPECT_EQ(Add(1.0f, 0x1p-24f + 0x1p-40f), 1.0f + 0x1p-23f);  // above half
}

TEST(Fp32Add, InfinitiesAndNaN) {
  EXPECT_EQ(Add(kInf, 1.0f), kInf);
  EXPECT_EQ(Add(F(0x7F7FFFFFu), F(0x7F7FFFFFu)), kInf);
  EXPECT_EQ(Bits(Add(kInf, -kInf)), kNaN);
  EXPECT_EQ(Bits(Add(OddNaN(), 1.0f)), kNaN);
  EXPECT_EQ(Bits(Sub(1.0f, OddNaN())), kNaN);
}

TEST(Fp32Mul, ProductAtMinNormalStays) {
  EXPECT_EQ(Bits(Mul(0x1p-63f, 0x1p-63f)), 0x00800000u);
}

TEST(Fp32Mul, ProductBelowMinNormalFlushesWithItsSign) {
  EXPECT_EQ(Bits(Mul(0x1p-63f, 0x1p-64f)), 0u);
  EXPECT_EQ(Bits(Mul(-0x1p-63f, 0x1p-64f)), 0x80000000u);
  EXPECT_EQ(Bits(Mul(-0x1p-63f, -0x1p-64f)), 0u);
}

TEST(Fp32Mul, ExactProductDecidesTheFlushNotTheRoundedOne) {
  // (1 - 2^-24) * 2^-126 would round up to 2^-126 in IEEE, but the exact product is below it.
  float below_one = F(0x3F7FFFFFu);
  EXPECT_EQ(Bits(Mul(below_one, kMinNormal)), 0u);
  // The same product scaled up by 2 is normal and rounds normally.
  EXPECT_EQ(Mul(below_one, 2.0f * kMinNormal), float(double(below_one) * 0x1p-125));
}

TEST(Fp32Mul, SubnormalInputIsFlushedFirst) {
  EXPECT_EQ(Bits(Mul(kSubnormal, 0x1p100f)), 0u);
  EXPECT_EQ(Bits(Mul(-kSubnormal, 0x1p100f)), 0x80000000u);
}

TEST(Fp32Mul, RoundsTiesToEven) {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: exactly half an ulp above an even neighbour.
  EXPECT_EQ(Mul(1.0f + 0x1p-12f, 1.0f + 0x1p-12f), 1.0f + 0x1p-11f);
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: below half, rounds down.
  EXPECT_EQ(Mul(1.0f + 0x1p-23f, 1.0f + 0x1p-23f), 1.0f + 0x1p-22f);
}

TEST(Fp32Mul, InfinitiesAndNaN) {
  EXPECT_EQ(Mul(0x1p100f, 0x1p100f), kInf);
  EXPECT_EQ(Mul(-0x1p100f, 0x1p100f), -kInf);
  EXPECT_EQ(Bits(Mul(kInf, 0.0f)), kNaN);
  EXPECT_EQ(Bits(Mul(kInf, kSubnormal)), kNaN);  // the subnormal is a zero
  EXPECT_EQ(Bits(Mul(OddNaN(), 2.0f)), kNaN);
}

TEST(Fp32MaxMin, SignedZeros) {
  EXPECT_EQ(Bits(Max(0.0f, -0.0f)), 0u);
  EXPECT_EQ(Bits(Max(-0.0f, 0.0f)), 0u);
  EXPECT_EQ(Bits(Max(-0.0f, -0.0f)), 0x80000000u);
  EXPECT_EQ(Bits(Min(0.0f, -0.0f)), 0x80000000u);
  EXPECT_EQ(Bits(Min(-0.0f, 0.0f)), 0x80000000u);
  EXPECT_EQ(Bits(Min(0.0f, 0.0f)), 0u);
}

TEST(Fp32MaxMin, SubnormalsCompareAsZeros) {
  EXPECT_EQ(Bits(Max(kSubnormal, 0.0f)), 0u);
  EXPECT_EQ(Bits(Min(-kSubnormal, 0.0f)), 0x80000000u);
  EXPECT_EQ(Bits(Max(kSubnormal, -kSubnormal)), 0u);
}

TEST(Fp32MaxMin, NaNWinsAndInfinitiesOrder) {
  EXPECT_EQ(Bits(Max(OddNaN(), kInf)), kNaN);
  EXPECT_EQ(Bits(Min(-kInf, OddNaN())), kNaN);
  EXPECT_EQ(Max(-kInf, -3.0f), -3.0f);
  EXPECT_EQ(Min(kInf, 3.0f), 3.0f);
  EXPECT_EQ(Max(2.0f, 1.0f), 2.0f);
  EXPECT_EQ(Min(2.0f, 1.0f), 1.0f);
}

TEST(Fp32Exp2, SpecialInputs) {
  EXPECT_EQ(Bits(Exp2(OddNaN())), kNaN);
  EXPECT_EQ(Exp2(128.0f), kInf);
  EXPECT_EQ(Exp2(kInf), kInf);
  EXPECT_EQ(Bits(Exp2(-kInf)), 0u);
  EXPECT_EQ(Exp2(kSubnormal), 1.0f);
  EXPECT_EQ(Exp2(-0.0f), 1.0f);
}

TEST(Fp32Exp2, LowerBoundaryAtMinus126) {
  EXPECT_EQ(Bits(Exp2(-126.0f)), 0x00800000u);
  EXPECT_EQ(Bits(Exp2(std::nextafter(-126.0f, -kInf))), 0u);
}

TEST(Fp32Exp2, UpperBoundaryAt128) {
  float below = std::nextafter(128.0f, 0.0f);
  EXPECT_TRUE(std::isfinite(Exp2(below)));
  EXPECT_GT(Exp2(below), 0x1p127f);
  EXPECT_EQ(Exp2(127.0f), 0x1p127f);
}

TEST(Fp32Exp2, IntegersArePowersOfTwo) {
  for (int k = -126; k <= 127; ++k) EXPECT_EQ(Exp2(float(k)), std::ldexp(1.0f, k)) << k;
}

TEST(Fp32Exp2, RelativeErrorBelow2e7OverTheWholeRange) {
  double worst = 0;
  for (double x = -126.0; x < 128.0; x += 0.000731) {
    float xf = float(x);
    double ref = std::exp2(double(xf));
    worst = std::max(worst, std::fabs(double(Exp2(xf)) - ref) / ref);
  }
  for (int i = 1; i < (1 << 20); ++i) {  // the fraction, both sides of zero
    float f = float(i) * 0x1p-20f;
    worst = std::max(worst, std::fabs(double(Exp2(f)) - std::exp2(double(f))) / std::exp2(double(f)));
    worst = std::max(worst,
                     std::fabs(double(Exp2(-f)) - std::exp2(double(-f))) / std::exp2(double(-f)));
  }
  EXPECT_LT(worst, 2e-7);
  EXPECT_GT(worst, 0.0);  // the sweep really compared something
}

// 1/x from double, rounded once to fp32, or a zero of its sign where |1/x| < 2^-126.
float RecipRef(float x) {
  double r = 1.0 / double(x);
  return std::fabs(r) < 0x1p-126 ? std::copysign(0.0f, float(r)) : float(r);
}
double RsqrtRef(float x) { return 1.0 / std::sqrt(double(x)); }

// A normal float with the given biased exponent and a random mantissa.
float RandomNormal(std::mt19937& rng, int biased_exp) {
  return F((uint32_t(biased_exp) << 23) | (rng() & 0x7FFFFFu));
}

TEST(Fp32Recip, SpecialInputs) {
  EXPECT_EQ(Bits(Recip(OddNaN())), kNaN);
  EXPECT_EQ(Recip(0.0f), kInf);
  EXPECT_EQ(Recip(-0.0f), -kInf);
  EXPECT_EQ(Recip(kSubnormal), kInf);
  EXPECT_EQ(Recip(-kSubnormal), -kInf);
  EXPECT_EQ(Bits(Recip(kInf)), 0u);
  EXPECT_EQ(Bits(Recip(-kInf)), 0x80000000u);
}

TEST(Fp32Recip, WithinTwoUlpsOverTheWholeNormalRange) {
  // Every binade, both signs; where 1/x is below 2^-126 the result must be exactly ±0.
  // |x| = 2^126 itself has its own test.
  std::mt19937 rng(7);
  int64_t worst = 0;
  int zeros = 0;
  for (int e = 1; e <= 254; ++e) {
    for (int i = 0; i < 1000; ++i) {
      float x = i == 0 ? F(uint32_t(e) << 23) : i == 1 ? F((uint32_t(e) << 23) | 0x7FFFFFu)
                                                       : RandomNormal(rng, e);
      if (x == 0x1p126f) continue;
      if (i % 2) x = -x;
      float want = RecipRef(x);
      float got = Recip(x);
      ASSERT_EQ(std::signbit(got), std::signbit(x)) << x;
      if (want == 0.0f) {
        ASSERT_EQ(Bits(got), Bits(want)) << x;
        ++zeros;
      } else {
        worst = std::max(worst, Ulps(got, want));
      }
    }
  }
  EXPECT_LE(worst, 2);
  EXPECT_GT(zeros, 0);  // the flushed top binade was really reached
}

TEST(Fp32Recip, EverySixteenthMantissaWithinTwoUlps) {
  // The sequence only ever runs on m in [1, 2); the exponent is applied exactly afterwards.
  int64_t worst = 0;
  for (uint32_t b = 0x3F800000u; b < 0x40000000u; b += 16)
    worst = std::max(worst, Ulps(Recip(F(b)), RecipRef(F(b))));
  EXPECT_LE(worst, 2);
}

TEST(Fp32Recip, AccurateWhereTheRawSeedWasSubnormal) {
  // For bits(|x|) in (0x7E7311C7, 2^126) the seed 0x7EF311C7 - bits(|x|) on the raw input
  // is subnormal; the mantissa's seed never is. 1/x is normal here, and so is the result.
  int64_t worst = 0;
  for (uint32_t b = 0x7E7311C7u; b < 0x7E800000u; ++b) {
    float got = Recip(F(b));
    ASSERT_GE(got, kMinNormal) << b;
    worst = std::max(worst, Ulps(got, RecipRef(F(b))));
  }
  EXPECT_LE(worst, 2);
}

TEST(Fp32Recip, ExtremeInputs) {
  EXPECT_LE(Ulps(Recip(kMinNormal), 0x1p126f), 2);
  EXPECT_LE(Ulps(Recip(-kMinNormal), -0x1p126f), 2);
  EXPECT_EQ(Bits(Recip(F(0x7F7FFFFFu))), 0u);
  EXPECT_EQ(Bits(Recip(F(0xFF7FFFFFu))), 0x80000000u);
  EXPECT_EQ(Bits(Recip(0x1p127f)), 0u);
}

TEST(Fp32Recip, TwoToThe126FlushesBecauseRecipOfOneIsBelowOne) {
  // The Newton steps on m = 1 end one ulp below 1, so y * 2^-126 is below 2^-126 and
  // flushes although 1/2^126 is the smallest normal.
  EXPECT_EQ(Recip(1.0f), std::nextafter(1.0f, 0.0f));
  EXPECT_EQ(Bits(Recip(0x1p126f)), 0u);
  EXPECT_EQ(Bits(Recip(-0x1p126f)), 0x80000000u);
}

TEST(Fp32Recip, ScalesExactlyByPowersOfTwo) {
  std::mt19937 rng(3);
  for (int i = 0; i < 2000; ++i) {
    float m = RandomNormal(rng, 127);
    float base = Recip(m);
    for (int k = -126; k <= 125; ++k)
      ASSERT_EQ(Bits(Recip(std::ldexp(m, k))), Bits(std::ldexp(base, -k))) << m << " " << k;
  }
}

TEST(Fp32Rsqrt, SpecialInputs) {
  EXPECT_EQ(Bits(Rsqrt(OddNaN())), kNaN);
  EXPECT_EQ(Bits(Rsqrt(-1.0f)), kNaN);
  EXPECT_EQ(Bits(Rsqrt(-kMinNormal)), kNaN);
  EXPECT_EQ(Bits(Rsqrt(-kInf)), kNaN);
  EXPECT_EQ(Rsqrt(0.0f), kInf);
  EXPECT_EQ(Rsqrt(-0.0f), kInf);
  EXPECT_EQ(Rsqrt(-kSubnormal), kInf);  // flushed to -0 first
  EXPECT_EQ(Bits(Rsqrt(kInf)), 0u);
}

TEST(Fp32Rsqrt, WithinTwoUlpsOverTheWholeNormalRange) {
  std::mt19937 rng(11);
  int64_t worst = 0;
  for (int e = 1; e <= 254; ++e) {
    for (int i = 0; i < 1000; ++i) {
      float x = i == 0 ? F(uint32_t(e) << 23) : i == 1 ? F((uint32_t(e) << 23) | 0x7FFFFFu)
                                                       : RandomNormal(rng, e);
      worst = std::max(worst, Ulps(Rsqrt(x), float(RsqrtRef(x))));
    }
  }
  EXPECT_LE(worst, 2);
}

TEST(Fp32Rsqrt, EverySixteenthMantissaWithinTwoUlps) {
  // m' in [1, 4): both parities of the exponent.
  int64_t worst = 0;
  for (uint32_t b = 0x3F800000u; b < 0x40800000u; b += 16)
    worst = std::max(worst, Ulps(Rsqrt(F(b)), float(RsqrtRef(F(b)))));
  EXPECT_LE(worst, 2);
}

TEST(Fp32Rsqrt, AccurateWhereTheRawSequenceFlushed) {
  // On the raw input, h = x/2 flushed below 2^-125 (NaN results) and y*y flushed from about
  // 1.86 * 2^125 (wrong, even negative, results).
  int64_t worst = 0;
  for (uint32_t b = 0x00800000u; b < 0x01000000u; b += 7)
    worst = std::max(worst, Ulps(Rsqrt(F(b)), float(RsqrtRef(F(b)))));
  for (uint32_t b = 0x7E6EB3C0u; b < 0x7F800000u; b += 37)
    worst = std::max(worst, Ulps(Rsqrt(F(b)), float(RsqrtRef(F(b)))));
  EXPECT_LE(worst, 2);
}

TEST(Fp32Rsqrt, ExtremeInputsGiveNormalResults) {
  for (uint32_t b : {0x00800000u, 0x00800001u, 0x00FFFFFFu, 0x7F000000u, 0x7F7FFFFFu}) {
    float got = Rsqrt(F(b));
    EXPECT_GE(got, kMinNormal) << b;
    EXPECT_LE(Ulps(got, float(RsqrtRef(F(b)))), 2) << b;
  }
}

TEST(Fp32Rsqrt, ScalesExactlyByPowersOfFour) {
  std::mt19937 rng(5);
  for (int i = 0; i < 2000; ++i) {
    float m = RandomNormal(rng, 127 + (i & 1));  // [1, 4)
    float base = Rsqrt(m);
    for (int k = -63; k <= 63; ++k)
      ASSERT_EQ(Bits(Rsqrt(std::ldexp(m, 2 * k))), Bits(std::ldexp(base, -k))) << m << " " << k;
  }
}

// The reduction order of docs/isa.md written out for LANES = 8, in plain float arithmetic.
float TreeSum8(const std::vector<float>& x) {
  float p[8] = {};
  for (size_t j = 0; j < x.size(); ++j) p[j % 8] = p[j % 8] + x[j];
  return ((p[0] + p[4]) + (p[2] + p[6])) + ((p[1] + p[5]) + (p[3] + p[7]));
}

TEST(Fp32Rows, SumFollowsThePartialsAndTheFoldingTree) {
  // Left to right the ones vanish into 1e8; in lanes, 1e8 and -1e8 meet in partial 0.
  std::vector<float> x = {1e8f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 1.0f, -1e8f, 0.5f, 0.25f};
  float naive = 0;
  for (float v : x) naive += v;
  float tree = TreeSum8(x);
  ASSERT_NE(Bits(naive), Bits(tree));  // the order really matters for this input
  EXPECT_EQ(Bits(RowSum(x.data(), int(x.size()), 8)), Bits(tree));
}

TEST(Fp32Rows, SumOfEmptyOrZerosIsPositiveZero) {
  std::vector<float> x = {-0.0f, -0.0f, -0.0f};
  EXPECT_EQ(Bits(RowSum(x.data(), 3, 8)), 0u);  // partials start at +0
  EXPECT_EQ(Bits(RowSum(x.data(), 0, 8)), 0u);
}

TEST(Fp32Rows, SumOfSquaresSquaresEachElementFirst) {
  std::vector<float> x = {1.0f, -2.0f, 3.0f, 0.5f, -1e20f, 1e20f, 7.0f, 2.0f, 3.0f, -1.0f};
  std::vector<float> sq;
  for (float v : x) sq.push_back(v * v);
  EXPECT_EQ(Bits(RowSumSquares(x.data(), int(x.size()), 8)), Bits(TreeSum8(sq)));
}

TEST(Fp32Rows, MaxStartsAtMinusInfinity) {
  std::vector<float> x = {-kInf, -kInf};
  EXPECT_EQ(RowMax(x.data(), 2, 8), -kInf);
  std::vector<float> y = {-5.0f, 3.0f, -0.0f, 2.5f, 3.5f, -1.0f, 0.0f, 1.0f, 3.25f};
  EXPECT_EQ(RowMax(y.data(), int(y.size()), 8), 3.5f);
}

TEST(Fp32Rows, MaxOfSignedZerosIsPositiveAndNaNPropagates) {
  std::vector<float> z = {-0.0f, 0.0f, -0.0f};
  EXPECT_EQ(Bits(RowMax(z.data(), 3, 8)), 0u);
  std::vector<float> n = {1.0f, OddNaN(), 2.0f};
  EXPECT_EQ(Bits(RowMax(n.data(), 3, 8)), kNaN);
}

TEST(Fp32Quant, RneClampRoundsHalfToEvenAndSaturates) {
  EXPECT_EQ(RneClamp(2.5f, 127), 2);
  EXPECT_EQ(RneClamp(3.5f, 127), 4);
  EXPECT_EQ(RneClamp(-2.5f, 127), -2);
  EXPECT_EQ(RneClamp(-0.5f, 127), 0);
  EXPECT_EQ(RneClamp(126.5f, 127), 126);
  EXPECT_EQ(RneClamp(127.4f, 127), 127);
  EXPECT_EQ(RneClamp(1000.0f, 127), 127);
  EXPECT_EQ(RneClamp(-kInf, 127), -127);
  EXPECT_EQ(RneClamp(F(kNaN), 127), 0);
  EXPECT_EQ(RneClamp(9.0f, 7), 7);
}

TEST(Fp32Quant, AllZeroBlockHasZeroScale) {
  std::vector<float> x = {0.0f, -0.0f, kSubnormal, -kSubnormal};
  std::vector<int8_t> q(4, 55);
  EXPECT_EQ(Bits(QuantizeBlock(x.data(), 4, q.data())), 0u);
  for (int8_t v : q) EXPECT_EQ(v, 0);
}

TEST(Fp32Quant, ValuesAndScaleFollowTheContract) {
  std::vector<float> x = {0.75f, -3.0f, 1.5f, 0.01f, -1.2f, 2.9f, 0.0f, -0.4f};
  std::vector<int8_t> q(x.size());
  float scale = QuantizeBlock(x.data(), int(x.size()), q.data());
  EXPECT_EQ(scale, float(3.0 * double(F(kInv127))));  // amax = 3, exact product rounds once
  // Independent reference: x * 127 / amax, nearest. No input lies near a tie.
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_EQ(q[i], int(std::lround(double(x[i]) * 127.0 / 3.0))) << i;
  EXPECT_EQ(q[1], -127);
}

TEST(Fp32Quant, InfinityMakesEveryValueZeroWithAnInfiniteScale) {
  std::vector<float> x = {1.0f, kInf, -2.0f};
  std::vector<int8_t> q(3, 9);
  EXPECT_EQ(QuantizeBlock(x.data(), 3, q.data()), kInf);
  for (int8_t v : q) EXPECT_EQ(v, 0);
}

TEST(Fp32Quant, NaNCountsAsInfinityForAmax) {
  std::vector<float> x = {1.0f, OddNaN()};
  std::vector<int8_t> q(2, 9);
  EXPECT_EQ(QuantizeBlock(x.data(), 2, q.data()), kInf);
  EXPECT_EQ(q[0], 0);
  EXPECT_EQ(q[1], 0);
}

TEST(Fp32Quant, RowQuantizesPerBlockOrPerRow) {
  std::vector<float> x(8);
  for (int i = 0; i < 8; ++i) x[i] = i < 4 ? float(i + 1) : float(i + 1) * 10.0f;
  std::vector<int8_t> q(8), qb(4);
  float scales[2];
  QuantizeRow(x.data(), 8, 4, false, q.data(), scales);
  for (int b = 0; b < 2; ++b) {
    EXPECT_EQ(Bits(scales[b]), Bits(QuantizeBlock(x.data() + 4 * b, 4, qb.data())));
    for (int i = 0; i < 4; ++i) EXPECT_EQ(q[4 * b + i], qb[i]);
  }
  float row_scale;
  QuantizeRow(x.data(), 8, 4, true, q.data(), &row_scale);
  EXPECT_EQ(row_scale, Mul(80.0f, F(kInv127)));
  EXPECT_EQ(q[7], 127);
  EXPECT_EQ(q[0], int(std::lround(1.0 * 127.0 / 80.0)));
}

}  // namespace
}  // namespace otpu::sim::fp32
