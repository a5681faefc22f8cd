// Seeded operand generators for the fp32 unit checks: uniform bit patterns mixed with values
// near the exponents where each operation changes behaviour (alignment, cancellation, the
// 2^-126 flush boundary, overflow, rounding ties, the exp2/recip/rsqrt range ends), plus a
// fixed list of special values that every unit is checked on pairwise.
#ifndef OTPU_TESTS_RTL_FP_FP_VECTORS_H_
#define OTPU_TESTS_RTL_FP_FP_VECTORS_H_

#include <cstdint>
#include <random>
#include <vector>

namespace otpu::rtl {

// The seed and the vector count of the default check (fp_rtl_test); the test adds the FpOp
// to the seed so every operation gets its own stream. The count is the issue's "at least a
// million random vectors per operation" (about 0.7 s a unit); OTPU_FP_VECTORS runs another.
inline constexpr uint64_t kFpDefaultSeed = 0x0F9'32C0'FFEE;
inline constexpr long kFpDefaultVectors = 1'000'000;

// Which operation a vector is aimed at (every unit still sees every vector).
enum class FpOp { kAdd, kMul, kMinMax, kExp2, kRecip, kRsqrt, kQuant, kFromInt };

// One input vector of otpu_fp_testtop.
struct FpVector {
  uint32_t a = 0;
  uint32_t b = 0;
  bool sub = false;  // otpu_fp_add computes a - b
};

// ±0, subnormals, the 2^-126 boundary, ±1, ties, the largest finite, ±inf, several NaNs, and
// the range limits of exp2, recip, rsqrt, the quantizer and int -> fp conversion.
const std::vector<uint32_t>& SpecialValues();

// Draws vectors aimed at one operation: an eighth uniform random bit patterns, the rest from
// the operation's interesting regions. Deterministic for a given seed.
class FpVectorGen {
 public:
  explicit FpVectorGen(uint64_t seed) : rng_(seed) {}

  // The next vector for `op`.
  FpVector Next(FpOp op);

 private:
  uint32_t Uniform32() { return static_cast<uint32_t>(rng_()); }
  int Int(int lo, int hi);  // uniform in [lo, hi]
  bool Coin() { return (rng_() & 1) != 0; }
  // A random mantissa: full random, or with many trailing zeros (rounding ties), or with
  // trailing ones (carries through the whole significand).
  uint32_t Mantissa();
  // sign | exponent (clamped to 0..255) | Mantissa(); the sign random unless given.
  uint32_t WithExp(int biased_exp);
  uint32_t WithExp(int biased_exp, bool negative);
  // bits + k for k in [-spread, spread] (neighbouring encodings of a value).
  uint32_t Around(uint32_t bits, int spread);
  // A float uniform in [lo, hi], as bits.
  uint32_t UniformFloat(double lo, double hi);

  FpVector Add();
  FpVector Mul();
  FpVector MinMax();
  FpVector Exp2();
  FpVector Recip();
  FpVector Rsqrt();
  FpVector Quant();
  FpVector FromInt();

  std::mt19937_64 rng_;
};

}  // namespace otpu::rtl

#endif  // OTPU_TESTS_RTL_FP_FP_VECTORS_H_
