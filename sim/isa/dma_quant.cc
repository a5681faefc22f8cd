// LD / ST (DMA unit) and QACT / QST (quantizer).
#include <cstring>

#include "sim/isa/fp32.h"
#include "sim/isa/units.h"

namespace otpu::sim {
namespace {

// TMEM word address of element j of row r.
uint64_t TmemAt(uint32_t base, uint32_t r, uint32_t stride, uint64_t j = 0) {
  return uint64_t{base} + uint64_t{r} * stride + j;
}

// Copies one TMEM row of n words into m.floats (bit for bit).
const float* TmemRow(Machine& m, uint64_t at, uint32_t n) {
  m.floats.resize(n);
  std::memcpy(m.floats.data(), m.tmem.data() + at, uint64_t{n} * 4);
  return m.floats.data();
}

}  // namespace

void ExecLd(const isa::DmaOp& op, Machine& m) {
  for (uint32_t r = 0; r < op.rows; ++r) {
    uint64_t src = uint64_t{op.dram.imm} + uint64_t{r} * op.dram_stride;
    m.dram.Read(src, m.tmem.data() + TmemAt(op.tmem.imm, r, op.tmem_stride), uint64_t{op.n} * 4);
  }
}

void ExecSt(const isa::DmaOp& op, Machine& m) {
  for (uint32_t r = 0; r < op.rows; ++r) {
    uint64_t dst = uint64_t{op.dram.imm} + uint64_t{r} * op.dram_stride;
    m.dram.Write(dst, m.tmem.data() + TmemAt(op.tmem.imm, r, op.tmem_stride), uint64_t{op.n} * 4);
  }
}

void ExecQact(const isa::QactOp& op, Machine& m) {
  const int d = m.cfg.D;
  const uint32_t blocks = op.k / d;
  m.values.resize(op.k);
  m.scales.resize(blocks);
  for (uint32_t r = 0; r < op.rows; ++r) {
    const float* x = TmemRow(m, TmemAt(op.src.imm, r, op.src_stride), op.k);
    fp32::QuantizeRow(x, int(op.k), d, op.perrow, m.values.data(), m.scales.data());
    const int row = int(op.act_row + r);
    std::memcpy(m.act.Block(row, int(op.act_block)), m.values.data(), op.k);
    for (uint32_t b = 0; b < blocks; ++b)
      m.act.Scale(row, int(op.act_block + b)) = m.scales[op.perrow ? 0 : b];
  }
}

void ExecQst(const isa::QstOp& op, Machine& m) {
  const int d = m.cfg.D;
  const uint32_t scales = op.perrow ? 1 : op.n / d;
  m.values.resize(op.n);
  m.scales.resize(scales);
  for (uint32_t r = 0; r < op.rows; ++r) {
    const float* x = TmemRow(m, TmemAt(op.src.imm, r, op.src_stride), op.n);
    fp32::QuantizeRow(x, int(op.n), d, op.perrow, m.values.data(), m.scales.data());
    const uint64_t row_at = uint64_t{op.dst.imm} + uint64_t{r} * op.dst_stride;
    if (op.elem_stride == 1) {
      m.dram.Write(row_at, m.values.data(), op.n);
    } else {
      for (uint32_t j = 0; j < op.n; ++j)
        m.dram.Write8(row_at + uint64_t{j} * op.elem_stride, uint8_t(m.values[j]));
    }
    m.dram.Write(uint64_t{op.scales.imm} + uint64_t{4} * r * scales, m.scales.data(),
                 uint64_t{4} * scales);
  }
}

}  // namespace otpu::sim
