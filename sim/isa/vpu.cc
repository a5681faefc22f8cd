// VOP: element-wise and row operations on TMEM, in row-major order.
#include "sim/isa/fp32.h"
#include "sim/isa/units.h"

namespace otpu::sim {
namespace {

using isa::VopFn;

// Word address of B(r, j) for the operand's BMODE.
uint64_t BAddr(const isa::VopOp& op, uint32_t r, uint32_t j) {
  const uint64_t base = op.b.imm;
  switch (op.bmode) {
    case isa::BMode::kFULL: return base + uint64_t{r} * op.b_stride + j;
    case isa::BMode::kROW: return base + uint64_t{r} * op.b_stride;
    case isa::BMode::kCOL: return base + j;
    case isa::BMode::kSCALAR: return base;
  }
  return base;
}

// dst(r, j) = f(A(r, j), B(r, j)) element by element, so an in-place operation reads each
// element before writing it.
template <typename F>
void ElementWise(const isa::VopOp& op, Machine& m, F f) {
  for (uint32_t r = 0; r < op.m; ++r) {
    const uint64_t dst = uint64_t{op.dst.imm} + uint64_t{r} * op.dst_stride;
    const uint64_t a = uint64_t{op.a.imm} + uint64_t{r} * op.a_stride;
    for (uint32_t j = 0; j < op.n; ++j) {
      uint32_t av = op.fn == VopFn::kFILL ? 0u : m.tmem[a + j];
      uint32_t bv = op.bzero || op.fn == VopFn::kCOPY ? 0u : m.tmem[BAddr(op, r, j)];
      m.tmem[dst + j] = f(av, bv);
    }
  }
}

// dst(r) = mul(reduce(A row r), C).
template <typename F>
void RowReduce(const isa::VopOp& op, Machine& m, F reduce) {
  const float c = fp32::FromBits(op.c);
  m.floats.resize(op.n);
  for (uint32_t r = 0; r < op.m; ++r) {
    const uint64_t a = uint64_t{op.a.imm} + uint64_t{r} * op.a_stride;
    for (uint32_t j = 0; j < op.n; ++j) m.floats[j] = fp32::FromBits(m.tmem[a + j]);
    float v = reduce(m.floats.data(), int(op.n), m.cfg.LANES);
    m.tmem[uint64_t{op.dst.imm} + uint64_t{r} * op.dst_stride] = fp32::Bits(fp32::Mul(v, c));
  }
}

// The composite operand x = mul(add(A, −B), C).
float Scaled(uint32_t a, uint32_t b, float c) {
  return fp32::Mul(fp32::Sub(fp32::FromBits(a), fp32::FromBits(b)), c);
}

}  // namespace

void ExecVop(const isa::VopOp& op, Machine& m) {
  using fp32::Bits;
  using fp32::FromBits;
  const float c = FromBits(op.c);
  switch (op.fn) {
    case VopFn::kADD:
      return ElementWise(op, m, [](uint32_t a, uint32_t b) {
        return Bits(fp32::Add(FromBits(a), FromBits(b)));
      });
    case VopFn::kSUB:
      return ElementWise(op, m, [](uint32_t a, uint32_t b) {
        return Bits(fp32::Sub(FromBits(a), FromBits(b)));
      });
    case VopFn::kMUL:
      return ElementWise(op, m, [](uint32_t a, uint32_t b) {
        return Bits(fp32::Mul(FromBits(a), FromBits(b)));
      });
    case VopFn::kMAX:
      return ElementWise(op, m, [](uint32_t a, uint32_t b) {
        return Bits(fp32::Max(FromBits(a), FromBits(b)));
      });
    case VopFn::kMIN:
      return ElementWise(op, m, [](uint32_t a, uint32_t b) {
        return Bits(fp32::Min(FromBits(a), FromBits(b)));
      });
    case VopFn::kCOPY:
      return ElementWise(op, m, [](uint32_t a, uint32_t) { return a; });
    case VopFn::kFILL:
      return ElementWise(op, m, [](uint32_t, uint32_t b) { return b; });
    case VopFn::kEXP2:
      return ElementWise(op, m, [c](uint32_t a, uint32_t b) {
        return Bits(fp32::Exp2(Scaled(a, b, c)));
      });
    case VopFn::kRECIP:
      return ElementWise(op, m, [c](uint32_t a, uint32_t b) {
        return Bits(fp32::Recip(Scaled(a, b, c)));
      });
    case VopFn::kRSQRT:
      return ElementWise(op, m, [c](uint32_t a, uint32_t b) {
        return Bits(fp32::Rsqrt(Scaled(a, b, c)));
      });
    case VopFn::kSCALE:
      return ElementWise(op, m, [c](uint32_t a, uint32_t b) { return Bits(Scaled(a, b, c)); });
    case VopFn::kRSUM: return RowReduce(op, m, fp32::RowSum);
    case VopFn::kRMAX: return RowReduce(op, m, fp32::RowMax);
    case VopFn::kRSSQ: return RowReduce(op, m, fp32::RowSumSquares);
  }
}

}  // namespace otpu::sim
