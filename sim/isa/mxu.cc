// MM: out[m x n] (+)= act[m x k] . W[n x k]^T, block by block in the order docs/isa.md fixes.
#include <cstring>

#include "sim/isa/fp32.h"
#include "sim/isa/units.h"

namespace otpu::sim {
namespace {

// Exact integer dot product of one block. A compile-time length lets the compiler turn it
// into packed int8 multiplies with int32 accumulation.
template <int kD>
int32_t DotFixed(const int8_t* a, const int8_t* w) {
  int32_t s = 0;
  for (int e = 0; e < kD; ++e) s += int32_t(a[e]) * int32_t(w[e]);
  return s;
}

int32_t DotAny(const int8_t* a, const int8_t* w, int d) {
  int32_t s = 0;
  for (int e = 0; e < d; ++e) s += int32_t(a[e]) * int32_t(w[e]);
  return s;
}

using DotFn = int32_t (*)(const int8_t*, const int8_t*, int);

template <int kD>
int32_t DotAdapter(const int8_t* a, const int8_t* w, int) {
  return DotFixed<kD>(a, w);
}

DotFn DotFor(int d) {
  switch (d) {
    case 16: return DotAdapter<16>;
    case 32: return DotAdapter<32>;
    case 64: return DotAdapter<64>;
    case 128: return DotAdapter<128>;
    default: return DotAny;
  }
}

// E2M1 magnitudes times two, indexed by nibble bits 2:0.
constexpr int8_t kFp4Twice[8] = {0, 1, 2, 3, 4, 6, 8, 12};

int8_t Nibble(uint8_t nib, isa::WFormat wf) {
  if (wf == isa::WFormat::kINT4) return int8_t(nib & 0x8 ? int(nib) - 16 : int(nib));
  int8_t mag = kFp4Twice[nib & 0x7];
  return nib & 0x8 ? int8_t(-mag) : mag;
}

}  // namespace

void DecodeNibbles(const uint8_t* bytes, uint32_t k, isa::WFormat wf, int8_t* out) {
  for (uint32_t i = 0; i < k / 2; ++i) {
    out[2 * i] = Nibble(bytes[i] & 0xF, wf);
    out[2 * i + 1] = Nibble(bytes[i] >> 4, wf);
  }
}

void ExecMm(const isa::MmOp& op, Machine& m) {
  const int d = m.cfg.D;
  const uint32_t blocks = op.k / d;
  const bool four_bit = op.wf != isa::WFormat::kINT8;
  const uint64_t row_bytes = four_bit ? op.k / 2 : op.k;
  const DotFn dot = DotFor(d);
  m.bytes.resize(row_bytes);
  m.values.resize(op.k);
  m.scales.resize(blocks);
  for (uint32_t j = 0; j < op.n; ++j) {
    // One W row (and its scales) at a time, read whole: no per-element DRAM lookups.
    const uint64_t w_addr = uint64_t{op.w.imm} + uint64_t{j} * op.w_stride;
    const int8_t* w;
    if (four_bit) {
      m.dram.Read(w_addr, m.bytes.data(), row_bytes);
      DecodeNibbles(m.bytes.data(), op.k, op.wf, m.values.data());
      w = m.values.data();
    } else {
      m.dram.Read(w_addr, m.values.data(), row_bytes);
      w = m.values.data();
    }
    if (!op.unit) {
      m.dram.Read(uint64_t{op.scales.imm} + uint64_t{4} * j * blocks, m.scales.data(),
                  uint64_t{4} * blocks);
    }
    for (uint32_t i = 0; i < op.m; ++i) {
      const int row = int(op.act_row + i);
      const int8_t* a = m.act.Block(row, int(op.act_block));
      uint32_t& out = m.tmem[uint64_t{op.out.imm} + uint64_t{i} * op.out_stride + j];
      float acc = op.acc ? fp32::Ftz(fp32::FromBits(out)) : 0.0f;
      for (uint32_t b = 0; b < blocks; ++b) {
        int32_t isum = dot(a + b * d, w + b * d, d);
        float sa = m.act.Scale(row, int(op.act_block + b));
        float scale = op.unit ? sa : fp32::Mul(sa, m.scales[b]);
        acc = fp32::Add(acc, fp32::Mul(float(isum), scale));  // float(isum) is exact
      }
      out = fp32::Bits(acc);
    }
  }
}

}  // namespace otpu::sim
