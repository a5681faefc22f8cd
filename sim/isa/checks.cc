#include "sim/isa/checks.h"

#include <cstdio>
#include <string>

#include "base/strings.h"

namespace otpu::sim {
namespace {

using isa::VopFn;

using u128 = unsigned __int128;
using ull = unsigned long long;

// End (exclusive) of the last row, exact.
u128 RangeEnd(uint64_t base, uint64_t count, uint64_t stride, uint64_t len) {
  return u128(base) + u128(count - 1) * stride + len;
}

// "TMEM dst words [100, 70000) lie outside TMEM (65536 words)" when the rows do not fit.
Status TmemRange(const char* what, uint64_t base, uint64_t count, uint64_t stride, uint64_t len,
                 const MemSizes& mem) {
  if (RangeFits(base, count, stride, len, mem.tmem_words)) return OkStatus();
  return InvalidArgument(StrFormat("TMEM %s words [%llu, %llu) lie outside TMEM (%llu words)", what,
                             ull(base), ull(RangeEnd(base, count, stride, len)),
                             ull(mem.tmem_words)));
}

Status DramRange(const char* what, uint64_t base, uint64_t count, uint64_t stride, uint64_t len,
                 const MemSizes& mem) {
  if (RangeFits(base, count, stride, len, mem.dram_bytes)) return OkStatus();
  return InvalidArgument(StrFormat("DRAM %s bytes [0x%llx, 0x%llx) lie outside DRAM (0x%llx bytes)",
                             what, ull(base), ull(RangeEnd(base, count, stride, len)),
                             ull(mem.dram_bytes)));
}

Status ActRange(uint64_t row, uint64_t rows, uint64_t block, uint64_t blocks,
                const isa::Config& cfg) {
  if (row + rows > uint64_t(cfg.ACT_ROWS)) {
    return InvalidArgument(StrFormat("ACT RAM rows [%llu, %llu) lie outside ACT RAM (ACT_ROWS=%d)",
                               ull(row), ull(row + rows), cfg.ACT_ROWS));
  }
  if (block + blocks > uint64_t(cfg.ACT_BLOCKS)) {
    return InvalidArgument(
        StrFormat("ACT RAM blocks [%llu, %llu) lie outside ACT RAM (ACT_BLOCKS=%d)", ull(block),
            ull(block + blocks), cfg.ACT_BLOCKS));
  }
  return OkStatus();
}

Status NonZero(const char* field, uint64_t value) {
  if (value != 0) return OkStatus();
  return InvalidArgument(StrFormat("%s=0: must be at least 1", field));
}

Status MultipleOf(const char* field, uint64_t value, uint64_t unit, const char* unit_name) {
  if (value % unit == 0) return OkStatus();
  return InvalidArgument(StrFormat("%s=%llu is not a multiple of %s=%llu", field, ull(value),
                             unit_name, ull(unit)));
}

// Addresses print in hex, strides in decimal.
Status Aligned(const char* what, uint64_t value, uint64_t align, bool address = true) {
  if (value % align == 0) return OkStatus();
  return InvalidArgument(StrFormat(address ? "%s 0x%llx is not %llu-byte aligned"
                                     : "%s %llu is not %llu-byte aligned",
                             what, ull(value), ull(align)));
}

}  // namespace

bool RangeFits(uint64_t base, uint64_t count, uint64_t stride, uint64_t len, uint64_t size) {
  return RangeEnd(base, count, stride, len) <= size;
}

Status CheckDma(const isa::DmaOp& op, const isa::Config& cfg, const MemSizes& mem) {
  RETURN_IF_ERROR(NonZero("n", op.n));
  RETURN_IF_ERROR(NonZero("rows", op.rows));
  RETURN_IF_ERROR(Aligned("DRAM address", op.dram.imm, 4));
  RETURN_IF_ERROR(Aligned("DRAM row stride", op.dram_stride, 4, false));
  RETURN_IF_ERROR(TmemRange("rows", op.tmem.imm, op.rows, op.tmem_stride, op.n, mem));
  return DramRange("rows", op.dram.imm, op.rows, op.dram_stride, uint64_t{op.n} * 4, mem);
}

Status CheckMm(const isa::MmOp& op, const isa::Config& cfg, const MemSizes& mem) {
  if (uint32_t(op.wf) > uint32_t(isa::WFormat::kFP4)) {
    return InvalidArgument(
        StrFormat("weight format WF=%u is not defined (0 int8, 1 int4, 2 fp4)", uint32_t(op.wf)));
  }
  bool four_bit = op.wf != isa::WFormat::kINT8;
  RETURN_IF_ERROR(NonZero("n", op.n));
  RETURN_IF_ERROR(NonZero("k", op.k));
  RETURN_IF_ERROR(NonZero("m", op.m));
  RETURN_IF_ERROR(MultipleOf("k", op.k, cfg.D, "D"));
  if (four_bit) RETURN_IF_ERROR(MultipleOf("k", op.k, 2 * cfg.D, "2*D (4-bit weights)"));
  uint64_t blocks = op.k / cfg.D;
  RETURN_IF_ERROR(ActRange(op.act_row, op.m, op.act_block, blocks, cfg));
  uint64_t row_bytes = four_bit ? op.k / 2 : op.k;
  RETURN_IF_ERROR(Aligned("W address", op.w.imm, cfg.D));
  RETURN_IF_ERROR(MultipleOf("W row stride", op.w_stride, cfg.D, "D"));
  if (op.w_stride < row_bytes) {
    return InvalidArgument(StrFormat("W row stride %u is shorter than a W row (%llu bytes)",
                               op.w_stride, ull(row_bytes)));
  }
  if (!op.unit) RETURN_IF_ERROR(Aligned("scale address", op.scales.imm, 4));
  RETURN_IF_ERROR(TmemRange("out", op.out.imm, op.m, op.out_stride, op.n, mem));
  RETURN_IF_ERROR(DramRange("W", op.w.imm, op.n, op.w_stride, row_bytes, mem));
  if (!op.unit) {
    RETURN_IF_ERROR(DramRange("scales", op.scales.imm, 1, 0, uint64_t{4} * op.n * blocks, mem));
  }
  return OkStatus();
}

Status CheckQact(const isa::QactOp& op, const isa::Config& cfg, const MemSizes& mem) {
  RETURN_IF_ERROR(NonZero("k", op.k));
  RETURN_IF_ERROR(NonZero("rows", op.rows));
  RETURN_IF_ERROR(MultipleOf("k", op.k, cfg.D, "D"));
  RETURN_IF_ERROR(ActRange(op.act_row, op.rows, op.act_block, op.k / cfg.D, cfg));
  return TmemRange("src", op.src.imm, op.rows, op.src_stride, op.k, mem);
}

Status CheckQst(const isa::QstOp& op, const isa::Config& cfg, const MemSizes& mem) {
  RETURN_IF_ERROR(NonZero("n", op.n));
  RETURN_IF_ERROR(NonZero("rows", op.rows));
  if (!op.perrow) RETURN_IF_ERROR(MultipleOf("n", op.n, cfg.D, "D"));
  RETURN_IF_ERROR(NonZero("element stride", op.elem_stride));
  RETURN_IF_ERROR(Aligned("scale address", op.scales.imm, 4));
  uint64_t scales = op.perrow ? 1 : op.n / cfg.D;
  RETURN_IF_ERROR(TmemRange("src", op.src.imm, op.rows, op.src_stride, op.n, mem));
  RETURN_IF_ERROR(DramRange("values", op.dst.imm, op.rows, op.dst_stride,
                            uint64_t{op.n - 1} * op.elem_stride + 1, mem));
  return DramRange("scales", op.scales.imm, 1, 0, uint64_t{4} * op.rows * scales, mem);
}

bool VopReadsA(VopFn fn) { return fn != VopFn::kFILL; }

bool VopReadsB(VopFn fn) {
  return fn != VopFn::kCOPY && !isa::IsReductionFn(fn);
}

Status CheckVop(const isa::VopOp& op, uint32_t fn_bits, const isa::Config& cfg,
                const MemSizes& mem) {
  if (fn_bits > 0xFF || !isa::IsVopFn(uint8_t(fn_bits))) {
    return InvalidArgument(StrFormat("VOP function %u is not defined", fn_bits));
  }
  RETURN_IF_ERROR(NonZero("n", op.n));
  RETURN_IF_ERROR(NonZero("m", op.m));
  bool reduce = isa::IsReductionFn(op.fn);
  RETURN_IF_ERROR(TmemRange("dst", op.dst.imm, op.m, op.dst_stride, reduce ? 1 : op.n, mem));
  if (VopReadsA(op.fn)) RETURN_IF_ERROR(TmemRange("A", op.a.imm, op.m, op.a_stride, op.n, mem));
  if (!VopReadsB(op.fn) || op.bzero) return OkStatus();
  switch (op.bmode) {
    case isa::BMode::kFULL: return TmemRange("B", op.b.imm, op.m, op.b_stride, op.n, mem);
    case isa::BMode::kROW: return TmemRange("B", op.b.imm, op.m, op.b_stride, 1, mem);
    case isa::BMode::kCOL: return TmemRange("B", op.b.imm, 1, 0, op.n, mem);
    case isa::BMode::kSCALAR: return TmemRange("B", op.b.imm, 1, 0, 1, mem);
  }
  return OkStatus();
}

int ErrorCauseOf(const std::string& m) {
  auto has = [&](const char* s) { return m.find(s) != std::string::npos; };
  if (has("opcode")) return 1;
  if (has("ran past the end")) return 2;
  if (has("VOP function")) return 3;
  if (has("weight format")) return 4;
  if (has("must be at least 1")) return 5;
  if (has("not a multiple of")) return 6;
  if (has("aligned")) return 7;
  if (has("shorter than a W row")) return 8;
  if (has("lie outside TMEM")) return 9;
  if (has("lie outside DRAM")) return 10;
  if (has("lie outside ACT RAM")) return 11;
  if (has("LOOP body of 0")) return 12;
  if (has("LOOP nested")) return 13;
  if (has("enclosing body")) return 14;
  if (has("runs past the end of the program")) return 15;
  return 0;
}

const char* ErrorCauseName(int cause) {
  switch (cause) {
    case 0: return "no error";
    case 1: return "opcode is not defined";
    case 2: return "ran past the end of the program without HALT";
    case 3: return "VOP function is not defined";
    case 4: return "weight format is not defined";
    case 5: return "a shape field is 0";
    case 6: return "a size or stride is not a multiple of D";
    case 7: return "a DRAM address or stride is misaligned";
    case 8: return "W row stride is shorter than a W row";
    case 9: return "a TMEM range lies outside TMEM";
    case 10: return "a DRAM range lies outside DRAM";
    case 11: return "an ACT RAM range lies outside ACT RAM";
    case 12: return "LOOP body of 0 instructions";
    case 13: return "LOOP nested more than 4 deep";
    case 14: return "LOOP body runs past the end of its enclosing body";
    case 15: return "LOOP body runs past the end of the program";
    default: return "unknown cause";
  }
}

}  // namespace otpu::sim
