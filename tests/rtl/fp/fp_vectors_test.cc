// Checks that the default vector streams of fp_rtl_test reach the corner cases the units must
// get right: computed from the vectors alone, in double (exact for these cases), without the
// RTL or the golden functions.
#include "tests/rtl/fp/fp_vectors.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>

namespace otpu::rtl {
namespace {

constexpr long kMinHits = 100;  // per corner, in the default stream

float F(uint32_t bits) { return std::bit_cast<float>(bits); }
int Exp(uint32_t bits) { return static_cast<int>((bits >> 23) & 0xFF); }
bool Normal(uint32_t bits) { return Exp(bits) != 0 && Exp(bits) != 255; }

// True when the exact value x lies exactly halfway between two adjacent finite floats.
bool IsTie(double x) {
  float r = static_cast<float>(x);
  if (std::isinf(r) || static_cast<double>(r) == x) return false;
  float other = std::nextafter(r, x > r ? INFINITY : -INFINITY);
  return (static_cast<double>(r) + static_cast<double>(other)) / 2.0 == x;
}

// How many of the default stream's vectors for `op` satisfy `pred`.
long Count(FpOp op, const std::function<bool(const FpVector&)>& pred) {
  FpVectorGen gen(kFpDefaultSeed + static_cast<uint64_t>(op));
  long hits = 0;
  for (long i = 0; i < kFpDefaultVectors; ++i) hits += pred(gen.Next(op)) ? 1 : 0;
  return hits;
}

// a ± b in double, exact when both are normal and their exponents at most 28 apart; else NaN.
double ExactSum(const FpVector& v) {
  if (!Normal(v.a) || !Normal(v.b) || std::abs(Exp(v.a) - Exp(v.b)) > 28) return NAN;
  return static_cast<double>(F(v.a)) + (v.sub ? -1.0 : 1.0) * static_cast<double>(F(v.b));
}

TEST(FpVectorStreams, AddReachesTiesFlushesAndCancellation) {
  EXPECT_GE(Count(FpOp::kAdd, [](const FpVector& v) { return IsTie(ExactSum(v)); }), kMinHits);
  EXPECT_GE(Count(FpOp::kAdd, [](const FpVector& v) {
              double s = ExactSum(v);
              return s != 0.0 && std::fabs(s) < 0x1p-126;
            }),
            kMinHits);
  EXPECT_GE(Count(FpOp::kAdd, [](const FpVector& v) {
              double s = ExactSum(v);
              return s != 0.0 && std::ilogb(s) < std::ilogb(F(v.a)) - 20;
            }),
            kMinHits);
}

double ExactProduct(const FpVector& v) {
  if (!Normal(v.a) || !Normal(v.b)) return NAN;
  return static_cast<double>(F(v.a)) * static_cast<double>(F(v.b));
}

TEST(FpVectorStreams, MulReachesTiesAndBothRangeLimits) {
  EXPECT_GE(Count(FpOp::kMul, [](const FpVector& v) { return IsTie(ExactProduct(v)); }),
            kMinHits);
  // Exactly below 2^-126 (so the contract flushes it) though IEEE would round up to 2^-126.
  EXPECT_GE(Count(FpOp::kMul, [](const FpVector& v) {
              double p = std::fabs(ExactProduct(v));
              return p < 0x1p-126 && static_cast<float>(p) == 0x1p-126f;
            }),
            kMinHits);
  EXPECT_GE(Count(FpOp::kMul, [](const FpVector& v) {
              double p = std::fabs(ExactProduct(v));
              return p < 0x1p128 && std::isinf(static_cast<float>(p));
            }),
            kMinHits);
}

TEST(FpVectorStreams, Exp2ReachesInexactFractionsAndRangeLimits) {
  // -0.5 < x < 0: f = 1 + x rounds.
  EXPECT_GE(Count(FpOp::kExp2, [](const FpVector& v) {
              double x = F(v.a);
              double f = 1.0 + x;  // exact in double
              return x > -0.5 && x < 0.0 && static_cast<double>(static_cast<float>(f)) != f;
            }),
            kMinHits);
  for (double limit : {-126.0, 128.0}) {
    EXPECT_GE(Count(FpOp::kExp2, [limit](const FpVector& v) {
                return std::fabs(static_cast<double>(F(v.a)) - limit) < 0x1p-12;
              }),
              kMinHits)
        << "near " << limit;
  }
}

// True when bits is normal and its mantissa is within 4 ulps of 1.0 or of 2.0.
bool MantissaNearOneOrTwo(uint32_t bits) {
  uint32_t man = bits & 0x7FFFFFu;
  return Normal(bits) && (man <= 4 || man >= 0x7FFFFCu);
}

TEST(FpVectorStreams, RecipReachesTheRangeEndsAndTheSeedEnds) {
  // Where the seed 0x7EF311C7 - bits(|x|) of the raw input was subnormal, yet |x| < 2^126.
  EXPECT_GE(Count(FpOp::kRecip, [](const FpVector& v) {
              uint32_t mag = v.a & 0x7FFFFFFFu;
              return mag > 0x7E7311C7u && mag < 0x7E800000u;
            }),
            kMinHits);
  // 1/x just above and below 2^-126 (the flush), and near the largest finite.
  for (int exp : {125, 126, 1}) {
    EXPECT_GE(Count(FpOp::kRecip, [exp](const FpVector& v) { return Exp(v.a) == exp; }),
              kMinHits)
        << "exponent field " << exp;
  }
  EXPECT_GE(Count(FpOp::kRecip, [](const FpVector& v) { return MantissaNearOneOrTwo(v.a); }),
            kMinHits);
}

TEST(FpVectorStreams, RsqrtReachesTheRangeEndsAndBothParities) {
  // Where the raw input's h = x / 2 flushed (x < 2^-125) and y * y flushed (from 0x7E6EB3C0).
  EXPECT_GE(Count(FpOp::kRsqrt, [](const FpVector& v) {
              return v.a >= 0x00800000u && v.a < 0x01000000u;
            }),
            kMinHits);
  EXPECT_GE(Count(FpOp::kRsqrt, [](const FpVector& v) {
              return v.a >= 0x7E6EB3C0u && v.a < 0x7F800000u;
            }),
            kMinHits);
  for (int parity : {0, 1}) {
    EXPECT_GE(Count(FpOp::kRsqrt, [parity](const FpVector& v) {
                return v.a < 0x80000000u && MantissaNearOneOrTwo(v.a) &&
                       (Exp(v.a) & 1) == parity;
              }),
              kMinHits)
        << "exponent parity " << parity;
  }
}

TEST(FpVectorStreams, QuantReachesTiesAndTheClamp) {
  EXPECT_GE(Count(FpOp::kQuant, [](const FpVector& v) {
              double p = ExactProduct(v);
              return std::fabs(p) < 127.0 && p - std::floor(p) == 0.5;
            }),
            kMinHits);
  EXPECT_GE(Count(FpOp::kQuant, [](const FpVector& v) {
              double p = std::fabs(ExactProduct(v));
              return p >= 127.5 && p <= 128.5;
            }),
            kMinHits);
}

TEST(FpVectorStreams, FromIntReachesRoundingTies) {
  EXPECT_GE(Count(FpOp::kFromInt,
                  [](const FpVector& v) { return IsTie(static_cast<int32_t>(v.a)); }),
            kMinHits);
}

}  // namespace
}  // namespace otpu::rtl
