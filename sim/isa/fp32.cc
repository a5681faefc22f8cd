#include "sim/isa/fp32.h"

#include <cmath>

#include "base/status.h"
#include "workloads/isa/defs.h"

namespace otpu::sim::fp32 {
namespace {

constexpr uint32_t kExpMask = 0x7F800000u;
constexpr double kMinNormal = 0x1p-126;

float CanonicalNaN() { return FromBits(isa::kCanonicalNaN); }
float SignedZero(bool negative) { return FromBits(negative ? kSignBit : 0u); }
bool IsZero(float x) { return (Bits(x) & ~kSignBit) == 0; }

constexpr int32_t kBias = 127;
// The biased exponent field of x.
int32_t BiasedExp(float x) { return int32_t((Bits(x) >> 23) & 0xFF); }
// x with its exponent field replaced by `biased_exp` (in 0..255): sign and mantissa kept.
float WithBiasedExp(float x, int32_t biased_exp) {
  return FromBits((Bits(x) & 0x807FFFFFu) | (uint32_t(biased_exp) << 23));
}

}  // namespace

float Ftz(float x) {
  uint32_t b = Bits(x);
  return (b & kExpMask) == 0 ? FromBits(b & kSignBit) : x;
}

float Neg(float x) { return FromBits(Bits(x) ^ kSignBit); }

float Add(float a, float b) {
  a = Ftz(a);
  b = Ftz(b);
  float r = a + b;  // IEEE fp32, round to nearest even
  if (std::isnan(r)) return CanonicalNaN();
  // A subnormal sum of two normals is exact, so its sign is the exact result's sign.
  return Ftz(r);
}

float Sub(float a, float b) { return Add(a, Neg(b)); }

float Mul(float a, float b) {
  a = Ftz(a);
  b = Ftz(b);
  double p = double(a) * double(b);  // exact: 24 + 24 significand bits fit in 53
  if (std::isnan(p)) return CanonicalNaN();
  if (std::fabs(p) < kMinNormal) return SignedZero(std::signbit(p));
  return float(p);  // the one rounding (overflow gives ±inf)
}

float Max(float a, float b) {
  a = Ftz(a);
  b = Ftz(b);
  if (std::isnan(a) || std::isnan(b)) return CanonicalNaN();
  if (IsZero(a) && IsZero(b)) return SignedZero(std::signbit(a) && std::signbit(b));
  return a > b ? a : b;
}

float Min(float a, float b) {
  a = Ftz(a);
  b = Ftz(b);
  if (std::isnan(a) || std::isnan(b)) return CanonicalNaN();
  if (IsZero(a) && IsZero(b)) return SignedZero(std::signbit(a) || std::signbit(b));
  return a < b ? a : b;
}

float Exp2(float x) {
  x = Ftz(x);
  if (std::isnan(x)) return CanonicalNaN();
  if (x >= 128.0f) return FromBits(kPosInf);
  if (x < -126.0f) return 0.0f;
  // n = floor(x) is exact; f = add(x, -n) is exact except for -0.5 < x < 0, where 1 + x
  // rounds (to nearest even) like any fp32 add.
  float nf = std::floor(x);
  int32_t n = int32_t(nf);
  float f = Add(x, Neg(nf));
  float p = FromBits(kExp2Coeffs[6]);
  for (int i = 5; i >= 0; --i) p = Add(Mul(p, f), FromBits(kExp2Coeffs[i]));
  // p is in [1, 2]; adding n to its biased exponent is exact unless it reaches 2^128.
  int32_t exp = BiasedExp(p) + n;
  if (exp >= 255) return FromBits(kPosInf);
  return WithBiasedExp(p, exp);
}

float Recip(float x) {
  x = Ftz(x);
  if (std::isnan(x)) return CanonicalNaN();
  bool negative = std::signbit(x);
  if (IsZero(x)) return FromBits(kPosInf | (negative ? kSignBit : 0u));
  if (std::isinf(x)) return SignedZero(negative);
  // |x| = m * 2^e with m in [1, 2): the sequence runs on m, where it is accurate.
  int32_t e = BiasedExp(x) - kBias;
  float m = WithBiasedExp(std::fabs(x), kBias);
  float y = FromBits(kRecipSeed - Bits(m));
  for (int i = 0; i < 3; ++i) y = Mul(y, Add(2.0f, Neg(Mul(m, y))));
  // y is in [0.5, 1) for every m (measured exhaustively), so y * 2^-e can fall below 2^-126
  // but never overflows.
  int32_t exp = BiasedExp(y) - e;
  OTPU_CHECK(exp < 255);
  if (exp < 1) return SignedZero(negative);
  float r = WithBiasedExp(y, exp);
  return negative ? Neg(r) : r;
}

float Rsqrt(float x) {
  x = Ftz(x);
  if (std::isnan(x)) return CanonicalNaN();
  if (IsZero(x)) return FromBits(kPosInf);
  if (x < 0.0f) return CanonicalNaN();
  if (std::isinf(x)) return 0.0f;
  // x = m' * 2^e' with e' even and m' in [1, 4), so that 2^(-e'/2) is exact.
  int32_t e = BiasedExp(x) - kBias;
  bool odd = (e & 1) != 0;
  int32_t half_e = (odd ? e - 1 : e) / 2;
  float m = WithBiasedExp(x, odd ? kBias + 1 : kBias);
  float h = Mul(0.5f, m);
  float y = FromBits(kRsqrtSeed - (Bits(m) >> 1));
  for (int i = 0; i < 3; ++i) y = Mul(y, Add(1.5f, Neg(Mul(h, Mul(y, y)))));
  // y is in [0.5, 1) for every m' (measured exhaustively) and |e'/2| <= 63: always normal.
  int32_t exp = BiasedExp(y) - half_e;
  OTPU_CHECK(exp >= 1 && exp < 255);
  return WithBiasedExp(y, exp);
}

namespace {

constexpr int kMaxLanes = 64;

// Folds p[0..lanes) pairwise: for h = lanes/2 .. 1, p[i] = op(p[i], p[i + h]) for i < h.
template <typename Op>
float Fold(float* p, int lanes, Op op) {
  for (int h = lanes / 2; h >= 1; h /= 2)
    for (int i = 0; i < h; ++i) p[i] = op(p[i], p[i + h]);
  return p[0];
}

void CheckLanes(int lanes) {
  OTPU_CHECK(lanes >= 1 && lanes <= kMaxLanes && (lanes & (lanes - 1)) == 0);
}

}  // namespace

float RowSum(const float* x, int n, int lanes) {
  CheckLanes(lanes);
  float p[kMaxLanes];
  for (int i = 0; i < lanes; ++i) p[i] = 0.0f;
  for (int j = 0; j < n; ++j) p[j % lanes] = Add(p[j % lanes], x[j]);
  return Fold(p, lanes, Add);
}

float RowMax(const float* x, int n, int lanes) {
  CheckLanes(lanes);
  float p[kMaxLanes];
  for (int i = 0; i < lanes; ++i) p[i] = FromBits(kNegInf);
  for (int j = 0; j < n; ++j) p[j % lanes] = Max(p[j % lanes], x[j]);
  return Fold(p, lanes, Max);
}

float RowSumSquares(const float* x, int n, int lanes) {
  CheckLanes(lanes);
  float p[kMaxLanes];
  for (int i = 0; i < lanes; ++i) p[i] = 0.0f;
  for (int j = 0; j < n; ++j) p[j % lanes] = Add(p[j % lanes], Mul(x[j], x[j]));
  return Fold(p, lanes, Add);
}

int RneClamp(float v, int limit) {
  if (std::isnan(v)) return 0;
  float lim = float(limit);
  if (v >= lim) return limit;
  if (v <= -lim) return -limit;
  return int(std::nearbyint(v));  // the default rounding mode: to nearest, ties to even
}

float QuantizeBlock(const float* x, int n, int8_t* q) {
  float amax = 0.0f;
  for (int i = 0; i < n; ++i) {
    float v = Ftz(x[i]);
    float a = std::isnan(v) ? FromBits(kPosInf) : std::fabs(v);
    if (a > amax) amax = a;
  }
  if (amax == 0.0f) {
    for (int i = 0; i < n; ++i) q[i] = 0;
    return 0.0f;
  }
  float inv = Mul(127.0f, Recip(amax));
  float scale = Mul(amax, FromBits(kInv127));
  for (int i = 0; i < n; ++i) q[i] = int8_t(RneClamp(Mul(x[i], inv), 127));
  return scale;
}

void QuantizeRow(const float* x, int n, int block, bool perrow, int8_t* q, float* scales) {
  if (perrow) {
    scales[0] = QuantizeBlock(x, n, q);
    return;
  }
  for (int b = 0; b * block < n; ++b) scales[b] = QuantizeBlock(x + b * block, block, q + b * block);
}

}  // namespace otpu::sim::fp32
