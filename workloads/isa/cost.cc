#include "workloads/isa/cost.h"

#include <algorithm>

namespace otpu::isa {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t WeightRowBytes(const MmOp& op) {
  return op.wf == WFormat::kINT8 ? int64_t{op.k} : int64_t{op.k} / 2;
}

}  // namespace

int64_t ChunksTouched(uint64_t addr, uint64_t len, int d) {
  if (len == 0) return 0;
  return int64_t((addr + len - 1) / d - addr / d + 1);
}

Cost CostOf(const Instr& in, const uint32_t* regs, const Config& cfg) {
  Cost c;
  switch (static_cast<Opcode>(in.opcode())) {
    case Opcode::kLD:
    case Opcode::kST: {
      DmaOp op = DecodeDma(in, regs);
      for (uint32_t r = 0; r < op.rows; ++r)
        c.port_b += ChunksTouched(op.dram.imm + uint64_t{r} * op.dram_stride, uint64_t{op.n} * 4, cfg.D);
      c.work = std::max<int64_t>(1, c.port_b);
      c.bytes = int64_t{op.n} * op.rows * 4;
      break;
    }
    case Opcode::kMM: {
      MmOp op = DecodeMm(in, regs);
      int64_t passes = CeilDiv(std::max<uint32_t>(op.m, 1), cfg.MCOLS);
      int64_t row_bytes = WeightRowBytes(op);
      c.port_b = passes * op.n * CeilDiv(row_bytes, cfg.D);
      c.port_a = op.unit ? 0 : passes * op.n * (op.k / cfg.D);
      c.work = std::max<int64_t>(1, c.port_b);
      c.macs = int64_t{op.m} * op.n * op.k;
      c.bytes = passes * op.n * row_bytes + c.port_a * 4;
      break;
    }
    case Opcode::kQACT: {
      QactOp op = DecodeQact(in, regs);
      c.work = std::max<int64_t>(1, int64_t{op.rows} * CeilDiv(op.k, cfg.LANES));
      break;
    }
    case Opcode::kQST: {
      QstOp op = DecodeQst(in, regs);
      int64_t scales = op.perrow ? 1 : op.n / cfg.D;
      if (op.elem_stride == 1) {  // bytes of a row gather into 32-bit words
        for (uint32_t r = 0; r < op.rows; ++r)
          c.port_a += ChunksTouched(op.dst.imm + uint64_t{r} * op.dst_stride, op.n, 4);
        c.port_a += int64_t{op.rows} * scales;
      } else {  // every strided byte is its own (byte-masked) word write
        c.port_a = int64_t{op.rows} * (op.n + scales);
      }
      c.work = std::max<int64_t>(1, int64_t{op.rows} * CeilDiv(op.n, cfg.LANES));
      c.bytes = int64_t{op.rows} * (op.n + scales * 4);
      break;
    }
    case Opcode::kVOP: {
      VopOp op = DecodeVop(in, regs);
      int lanes = IsCompositeFn(op.fn) ? cfg.CL : cfg.LANES;
      c.work = std::max<int64_t>(1, int64_t{op.m} * CeilDiv(op.n, lanes));
      break;
    }
    default:
      break;
  }
  return c;
}

}  // namespace otpu::isa
