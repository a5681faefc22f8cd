#include "workloads/isa/footprint.h"

#include "base/strings.h"

namespace otpu::isa {
namespace {

// [base, base + (count - 1)·stride + len): otpu_core_pkg's range_end, in 128 bits so no
// operand can wrap it (a legal instruction's end fits in 33 bits).
Interval Rows(uint32_t base, uint32_t count, uint64_t stride, uint64_t len, bool wr) {
  const unsigned __int128 end = (unsigned __int128)base +
                                (unsigned __int128)(count ? count - 1 : 0) * stride + len;
  Interval r;
  r.v = true;
  r.wr = wr;
  r.lo = base;
  r.hi = end > ~uint64_t{0} ? ~uint64_t{0} : uint64_t(end);
  return r;
}

bool Overlap(const Interval& a, const Interval& b) {
  return a.v && b.v && (a.wr || b.wr) && a.lo < b.hi && b.lo < a.hi;
}

const char* Kind(const Interval& older, const Interval& younger) {
  if (older.wr && younger.wr) return "WAW";
  return older.wr ? "RAW" : "WAR";
}

std::string Describe(const char* space, const Interval& a, const Interval& b) {
  return StrFormat("%s on %s [0x%llx, 0x%llx) / [0x%llx, 0x%llx)", Kind(a, b), space,
                   (unsigned long long)a.lo, (unsigned long long)a.hi, (unsigned long long)b.lo,
                   (unsigned long long)b.hi);
}

}  // namespace

Footprint FootprintOf(const Instr& in, const Config& cfg) {
  Footprint fp;
  const uint32_t d = uint32_t(cfg.D);
  switch (static_cast<Opcode>(in.opcode())) {
    case Opcode::kLD:
    case Opcode::kST: {
      const DmaOp x = DecodeDma(in, nullptr);
      const bool ld = in.opcode() == uint8_t(Opcode::kLD);
      fp.tm[0] = Rows(x.tmem.imm, x.rows, x.tmem_stride, x.n, ld);
      fp.dr[0] = Rows(x.dram.imm, x.rows, x.dram_stride, 4 * uint64_t(x.n), !ld);
      break;
    }
    case Opcode::kMM: {
      const MmOp x = DecodeMm(in, nullptr);
      const uint32_t blocks = x.k / d;
      const uint64_t row_bytes = x.wf != WFormat::kINT8 ? x.k / 2 : x.k;
      // ACC reads the outputs it writes: the write interval covers both.
      fp.tm[0] = Rows(x.out.imm, x.m, x.out_stride, x.n, true);
      fp.dr[0] = Rows(x.w.imm, x.n, x.w_stride, row_bytes, false);
      if (!x.unit) fp.dr[1] = Rows(x.scales.imm, 1, 0, 4 * uint64_t(x.n) * blocks, false);
      fp.act_rows = Rows(x.act_row, 1, 0, x.m, false);
      fp.act_blocks = Rows(x.act_block, 1, 0, blocks, false);
      break;
    }
    case Opcode::kQACT: {
      const QactOp x = DecodeQact(in, nullptr);
      fp.tm[0] = Rows(x.src.imm, x.rows, x.src_stride, x.k, false);
      fp.act_rows = Rows(x.act_row, 1, 0, x.rows, true);
      fp.act_blocks = Rows(x.act_block, 1, 0, x.k / d, true);
      break;
    }
    case Opcode::kQST: {
      const QstOp x = DecodeQst(in, nullptr);
      const uint64_t scales = x.perrow ? 1 : x.n / d;
      fp.tm[0] = Rows(x.src.imm, x.rows, x.src_stride, x.n, false);
      fp.dr[0] = Rows(x.dst.imm, x.rows, x.dst_stride,
                      uint64_t(x.n ? x.n - 1 : 0) * x.elem_stride + 1, true);
      fp.dr[1] = Rows(x.scales.imm, 1, 0, 4 * uint64_t(x.rows) * scales, true);
      break;
    }
    case Opcode::kVOP: {
      const VopOp x = DecodeVop(in, nullptr);
      const bool reduce = IsReductionFn(x.fn);
      fp.tm[0] = Rows(x.dst.imm, x.m, x.dst_stride, reduce ? 1 : x.n, true);
      if (x.fn != VopFn::kFILL) fp.tm[1] = Rows(x.a.imm, x.m, x.a_stride, x.n, false);
      if (x.fn != VopFn::kCOPY && !reduce && !x.bzero) {
        switch (x.bmode) {
          case BMode::kFULL: fp.tm[2] = Rows(x.b.imm, x.m, x.b_stride, x.n, false); break;
          case BMode::kROW: fp.tm[2] = Rows(x.b.imm, x.m, x.b_stride, 1, false); break;
          case BMode::kCOL: fp.tm[2] = Rows(x.b.imm, 1, 0, x.n, false); break;
          default: fp.tm[2] = Rows(x.b.imm, 1, 0, 1, false); break;
        }
      }
      break;
    }
    default:
      break;
  }
  return fp;
}

Conflict ConflictOf(const Footprint& a, const Footprint& b, bool describe) {
  Conflict c;
  for (const Interval& x : a.dr) {
    for (const Interval& y : b.dr) {
      if (Overlap(x, y)) {
        if (describe && c.what.empty()) c.what = Describe("DRAM", x, y);
        c.dram = true;
      }
    }
  }
  c.any = c.dram;
  for (const Interval& x : a.tm) {
    for (const Interval& y : b.tm) {
      if (Overlap(x, y)) {
        if (describe && c.what.empty()) c.what = Describe("TMEM", x, y);
        c.any = true;
      }
    }
  }
  if (Overlap(a.act_rows, b.act_rows) && Overlap(a.act_blocks, b.act_blocks)) {
    if (describe && c.what.empty()) {
      c.what = StrFormat("%s on ACT RAM rows [%llu, %llu) blocks [%llu, %llu) / rows [%llu, %llu) "
                         "blocks [%llu, %llu)",
                         Kind(a.act_rows, b.act_rows), (unsigned long long)a.act_rows.lo,
                         (unsigned long long)a.act_rows.hi, (unsigned long long)a.act_blocks.lo,
                         (unsigned long long)a.act_blocks.hi, (unsigned long long)b.act_rows.lo,
                         (unsigned long long)b.act_rows.hi, (unsigned long long)b.act_blocks.lo,
                         (unsigned long long)b.act_blocks.hi);
    }
    c.any = true;
  }
  return c;
}

}  // namespace otpu::isa
