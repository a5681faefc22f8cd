// The fp32 numerics contract of docs/isa.md ("Numerics"): the one C++ definition of every
// arithmetic operation the accelerator performs. rtl/ reimplements these sequences in
// SystemVerilog and is checked against this file bit for bit, so each function is a plain
// sequence of the steps docs/isa.md lists. Built with -ffp-contract=off and no fast-math.
#ifndef OTPU_SIM_ISA_FP32_H_
#define OTPU_SIM_ISA_FP32_H_

#include <bit>
#include <cstdint>

namespace otpu::sim::fp32 {

// Bit pattern of a float and back (no conversion).
inline uint32_t Bits(float f) { return std::bit_cast<uint32_t>(f); }
inline float FromBits(uint32_t b) { return std::bit_cast<float>(b); }

inline constexpr uint32_t kSignBit = 0x80000000u;
inline constexpr uint32_t kPosInf = 0x7F800000u;
inline constexpr uint32_t kNegInf = 0xFF800000u;
// fp32(1/127): the quantizer's scale multiplier.
inline constexpr uint32_t kInv127 = 0x3C010204u;
// exp2 polynomial coefficients c0..c6 (Horner from c6 down to c0).
inline constexpr uint32_t kExp2Coeffs[7] = {0x3F800000u, 0x3F317214u, 0x3E75FEF9u, 0x3D633FA8u,
                                            0x3C1EAA6Cu, 0x3AA26A69u, 0x39654785u};
// Bit-trick seeds of recip and rsqrt.
inline constexpr uint32_t kRecipSeed = 0x7EF311C7u;
inline constexpr uint32_t kRsqrtSeed = 0x5F3759DFu;

// Flush to zero: a subnormal becomes a zero of the same sign; anything else is unchanged.
float Ftz(float x);
// Sign flip (bit 31), the `−B` of SUB and of the composite operands; never rounds.
float Neg(float x);

// IEEE round-to-nearest-even on flushed inputs; results below 2^-126 flush to ±0, NaN results
// are the canonical NaN.
float Add(float a, float b);
// add(a, −b).
float Sub(float a, float b);
// The exact product (in double) decides the flush; then one rounding to fp32.
float Mul(float a, float b);
// NaN if either is NaN; max(+0, −0) = +0.
float Max(float a, float b);
// NaN if either is NaN; min(+0, −0) = −0.
float Min(float a, float b);

// 2^x: degree-6 polynomial on the fraction, exponent added exactly.
float Exp2(float x);
// 1/x: bit-trick seed and three Newton steps on the mantissa m in [1, 2), then the exponent
// subtracted exactly (±0 where 1/x is below 2^-126).
float Recip(float x);
// 1/sqrt(x): bit-trick seed and three Newton steps on m' in [1, 4) (x = m' * 2^e', e' even),
// then -e'/2 added to the exponent exactly; the result is always normal.
float Rsqrt(float x);

// Ordered row reductions: `lanes` partials (element j into partial j mod lanes), then the
// pairwise folding tree. `lanes` is a power of two, at most 64.
float RowSum(const float* x, int n, int lanes);
float RowMax(const float* x, int n, int lanes);
// Σ mul(x, x) in the order of RowSum.
float RowSumSquares(const float* x, int n, int lanes);

// Round half to even to an integer, clamped to ±limit; NaN gives 0.
int RneClamp(float v, int limit);
// Block quantizer over x[0..n): writes q[0..n) in −127..127 and returns the fp32 scale.
float QuantizeBlock(const float* x, int n, int8_t* q);
// Quantizes a row of n elements: blocks of `block` elements (n a multiple of `block`) with
// one scale each in scales[0..n/block), or with `perrow` one block of n and one scale.
void QuantizeRow(const float* x, int n, int block, bool perrow, int8_t* q, float* scales);

}  // namespace otpu::sim::fp32

#endif  // OTPU_SIM_ISA_FP32_H_
