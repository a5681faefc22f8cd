#include "workloads/random_program.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>

#include "base/status.h"
#include "workloads/isa/disasm.h"

namespace otpu::workloads {
namespace {

using isa::Opcode;

// How an address operand moves: register `reg` holds `val0` in the first iteration and grows
// by `step` per iteration, over `iters` iterations.
struct Base {
  uint8_t reg = 0;
  uint32_t val0 = 0;
  uint32_t step = 0;
};

class Generator {
 public:
  Generator(const isa::Config& cfg, const RandomProgramOptions& opts)
      : cfg_(cfg), opts_(opts), rng_(opts.seed) {}

  RandomProgram Make() {
    for (int i = 0; i < 8; ++i) prog_.args[size_t(i)] = uint32_t(rng_());
    const Base arg{8, prog_.args[0], 0};
    for (int s = 0; s < opts_.segments; ++s) {
      const uint32_t pick = U(0, 9);
      if (pick < 5) {
        Unit(Coin(50) ? arg : Base{}, Coin(50) ? arg : Base{}, 1);
      } else if (pick < 7) {
        Filler();
      } else {
        Loop();
      }
    }
    prog_.code.push_back(isa::EncodeHalt());
    return prog_;
  }

 private:
  uint32_t U(uint32_t lo, uint32_t hi) { return lo + uint32_t(rng_() % (uint64_t(hi) - lo + 1)); }
  bool Coin(int percent) { return int(rng_() % 100) < percent; }
  void Emit(const isa::Instr& in) { prog_.code.push_back(in); }

  // An operand for `extent` units inside [0, region) (moved up by `offset`, a multiple of
  // `align`), `align`-aligned, valid in every iteration; false when it cannot fit.
  bool Place(const Base& b, uint32_t iters, uint64_t extent, uint32_t region, uint32_t align,
             isa::Addr* out, uint64_t* lo = nullptr, uint64_t* hi = nullptr,
             uint64_t offset = 0) {
    const uint64_t sweep = uint64_t(b.step) * (iters - 1);
    if (extent + sweep > region) return false;
    uint32_t start = U(0, uint32_t(region - extent - sweep));
    start -= start % align;
    *out = isa::Addr{b.reg, uint32_t(start + offset) - b.val0};
    if (lo != nullptr) *lo = start;
    if (hi != nullptr) *hi = start + sweep + extent;
    return true;
  }

  // A DRAM operand: Place in the program's DRAM region, which starts at opts_.dram_base.
  bool PlaceDram(const Base& b, uint32_t iters, uint64_t extent, uint32_t align, isa::Addr* out) {
    return Place(b, iters, extent, opts_.dram_bytes, align, out, nullptr, nullptr,
                 opts_.dram_base);
  }

  void Filler() {
    switch (U(0, 2)) {
      case 0: Emit(isa::EncodeNop()); break;
      case 1: Emit(isa::EncodeLi({uint8_t(U(5, 7)), uint32_t(rng_())})); break;
      default:
        Emit(isa::EncodeAddi({uint8_t(U(5, 7)), isa::At(uint8_t(U(0, 7)), uint32_t(rng_()))}));
    }
  }

  // One unit instruction of a random kind; TMEM operands move with `tm`, DRAM ones with `dr`.
  // Retries a few shapes when one does not fit; emits nothing if none does.
  void Unit(const Base& tm, const Base& dr, uint32_t iters) {
    for (int attempt = 0; attempt < 8; ++attempt) {
      const Opcode op = opts_.kinds[U(0, uint32_t(opts_.kinds.size() - 1))];
      bool ok = false;
      switch (op) {
        case Opcode::kLD:
        case Opcode::kST: ok = Dma(op, tm, dr, iters); break;
        case Opcode::kVOP: ok = Vop(tm, iters); break;
        case Opcode::kQACT: ok = Qact(tm, iters); break;
        case Opcode::kQST: ok = Qst(tm, dr, iters); break;
        case Opcode::kMM: ok = Mm(tm, dr, iters); break;
        default: break;
      }
      if (ok) return;
    }
  }

  uint32_t Stride(uint32_t len) {
    switch (U(0, 3)) {
      case 0: return len;
      case 1: return len + U(1, 9);
      case 2: return U(0, len);
      default: return U(0, 2 * len + 8);
    }
  }

  bool Dma(Opcode op, const Base& tm, const Base& dr, uint32_t iters) {
    isa::DmaOp d;
    d.n = Coin(80) ? U(1, 24) : U(25, 70);
    d.rows = U(1, 3);
    d.tmem_stride = Stride(d.n);
    d.dram_stride = 4 * Stride(d.n);
    const uint64_t tm_ext = uint64_t(d.rows - 1) * d.tmem_stride + d.n;
    const uint64_t dr_ext = uint64_t(d.rows - 1) * d.dram_stride + 4 * uint64_t(d.n);
    if (!Place(tm, iters, tm_ext, opts_.tmem_words, 1, &d.tmem)) return false;
    if (!PlaceDram(dr, iters, dr_ext, 4, &d.dram)) return false;
    Emit(op == Opcode::kLD ? isa::EncodeLd(d) : isa::EncodeSt(d));
    return true;
  }

  bool Vop(const Base& tm, uint32_t iters) {
    isa::VopOp v;
    int combo = -1;
    if (opts_.edges) {
      // Cyclic, as SystemVerilog's randc: every fn with each B mode and with BZERO once
      // before any again, in one fixed shuffled order that each seed enters 17 forms further
      // on, so a program runs a different slice of it and a few consecutive seeds run them all.
      if (vop_cycle_.empty()) {
        vop_cycle_.resize(14 * 5);
        for (size_t i = 0; i < vop_cycle_.size(); ++i) vop_cycle_[i] = int(i);
        std::mt19937_64 order(0x5eed);
        std::shuffle(vop_cycle_.begin(), vop_cycle_.end(), order);
        vop_next_ = size_t(opts_.seed * 17 % vop_cycle_.size());
      }
      combo = vop_cycle_[vop_next_ % vop_cycle_.size()];
      v.fn = static_cast<isa::VopFn>(combo / 5);
      v.bzero = combo % 5 == 4;
      v.bmode = static_cast<isa::BMode>(v.bzero ? U(0, 3) : uint32_t(combo % 5));
    } else {
      v.fn = static_cast<isa::VopFn>(U(0, 13));
      v.bmode = static_cast<isa::BMode>(U(0, 3));
      v.bzero = Coin(10);
    }
    v.n = U(1, 20);
    v.m = U(1, 3);
    v.dst_stride = Stride(v.n);
    v.a_stride = Stride(v.n);
    v.b_stride = Stride(v.n);
    v.c = Coin(50) ? 0x3F800000u : std::bit_cast<uint32_t>(float(U(1, 64)) / 16.0f);
    if (Coin(20)) v.c |= 0x80000000u;
    const bool reduce = isa::IsReductionFn(v.fn);
    const uint64_t dst_ext = uint64_t(v.m - 1) * v.dst_stride + (reduce ? 1 : v.n);
    const uint64_t a_ext = uint64_t(v.m - 1) * v.a_stride + v.n;
    uint64_t b_ext = 1;
    switch (v.bmode) {
      case isa::BMode::kFULL: b_ext = uint64_t(v.m - 1) * v.b_stride + v.n; break;
      case isa::BMode::kROW: b_ext = uint64_t(v.m - 1) * v.b_stride + 1; break;
      case isa::BMode::kCOL: b_ext = v.n; break;
      case isa::BMode::kSCALAR: b_ext = 1; break;
    }
    // dst must not partially overlap A or B (docs/isa.md); in place (dst = A) is fine.
    uint64_t dlo, dhi, alo, ahi, blo, bhi;
    if (!Place(tm, iters, dst_ext, opts_.tmem_words, 1, &v.dst, &dlo, &dhi)) return false;
    const bool in_place = !reduce && Coin(20);
    if (in_place) {
      v.a = v.dst;
      v.a_stride = v.dst_stride;
      alo = ahi = 0;
    } else if (!Place(tm, iters, a_ext, opts_.tmem_words, 1, &v.a, &alo, &ahi)) {
      return false;
    }
    if (!Place(tm, iters, b_ext, opts_.tmem_words, 1, &v.b, &blo, &bhi)) return false;
    const bool reads_a = v.fn != isa::VopFn::kFILL;
    const bool reads_b = v.fn != isa::VopFn::kCOPY && !reduce && !v.bzero;
    auto overlap = [&](uint64_t lo, uint64_t hi) { return lo < dhi && dlo < hi; };
    if (reads_a && !in_place && overlap(alo, ahi)) return false;
    if (reads_b && overlap(blo, bhi)) return false;
    if (combo >= 0) ++vop_next_;  // the form is used: the next one comes next time
    Emit(isa::EncodeVop(v));
    return true;
  }

  // The first ACT RAM block of an access of `blocks` blocks: within opts_.act_blocks, and
  // with `edges` the last one possible in about one case in six.
  uint32_t ActBlock(uint32_t blocks) {
    const uint32_t limit = opts_.act_blocks ? opts_.act_blocks : uint32_t(cfg_.ACT_BLOCKS);
    const uint32_t last = limit > blocks ? limit - blocks : 0;
    if (opts_.edges && Coin(16)) return last;
    return U(0, last);
  }

  bool Qact(const Base& tm, uint32_t iters) {
    isa::QactOp q;
    q.k = uint32_t(cfg_.D) * U(1, 3);
    q.rows = U(1, 3);
    q.src_stride = Stride(q.k);
    q.perrow = Coin(30);
    q.act_row = U(0, uint32_t(cfg_.ACT_ROWS) - q.rows);
    q.act_block = ActBlock(q.k / uint32_t(cfg_.D));
    const uint64_t ext = uint64_t(q.rows - 1) * q.src_stride + q.k;
    if (!Place(tm, iters, ext, opts_.tmem_words, 1, &q.src)) return false;
    Emit(isa::EncodeQact(q));
    return true;
  }

  bool Qst(const Base& tm, const Base& dr, uint32_t iters) {
    isa::QstOp q;
    q.perrow = Coin(40);
    q.n = q.perrow ? (opts_.edges && Coin(15) ? 1 : U(1, 40)) : uint32_t(cfg_.D) * U(1, 2);
    q.rows = U(1, 3);
    q.src_stride = Stride(q.n);
    q.elem_stride = Coin(70) ? 1 : U(2, 6);
    q.dst_stride = Stride((q.n - 1) * q.elem_stride + 1);
    const uint32_t scales = q.perrow ? 1 : q.n / uint32_t(cfg_.D);
    const uint64_t src_ext = uint64_t(q.rows - 1) * q.src_stride + q.n;
    const uint64_t val_ext =
        uint64_t(q.rows - 1) * q.dst_stride + uint64_t(q.n - 1) * q.elem_stride + 1;
    if (!Place(tm, iters, src_ext, opts_.tmem_words, 1, &q.src)) return false;
    if (!PlaceDram(dr, iters, val_ext, 1, &q.dst)) return false;
    if (!PlaceDram(dr, iters, 4 * uint64_t(q.rows) * scales, 4, &q.scales)) return false;
    Emit(isa::EncodeQst(q));
    return true;
  }

  bool Mm(const Base& tm, const Base& dr, uint32_t iters) {
    isa::MmOp mm;
    const uint32_t d = uint32_t(cfg_.D);
    mm.wf = static_cast<isa::WFormat>(U(0, 2));
    const bool four_bit = mm.wf != isa::WFormat::kINT8;
    mm.k = four_bit ? 2 * d * U(1, 2) : d * U(1, 3);
    mm.n = U(1, 10);
    mm.m = Coin(70) ? U(1, uint32_t(cfg_.MCOLS)) : U(1, uint32_t(cfg_.ACT_ROWS));
    mm.act_row = U(0, uint32_t(cfg_.ACT_ROWS) - mm.m);
    mm.act_block = ActBlock(mm.k / d);
    mm.acc = Coin(40);
    mm.unit = Coin(20);
    const uint32_t row_bytes = four_bit ? mm.k / 2 : mm.k;
    mm.w_stride = (row_bytes + d - 1) / d * d + d * U(0, 1);
    mm.out_stride = Stride(mm.n);
    // Overlapping output rows are undefined (docs/isa.md, MM).
    if (mm.m > 1 && mm.out_stride < mm.n) mm.out_stride = mm.n + U(0, 3);
    const uint64_t out_ext = uint64_t(mm.m - 1) * mm.out_stride + mm.n;
    const uint64_t w_ext = uint64_t(mm.n - 1) * mm.w_stride + row_bytes;
    const uint64_t s_ext = 4 * uint64_t(mm.n) * (mm.k / d);
    if (!Place(tm, iters, out_ext, opts_.tmem_words, 1, &mm.out)) return false;
    if (!PlaceDram(dr.step % d == 0 ? dr : Base{}, iters, w_ext, d, &mm.w)) return false;
    if (!PlaceDram(dr, iters, s_ext, 4, &mm.scales)) return false;
    Emit(isa::EncodeMm(mm));
    return true;
  }

  // LI R1, R2 (moving bases) and maybe R3 (count); LOOP; body of unit instructions using
  // them; the ADDIs that move them; maybe an inner loop ending with the body.
  void Loop() {
    const uint32_t count = U(0, 4);
    const uint32_t iters = std::max<uint32_t>(count, 1);
    const Base tm{1, uint32_t(rng_()), U(0, 12)};
    const Base dr{2, uint32_t(rng_()), uint32_t(cfg_.D) * U(0, 2)};
    Emit(isa::EncodeLi({tm.reg, tm.val0}));
    Emit(isa::EncodeLi({dr.reg, dr.val0}));
    isa::LoopOp loop;
    if (Coin(50)) {
      const uint32_t x = uint32_t(rng_());
      Emit(isa::EncodeLi({3, x}));
      loop.count = isa::At(3, count - x);
    } else {
      loop.count = isa::At(count);
    }
    const size_t loop_pc = prog_.code.size();
    Emit(isa::EncodeLoop(loop));
    const uint32_t units = U(1, 3);
    for (uint32_t i = 0; i < units; ++i) {
      Unit(Coin(80) ? tm : Base{}, Coin(80) ? dr : Base{}, iters);
      if (Coin(20)) Filler();
    }
    Emit(isa::EncodeAddi({tm.reg, isa::At(tm.reg, tm.step)}));
    Emit(isa::EncodeAddi({dr.reg, isa::At(dr.reg, dr.step)}));
    if (Coin(25)) {
      isa::LoopOp inner;
      inner.count = isa::At(U(0, 3));
      const size_t inner_pc = prog_.code.size();
      Emit(isa::EncodeLoop(inner));
      Unit(Base{}, Base{}, 1);
      if (Coin(50)) Filler();
      prog_.code[inner_pc].w[4] = uint32_t(prog_.code.size() - inner_pc - 1);
    }
    prog_.code[loop_pc].w[4] = uint32_t(prog_.code.size() - loop_pc - 1);
  }

  const isa::Config& cfg_;
  const RandomProgramOptions& opts_;
  std::mt19937_64 rng_;
  RandomProgram prog_;
  std::vector<int> vop_cycle_;  // edges: the VOP forms (fn * 5 + B mode, 4 = BZERO) in turn
  size_t vop_next_ = 0;
};

}  // namespace

RandomProgram MakeRandomProgram(const isa::Config& cfg, const RandomProgramOptions& opts) {
  return Generator(cfg, opts).Make();
}

void FillRandomDram(uint64_t seed, uint32_t bytes, SparseMemory* dram, uint64_t base) {
  std::mt19937_64 rng(seed);
  // Values on rounding boundaries: every 16th word +-2^j and the others fp32((n + 1/2) * 2^j / 127),
  // so a quantizer block holding one of the former has amax = 2^j, recip(amax) exact,
  // inv = 127 * 2^-j exact and mul(x, inv) exactly n + 1/2: each of its values a tie of rne
  // (docs/isa.md "Numerics"). Random mantissas would almost never tie. Half the programs hold
  // only such values, with one j for the whole region (so blocks gathered from anywhere keep
  // that amax); the others have a third of their 512-byte chunks so, with a j per chunk.
  constexpr uint32_t kChunk = 512;
  const bool all_grid = rng() % 2 == 0;
  const int region_exp = int(rng() % 9) - 2;
  bool grid = false;
  int grid_exp = 0;
  for (uint32_t a = 0; a + 4 <= bytes; a += 4) {
    if (a % kChunk == 0) {
      grid = all_grid || rng() % 3 == 0;
      grid_exp = all_grid ? region_exp : int(rng() % 9) - 2;
    }
    uint32_t v;
    if (grid) {
      const bool neg = rng() & 1;
      const float mag = (a / 4) % 16 == 0
                            ? std::ldexp(1.0f, grid_exp)
                            : float((double(rng() % 127) + 0.5) * std::ldexp(1.0, grid_exp) / 127.0);
      const float f = neg ? -mag : mag;
      std::memcpy(&v, &f, 4);
      dram->Write32(base + a, v);
      continue;
    }
    const uint32_t pick = uint32_t(rng() % 1000);
    if (pick < 10) {
      v = 0;
    } else if (pick < 15) {
      constexpr uint32_t kSpecial[] = {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x00000001u,
                                       0x80400000u, 0x7F7FFFFFu};
      v = kSpecial[rng() % 6];
    } else {
      const uint32_t exp = uint32_t(127 - 8 + rng() % 17);
      v = uint32_t(rng() & 0x807FFFFFu) | exp << 23;
    }
    dram->Write32(base + a, v);
  }
}

std::vector<isa::Instr> InjectFault(const isa::Config& cfg, std::vector<isa::Instr> code,
                                    uint64_t seed, std::string* what) {
  std::mt19937_64 rng(seed);
  OTPU_CHECK(code.size() >= 2);
  const size_t at = size_t(rng() % (code.size() - 1));  // never the final HALT
  isa::Instr bad;
  switch (rng() % 12) {
    case 0:
      bad.w[0] = uint32_t(0x40 + rng() % 0x80);
      *what = "undefined opcode";
      break;
    case 1: {
      isa::VopOp v;
      bad = isa::EncodeVop(v);
      bad.w[4] = (bad.w[4] & ~0xFFu) | uint32_t(14 + rng() % 200);
      *what = "undefined VOP function";
      break;
    }
    case 2: {
      isa::MmOp mm;
      mm.n = 1;
      mm.k = uint32_t(cfg.D);
      mm.w_stride = uint32_t(cfg.D);
      bad = isa::EncodeMm(mm);
      bad.w[0] |= 0x0Cu << 24;
      *what = "weight format 3";
      break;
    }
    case 3: {
      isa::DmaOp d;
      d.n = 0;
      bad = isa::EncodeLd(d);
      *what = "LD with n=0";
      break;
    }
    case 4: {
      isa::DmaOp d;
      d.n = 4;
      d.dram = isa::At(2);
      bad = isa::EncodeSt(d);
      *what = "misaligned ST";
      break;
    }
    case 5: {
      isa::DmaOp d;
      d.n = 16;
      d.tmem = isa::At(cfg.TMEM_WORDS - 8);
      bad = isa::EncodeLd(d);
      *what = "LD past the end of TMEM";
      break;
    }
    case 6: {
      isa::DmaOp d;
      d.n = 8;
      d.dram = isa::At(uint32_t(cfg.DRAM_BYTES - 16));
      bad = isa::EncodeLd(d);
      *what = "LD past the end of DRAM";
      break;
    }
    case 7: {
      isa::QactOp q;
      q.k = uint32_t(cfg.D);
      q.rows = 2;
      q.act_row = uint32_t(cfg.ACT_ROWS) - 1;
      bad = isa::EncodeQact(q);
      *what = "QACT past the last ACT RAM row";
      break;
    }
    case 8:
      bad = isa::EncodeLoop({isa::At(1), 0});
      *what = "LOOP body of 0";
      break;
    case 9:
      bad = isa::EncodeLoop({isa::At(1), uint32_t(code.size())});
      *what = "LOOP body past its enclosing body or the program";
      break;
    case 10:
      code.back() = isa::EncodeNop();
      *what = "no HALT";
      return code;
    default: {
      // Five nested LOOPs at the start: the fifth is one too deep.
      std::vector<isa::Instr> nest;
      for (uint32_t i = 0; i < 5; ++i) nest.push_back(isa::EncodeLoop({isa::At(1), 5 - i}));
      nest.push_back(isa::EncodeNop());
      code.insert(code.begin(), nest.begin(), nest.end());
      *what = "LOOP nested 5 deep";
      return code;
    }
  }
  code[at] = bad;
  *what += " at pc " + std::to_string(at);
  return code;
}

namespace {

// One illegal kind: its name and the instructions that end the program (before its HALT).
struct IllegalKind {
  const char* name;
  std::vector<isa::Instr> (*make)(const isa::Config& cfg);
};

constexpr uint32_t kLegalDram = 1u << 20;  // a D-aligned DRAM address inside every memory

isa::DmaOp LegalDma() {
  isa::DmaOp d;
  d.dram = isa::At(kLegalDram);
  d.n = 4;
  return d;
}
isa::MmOp LegalMm(const isa::Config& cfg) {
  isa::MmOp mm;
  mm.w = isa::At(kLegalDram);
  mm.scales = isa::At(kLegalDram);
  mm.n = 1;
  mm.k = uint32_t(cfg.D);
  mm.w_stride = uint32_t(cfg.D);
  return mm;
}
isa::QactOp LegalQact(const isa::Config& cfg) {
  isa::QactOp q;
  q.k = uint32_t(cfg.D);
  return q;
}
isa::QstOp LegalQst(const isa::Config& cfg) {
  isa::QstOp q;
  q.dst = isa::At(kLegalDram);
  q.scales = isa::At(kLegalDram);
  q.n = uint32_t(cfg.D);
  return q;
}
uint32_t TopOfDram(const isa::Config& cfg, uint32_t below) {
  return uint32_t(uint64_t(cfg.DRAM_BYTES) - below);
}

using Code = std::vector<isa::Instr>;

// In the order of the checks (and of otpu_core_pkg::err_e where one check is one cause).
const std::vector<IllegalKind>& IllegalKinds() {
  static const std::vector<IllegalKind> kinds = {
      {"undefined opcode", [](const isa::Config&) {
         isa::Instr bad;
         bad.w[0] = 0x7Fu;
         return Code{bad};
       }},
      {"no HALT (running past the end)", [](const isa::Config&) { return Code{}; }},
      {"undefined VOP function", [](const isa::Config&) {
         isa::Instr bad = isa::EncodeVop(isa::VopOp{});
         bad.w[4] = (bad.w[4] & ~0xFFu) | 14u;
         return Code{bad};
       }},
      {"MM weight format 3", [](const isa::Config& cfg) {
         isa::Instr bad = isa::EncodeMm(LegalMm(cfg));
         bad.w[0] |= 0x0Cu << 24;
         return Code{bad};
       }},
      // LD / ST
      {"LD with n = 0", [](const isa::Config&) {
         isa::DmaOp d = LegalDma();
         d.n = 0;
         return Code{isa::EncodeLd(d)};
       }},
      {"ST to a misaligned DRAM address", [](const isa::Config&) {
         isa::DmaOp d = LegalDma();
         d.dram = isa::At(kLegalDram + 2);
         return Code{isa::EncodeSt(d)};
       }},
      {"LD past the end of TMEM", [](const isa::Config& cfg) {
         isa::DmaOp d = LegalDma();
         d.tmem = isa::At(cfg.TMEM_WORDS - 2);
         return Code{isa::EncodeLd(d)};
       }},
      {"ST past the end of DRAM", [](const isa::Config& cfg) {
         isa::DmaOp d = LegalDma();
         d.dram = isa::At(TopOfDram(cfg, 8));
         return Code{isa::EncodeSt(d)};
       }},
      // MM, in the order of its checks
      {"MM with n = 0", [](const isa::Config& cfg) {
         isa::MmOp mm = LegalMm(cfg);
         mm.n = 0;
         return Code{isa::EncodeMm(mm)};
       }},
      {"MM with k not a multiple of D", [](const isa::Config& cfg) {
         isa::MmOp mm = LegalMm(cfg);
         mm.k = uint32_t(cfg.D) + 4;
         return Code{isa::EncodeMm(mm)};
       }},
      {"MM past the last ACT RAM row", [](const isa::Config& cfg) {
         isa::MmOp mm = LegalMm(cfg);
         mm.m = 2;
         mm.act_row = uint32_t(cfg.ACT_ROWS) - 1;
         return Code{isa::EncodeMm(mm)};
       }},
      {"MM with W not D-aligned", [](const isa::Config& cfg) {
         isa::MmOp mm = LegalMm(cfg);
         mm.w = isa::At(kLegalDram + 4);
         return Code{isa::EncodeMm(mm)};
       }},
      {"MM with a W stride not a multiple of D", [](const isa::Config& cfg) {
         isa::MmOp mm = LegalMm(cfg);
         mm.w_stride = uint32_t(cfg.D) + 4;
         return Code{isa::EncodeMm(mm)};
       }},
      {"MM with a W stride shorter than a W row", [](const isa::Config& cfg) {
         isa::MmOp mm = LegalMm(cfg);
         mm.k = 2 * uint32_t(cfg.D);
         return Code{isa::EncodeMm(mm)};
       }},
      {"MM with misaligned scales", [](const isa::Config& cfg) {
         isa::MmOp mm = LegalMm(cfg);
         mm.scales = isa::At(kLegalDram + 2);
         return Code{isa::EncodeMm(mm)};
       }},
      {"MM past the end of TMEM", [](const isa::Config& cfg) {
         isa::MmOp mm = LegalMm(cfg);
         mm.n = 4;
         mm.out = isa::At(cfg.TMEM_WORDS - 1);
         return Code{isa::EncodeMm(mm)};
       }},
      {"MM with W past the end of DRAM", [](const isa::Config& cfg) {
         isa::MmOp mm = LegalMm(cfg);
         mm.n = 2;
         mm.w = isa::At(TopOfDram(cfg, uint32_t(cfg.D)));
         return Code{isa::EncodeMm(mm)};
       }},
      // QACT
      {"QACT with k = 0", [](const isa::Config& cfg) {
         isa::QactOp q = LegalQact(cfg);
         q.k = 0;
         return Code{isa::EncodeQact(q)};
       }},
      {"QACT with k not a multiple of D", [](const isa::Config& cfg) {
         isa::QactOp q = LegalQact(cfg);
         q.k = uint32_t(cfg.D) + 4;
         return Code{isa::EncodeQact(q)};
       }},
      {"QACT past the last ACT RAM row", [](const isa::Config& cfg) {
         isa::QactOp q = LegalQact(cfg);
         q.rows = 2;
         q.act_row = uint32_t(cfg.ACT_ROWS) - 1;
         return Code{isa::EncodeQact(q)};
       }},
      {"QACT past the end of TMEM", [](const isa::Config& cfg) {
         isa::QactOp q = LegalQact(cfg);
         q.src = isa::At(cfg.TMEM_WORDS - uint32_t(cfg.D) / 2);
         return Code{isa::EncodeQact(q)};
       }},
      // QST
      {"QST with n = 0", [](const isa::Config& cfg) {
         isa::QstOp q = LegalQst(cfg);
         q.n = 0;
         return Code{isa::EncodeQst(q)};
       }},
      {"QST with n not a multiple of D", [](const isa::Config& cfg) {
         isa::QstOp q = LegalQst(cfg);
         q.n = uint32_t(cfg.D) + 1;
         return Code{isa::EncodeQst(q)};
       }},
      {"QST with an element stride of 0", [](const isa::Config& cfg) {
         isa::QstOp q = LegalQst(cfg);
         q.elem_stride = 0;
         return Code{isa::EncodeQst(q)};
       }},
      {"QST with misaligned scales", [](const isa::Config& cfg) {
         isa::QstOp q = LegalQst(cfg);
         q.scales = isa::At(kLegalDram + 2);
         return Code{isa::EncodeQst(q)};
       }},
      {"QST past the end of TMEM", [](const isa::Config& cfg) {
         isa::QstOp q = LegalQst(cfg);
         q.src = isa::At(cfg.TMEM_WORDS - 1);
         return Code{isa::EncodeQst(q)};
       }},
      {"QST past the end of DRAM", [](const isa::Config& cfg) {
         isa::QstOp q = LegalQst(cfg);
         q.dst = isa::At(TopOfDram(cfg, 4));
         return Code{isa::EncodeQst(q)};
       }},
      // VOP
      {"VOP with n = 0", [](const isa::Config&) {
         isa::VopOp v;
         v.n = 0;
         return Code{isa::EncodeVop(v)};
       }},
      {"VOP past the end of TMEM", [](const isa::Config& cfg) {
         isa::VopOp v;
         v.dst = isa::At(cfg.TMEM_WORDS);
         return Code{isa::EncodeVop(v)};
       }},
      // LOOP
      {"LOOP body of 0", [](const isa::Config&) {
         return Code{isa::EncodeLoop({isa::At(1), 0})};
       }},
      {"LOOP nested 5 deep", [](const isa::Config&) {
         Code nest;
         for (uint32_t i = 0; i < 5; ++i) nest.push_back(isa::EncodeLoop({isa::At(1), 5 - i}));
         nest.push_back(isa::EncodeNop());
         return nest;
       }},
      {"LOOP body past the end of its enclosing body", [](const isa::Config&) {
         return Code{isa::EncodeLoop({isa::At(1), 2}), isa::EncodeLoop({isa::At(1), 3}),
                     isa::EncodeNop(), isa::EncodeNop(), isa::EncodeNop()};
       }},
      {"LOOP body past the end of the program", [](const isa::Config&) {
         return Code{isa::EncodeLoop({isa::At(1), 2})};  // the HALT and one past it
       }},
  };
  return kinds;
}

}  // namespace

int IllegalKindCount() { return int(IllegalKinds().size()); }

std::vector<isa::Instr> EndInIllegal(const isa::Config& cfg, std::vector<isa::Instr> code,
                                     int kind, std::string* what) {
  OTPU_CHECK(!code.empty() && kind >= 0 && kind < IllegalKindCount());
  const IllegalKind& k = IllegalKinds()[size_t(kind)];
  *what = k.name;
  const Code bad = k.make(cfg);
  if (bad.empty()) {  // running past the end: the HALT goes
    code.back() = isa::EncodeNop();
    return code;
  }
  code.insert(code.end() - 1, bad.begin(), bad.end());
  return code;
}

std::string Listing(const std::vector<isa::Instr>& code) {
  std::string out;
  for (size_t pc = 0; pc < code.size(); ++pc) {
    out += std::to_string(pc) + ": " + isa::Disassemble(code[pc]) + "\n";
  }
  return out;
}

}  // namespace otpu::workloads
