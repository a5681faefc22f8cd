#include "tests/rtl/fp/fp_vectors.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace otpu::rtl {
namespace {

uint32_t FloatBits(float f) { return std::bit_cast<uint32_t>(f); }
int Exp(uint32_t bits) { return static_cast<int>((bits >> 23) & 0xFF); }

}  // namespace

const std::vector<uint32_t>& SpecialValues() {
  static const std::vector<uint32_t> kValues = [] {
    const uint32_t magnitudes[] = {
        0x00000000, 0x00000001, 0x00400000, 0x007FFFFF,  // 0, subnormals
        0x00800000, 0x00800001, 0x00FFFFFF, 0x01000000,  // 2^-126 and just above
        0x1F800000, 0x1FFFFFFF, 0x20000000,              // 2^-64 .. 2^-63 (rsqrt y*y)
        0x33800000, 0x33800001, 0x34000000,              // 2^-24, ties against 1.0
        0x3EFFFFFF, 0x3F000000, 0x3F000001,              // 0.5
        0x3F7FFFFE, 0x3F7FFFFF, 0x3F800000, 0x3F800001,  // 1.0 (1 - 2^-23 times 0x00800001
                                                         // rounds up to 2^-126 but flushes)
        0x3FC00000, 0x40000000, 0x40400000,              // 1.5, 2, 3
        0x4B000000, 0x4B000001, 0x4B7FFFFF, 0x4B800000,  // 2^23, 2^24
        0x42FD0000, 0x42FE0000, 0x42FF0000, 0x42FEFFFF,  // 126.5, 127, 127.5, ~127
        0x42FC0000, 0x42FC0001, 0x42FBFFFF,              // 126
        0x42FFFFFF, 0x43000000, 0x43000001, 0x437F0000,  // 128, 255
        0x5F000000, 0x5F800000, 0x5FFFFFFF,              // 2^63, 2^64
        0x7E000000, 0x7E6EB3BF, 0x7E6EB3C0,              // 2^125; rsqrt y*y flushed (raw x)
        0x7E7311C7, 0x7E7311C8, 0x7E7FFFFF, 0x7E800000,  // recip raw seed limit, 2^126
        0x7EFFFFFF, 0x7F000000, 0x7F7FFFFF,              // 2^127, largest finite
        0x7F800000,                                      // inf
        0x7F800001, 0x7FC00000, 0x7FFFFFFF, 0x7FA00000,  // NaNs (signalling and quiet)
        0x0000007F, 0x00000080, 0x00FFFFFF, 0x01000001,  // small ints, 2^24 ± 1 as int32
    };
    std::vector<uint32_t> v;
    for (uint32_t m : magnitudes) {
      v.push_back(m);
      v.push_back(m | 0x80000000u);
    }
    return v;
  }();
  return kValues;
}

FpVector FpVectorGen::Next(FpOp op) {
  if (Int(0, 7) == 0) return {Uniform32(), Uniform32(), Coin()};
  switch (op) {
    case FpOp::kAdd: return Add();
    case FpOp::kMul: return Mul();
    case FpOp::kMinMax: return MinMax();
    case FpOp::kExp2: return Exp2();
    case FpOp::kRecip: return Recip();
    case FpOp::kRsqrt: return Rsqrt();
    case FpOp::kQuant: return Quant();
    case FpOp::kFromInt: return FromInt();
  }
  return {};
}

int FpVectorGen::Int(int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(rng_);
}

uint32_t FpVectorGen::Mantissa() {
  uint32_t m = Uniform32() & 0x7FFFFFu;
  int low = Int(0, 23);
  uint32_t low_mask = (1u << low) - 1;
  switch (Int(0, 2)) {
    case 0: return m;
    case 1: return m & ~low_mask;
    default: return m | low_mask;
  }
}

uint32_t FpVectorGen::WithExp(int biased_exp) { return WithExp(biased_exp, Coin()); }

uint32_t FpVectorGen::WithExp(int biased_exp, bool negative) {
  uint32_t e = static_cast<uint32_t>(std::clamp(biased_exp, 0, 255));
  return (negative ? 0x80000000u : 0u) | (e << 23) | Mantissa();
}

uint32_t FpVectorGen::Around(uint32_t bits, int spread) {
  return bits + static_cast<uint32_t>(Int(-spread, spread));
}

uint32_t FpVectorGen::UniformFloat(double lo, double hi) {
  return FloatBits(static_cast<float>(std::uniform_real_distribution<double>(lo, hi)(rng_)));
}

FpVector FpVectorGen::Add() {
  FpVector v{0, 0, Coin()};
  switch (Int(0, 3)) {
    case 0: {  // alignment: exponents up to 28 apart
      int ea = Int(1, 254);
      v.a = WithExp(ea);
      v.b = WithExp(ea + Int(-28, 28));
      break;
    }
    case 1: {  // cancellation: b within a few ulps of ±a
      v.a = WithExp(Int(1, 254));
      v.b = Around(v.a, 3) ^ (Coin() ? 0x80000000u : 0u);
      break;
    }
    case 2:  // results around 2^-126, subnormal inputs
      v.a = WithExp(Int(0, 4));
      v.b = WithExp(Int(0, 4));
      break;
    default:  // overflow, inf and NaN
      v.a = WithExp(Int(250, 255));
      v.b = WithExp(Int(240, 255));
      break;
  }
  if (Coin()) std::swap(v.a, v.b);
  return v;
}

FpVector FpVectorGen::Mul() {
  FpVector v;
  int ea = Int(1, 254);
  switch (Int(0, 3)) {
    case 0:  // product exponent around the 2^-126 flush boundary
      v.a = WithExp(ea);
      v.b = WithExp(Int(-2, 2) + 127 - ea + 1);
      break;
    case 1:  // product exponent around overflow
      v.a = WithExp(ea);
      v.b = WithExp(Int(251, 256) + 127 - ea);
      break;
    case 2:  // mid range, mantissas rich in ties
      v.a = WithExp(Int(64, 190));
      v.b = WithExp(Int(64, 190));
      break;
    default: {  // products just below 2^-126 or 2^128, where rounding crosses the limit
      bool top = Coin();
      int e = top ? 127 : -127;  // unbiased exponent of the product
      v.a = WithExp(top ? Int(128, 254) : Int(1, 126));
      double sig_a = std::ldexp(std::fabs(static_cast<double>(std::bit_cast<float>(v.a))),
                                127 - Exp(v.a));
      float b = static_cast<float>(std::ldexp((2.0 - 0x1p-24) / sig_a, e - (Exp(v.a) - 127)));
      v.b = Around(FloatBits(b), 2) | (Coin() ? 0x80000000u : 0u);
      break;
    }
  }
  return v;
}

FpVector FpVectorGen::MinMax() {
  FpVector v;
  v.a = WithExp(Int(0, 255));
  switch (Int(0, 2)) {
    case 0: v.b = WithExp(Exp(v.a)); break;                              // same exponent
    case 1: v.b = Around(v.a, 1) ^ (Coin() ? 0x80000000u : 0u); break;   // ±a
    default: v.b = WithExp(Int(0, 1)); break;                            // zeros, subnormals
  }
  return v;
}

FpVector FpVectorGen::Exp2() {
  FpVector v{0, Uniform32(), false};
  switch (Int(0, 3)) {
    case 0: v.a = UniformFloat(-130.0, 130.0); break;
    case 1:  // just around an integer
      v.a = Around(FloatBits(static_cast<float>(Int(-130, 130))), 64);
      break;
    case 2: v.a = WithExp(Int(90, 127)); break;  // |x| < 1, where x - floor(x) may round
    default: {                                    // the range limits
      const uint32_t limits[] = {0x43000000u, 0xC2FC0000u, 0x42FE0000u, 0xC2FE0000u};
      v.a = Around(limits[Int(0, 3)], 4096);
      break;
    }
  }
  return v;
}

// recip and rsqrt run their Newton steps on the mantissa and scale by the exponent after, so
// the inputs worth most are the range ends (where a sequence on the raw input used to break)
// and mantissas near 1 and 2 (the ends of the seed's range).
FpVector FpVectorGen::Recip() {
  FpVector v{0, Uniform32(), false};
  switch (Int(0, 3)) {
    case 0: v.a = WithExp(Int(0, 255)); break;
    case 1:  // from 0x7E7311C7 up the raw seed was subnormal; results cross 2^-126 at 2^126
      v.a = Around(Coin() ? 0x7E7311C7u : 0x7E800000u, 1 << 20) | (Coin() ? 0x80000000u : 0u);
      break;
    case 2: v.a = WithExp(Coin() ? Int(1, 3) : Int(252, 255)); break;  // both range ends
    default:  // m within a few ulps of 1 or 2
      v.a = Around(WithExp(Int(1, 254)) & 0xFF800000u, 4);
      break;
  }
  return v;
}

FpVector FpVectorGen::Rsqrt() {
  FpVector v{0, Uniform32(), false};
  switch (Int(0, 3)) {
    case 0: v.a = WithExp(Int(0, 255), Int(0, 7) == 0); break;
    case 1: v.a = WithExp(Int(1, 4), false); break;       // raw h = x/2 flushed below 2^-125
    case 2: v.a = WithExp(Int(250, 255), false); break;   // raw y*y flushed for huge x
    default:  // m' within a few ulps of 1, 2 or 4: both exponent parities
      v.a = Around(WithExp(Int(1, 254), false) & 0xFF800000u, 4);
      break;
  }
  return v;
}

FpVector FpVectorGen::Quant() {
  FpVector v;
  switch (Int(0, 2)) {
    case 0: {  // a realistic block: inv = 127 / amax, |x| <= amax
      double amax = std::ldexp(1.0 + std::uniform_real_distribution<double>()(rng_), Int(-40, 40));
      v.b = FloatBits(static_cast<float>(127.0 / amax));
      v.a = UniformFloat(-amax, amax);
      break;
    }
    case 1: {  // exact ties k + 0.5 (and neighbours) with a power-of-two inv
      int j = Int(-20, 20);
      v.b = FloatBits(std::ldexp(1.0f, j));
      v.a = Around(FloatBits(std::ldexp(static_cast<float>(Int(-130, 130)) + 0.5f, -j)), 2);
      break;
    }
    default:  // the clamp: products around ±127.5 and ±128
      v.b = Coin() ? FloatBits(1.0f) : Around(FloatBits(1.0f), 2);
      v.a = Around(Coin() ? 0x42FF0000u : 0x43000000u, 8) | (Coin() ? 0x80000000u : 0u);
      break;
  }
  return v;
}

FpVector FpVectorGen::FromInt() {
  FpVector v{0, Uniform32(), false};
  if (Coin()) {  // exact range, |v| < 2^24
    v.a = static_cast<uint32_t>(Int(-(1 << 24) + 1, (1 << 24) - 1));
  } else {  // 2^24 and above: leading one at bit p, low bits around the rounding tie
    int p = Int(24, 30);
    int drop = p - 23;
    uint32_t top = (1u << p) | (Uniform32() & ((1u << p) - 1) & ~((1u << drop) - 1));
    uint32_t half = 1u << (drop - 1);
    uint32_t low = Coin() ? half : Around(half, 1) & ((1u << drop) - 1);
    uint32_t mag = top | low;
    v.a = Coin() ? 0u - mag : mag;
  }
  return v;
}

}  // namespace otpu::rtl
