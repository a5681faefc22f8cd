// otpu_vpu (rtl/core) against the ISA simulator: random VOPs of every function, B mode and
// shape on TMEM full of special values, with the TMEM refusing requests at random. After each
// instruction the whole TMEM must equal the simulator's.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "Votpu_vpu.h"
#include "sim/isa/checks.h"
#include "tests/rtl/units/unit_bench.h"
#include "verilated.h"
#include "workloads/isa/disasm.h"

namespace otpu::rtl::units {
namespace {

const isa::Config kCfg = UnitConfig();

// The suite is named after the configuration, so both builds' cases are told apart.
#ifdef OTPU_UNIT_BOARD
#define OTPU_VPU_SUITE VpuBoardRtlTest
#else
#define OTPU_VPU_SUITE VpuRtlTest
#endif
constexpr int kAddrBits = 16;  // $clog2(TMEM_WORDS)
constexpr int64_t kTimeout = 200000;

// The Verilated VPU with the sequencer's side played by Run().
class VpuBench {
 public:
  VpuBench(uint64_t seed, int refuse_pct)
      : ctx_(std::make_unique<VerilatedContext>()),
        top_(std::make_unique<Votpu_vpu>(ctx_.get(), "otpu_vpu")),
        tmem_(kCfg.LANES, kAddrBits, refuse_pct, seed ^ 0x7E3Eu),
        rng_(seed) {
    tmem_.words().assign(kCfg.TMEM_WORDS, 0);
    top_->rst_ni = 0;
    top_->clk_i = 0;
    top_->eval();
    top_->rst_ni = 1;
    top_->eval();
  }
  ~VpuBench() { top_->final(); }

  TmemModel& tmem() { return tmem_; }
  // Unit counter 0 (frz) reported with the last done.
  uint32_t last_frz() const { return last_frz_; }
  int64_t cycles() const { return cycle_; }

  // Offers `in` after a random delay, clocks until its done pulse; false on a timeout or a
  // protocol error (reported as a test failure).
  bool Run(const isa::Instr& in, uint32_t slot) {
    for (int d = int(rng_() % 3); d > 0; --d) Tick();
    top_->issue_valid_i = 1;
    top_->issue_slot_i = slot;
    for (int i = 0; i < isa::kInstrWords; ++i) SetWord(top_->issue_instr_i, i, in.w[i]);
    bool issued = false;
    for (int64_t t = 0; t < kTimeout; ++t) {
      const bool taking = top_->issue_valid_i && top_->issue_ready_o;
      Tick();
      if (taking) {
        issued = true;
        top_->issue_valid_i = 0;
        for (int i = 0; i < isa::kInstrWords; ++i)
          SetWord(top_->issue_instr_i, i, uint32_t(rng_()));
      }
      if (top_->done_o) {
        EXPECT_TRUE(issued) << "done before the instruction was taken";
        EXPECT_EQ(top_->done_slot_o, slot);
        last_frz_ = GetWord(top_->done_cnt_o, 0);
        return true;
      }
    }
    ADD_FAILURE() << "no done after " << kTimeout << " cycles: " << isa::Disassemble(in);
    return false;
  }

 private:
  void Tick() {
    top_->clk_i = 0;
    top_->eval();
    tmem_.Drive(*top_);
    top_->eval();
    tmem_.Commit(*top_);
    top_->clk_i = 1;
    top_->eval();
    ++cycle_;
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Votpu_vpu> top_;
  TmemModel tmem_;
  std::mt19937_64 rng_;
  int64_t cycle_ = 0;
  uint32_t last_frz_ = 0;
};

// A VOP request: the function, B mode and zero flag; the rest is random.
struct VopShape {
  isa::VopFn fn;
  isa::BMode bmode;
  bool bzero;
};

uint32_t RandomN(Values& v) {
  static constexpr uint32_t kEdges[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 24, 33};
  return v.Chance(50) ? kEdges[v.Uniform(0, std::size(kEdges) - 1)] : uint32_t(v.Uniform(1, 70));
}

uint32_t RandomC(Values& v) {
  const int pick = int(v.Uniform(0, 9));
  if (pick < 4) return 0x3F800000u;  // 1.0
  if (pick < 7) return v.Normal(-4, 4);
  if (pick < 9) return v.Fp32();
  return v.Special();
}

// [lo, hi) of `rows` rows of `len` words `stride` apart.
struct Span {
  uint64_t lo, hi;
  bool Overlaps(const Span& o) const { return lo < o.hi && o.lo < hi; }
};
Span SpanOf(uint32_t base, uint32_t rows, uint32_t stride, uint32_t len) {
  return Span{base, uint64_t{base} + uint64_t{rows - 1} * stride + len};
}

// A legal VOP of `shape` whose dst is either disjoint from its sources or exactly in place
// (same base and stride) over A or a FULL B: the cases docs/isa.md defines.
isa::Instr RandomVop(Values& v, const VopShape& shape) {
  const bool reads_a = sim::VopReadsA(shape.fn);
  const bool reads_b = sim::VopReadsB(shape.fn) && !shape.bzero;
  const bool reduce = isa::IsReductionFn(shape.fn);
  for (;;) {
    isa::VopOp op;
    op.fn = shape.fn;
    op.bmode = shape.bmode;
    op.bzero = shape.bzero;
    op.n = RandomN(v);
    op.m = uint32_t(v.Chance(80) ? v.Uniform(1, 4) : v.Uniform(5, 9));
    op.c = RandomC(v);
    auto stride = [&](uint32_t len) {
      const int pick = int(v.Uniform(0, 9));
      if (pick == 0) return uint32_t{0};
      if (pick == 1) return uint32_t(v.Uniform(1, len));  // rows overlap
      return uint32_t(v.Uniform(len, len + 24));
    };
    const uint32_t dst_len = reduce ? 1 : op.n;
    op.dst_stride = stride(dst_len);
    op.a_stride = stride(op.n);
    op.b_stride = stride(op.n);
    auto place = [&](uint32_t rows, uint32_t str, uint32_t len) {
      const uint64_t span = uint64_t{rows - 1} * str + len;
      const uint64_t top = kCfg.TMEM_WORDS - span;
      if (v.Chance(10)) return uint32_t(top);  // ends at the last TMEM word
      return uint32_t(v.Uniform(0, std::min<uint64_t>(top, 4096)));
    };
    op.a.imm = place(op.m, op.a_stride, op.n);
    op.dst.imm = place(op.m, op.dst_stride, dst_len);
    uint32_t b_rows = op.m, b_len = op.n, b_stride = op.b_stride;
    switch (op.bmode) {
      case isa::BMode::kFULL:
        break;
      case isa::BMode::kROW:
        b_len = 1;
        break;
      case isa::BMode::kCOL:
        b_rows = 1;
        b_stride = 0;
        break;
      case isa::BMode::kSCALAR:
        b_rows = 1;
        b_len = 1;
        b_stride = 0;
        break;
    }
    op.b.imm = place(b_rows, b_stride, b_len);
    const int layout = int(v.Uniform(0, 9));
    bool in_place_a = false, in_place_b = false;
    if (!reduce && reads_a && layout < 3) {
      op.dst.imm = op.a.imm;
      op.dst_stride = op.a_stride;
      in_place_a = true;
    } else if (!reduce && reads_b && op.bmode == isa::BMode::kFULL && layout < 5) {
      op.dst.imm = op.b.imm;
      op.dst_stride = op.b_stride;
      in_place_b = true;
    }
    const Span dst = SpanOf(op.dst.imm, op.m, op.dst_stride, dst_len);
    const Span a = SpanOf(op.a.imm, op.m, op.a_stride, op.n);
    const Span b = SpanOf(op.b.imm, b_rows, b_stride, b_len);
    if (reads_a && !in_place_a && dst.Overlaps(a)) continue;
    if (reads_b && !in_place_b && dst.Overlaps(b)) continue;
    if (in_place_a && reads_b &&
        !(op.bmode == isa::BMode::kFULL && op.b.imm == op.a.imm && op.b_stride == op.a_stride) &&
        dst.Overlaps(b)) {
      continue;
    }
    if (in_place_b && reads_a && dst.Overlaps(a)) continue;
    isa::Instr in = isa::EncodeVop(op);
    const sim::MemSizes mem{kCfg.TMEM_WORDS, 1 << 20};
    if (!sim::CheckVop(isa::DecodeVop(in, nullptr), uint32_t(shape.fn), kCfg, mem).ok()) continue;
    return in;
  }
}

VopShape RandomShape(Values& v) {
  return VopShape{isa::VopFn(v.Uniform(0, 13)), isa::BMode(v.Uniform(0, 3)), v.Chance(15)};
}

// Runs the instructions on the RTL and the ISA simulator from the same random TMEM and
// compares the whole TMEM after each one.
class OTPU_VPU_SUITE : public ::testing::Test {
 protected:
  void Start(uint64_t seed, int refuse_pct, bool specials_only = false) {
    values_ = std::make_unique<Values>(seed);
    bench_ = std::make_unique<VpuBench>(seed, refuse_pct);
    golden_ = std::make_unique<Golden>(kCfg, 1 << 20);
    auto& words = bench_->tmem().words();
    for (auto& w : words) w = specials_only ? values_->Special() : values_->Fp32();
    golden_->sim().tmem() = words;
  }

  // True when the RTL and the simulator agree after `in`.
  bool Check(const isa::Instr& in, uint32_t slot) {
    const Status st = golden_->Exec(in);
    EXPECT_TRUE(st.ok()) << st.message();
    if (!bench_->Run(in, slot)) return false;
    const std::string diff = DiffWords(bench_->tmem().words(), golden_->sim().tmem());
    EXPECT_EQ(diff, "") << isa::Disassemble(in);
    EXPECT_TRUE(bench_->tmem().violations().empty()) << bench_->tmem().violations()[0];
    return diff.empty() && bench_->tmem().violations().empty();
  }

  std::unique_ptr<Values> values_;
  std::unique_ptr<VpuBench> bench_;
  std::unique_ptr<Golden> golden_;
};

TEST_F(OTPU_VPU_SUITE, RandomInstructionsMatchIsaSim) {
  Start(1, 20);
  for (int i = 0; i < 1500; ++i) {
    if (!Check(RandomVop(*values_, RandomShape(*values_)), uint32_t(i % 16))) break;
  }
}

TEST_F(OTPU_VPU_SUITE, EveryFunctionBModeAndBZeroMatchesIsaSim) {
  Start(2, 30);
  for (int fn = 0; fn <= 13; ++fn) {
    for (int bmode = 0; bmode < 4; ++bmode) {
      for (int bzero = 0; bzero < 2; ++bzero) {
        const VopShape shape{isa::VopFn(fn), isa::BMode(bmode), bzero == 1};
        for (int rep = 0; rep < 4; ++rep) {
          ASSERT_TRUE(Check(RandomVop(*values_, shape), 3)) << "fn " << fn << " bmode " << bmode;
        }
      }
    }
  }
}

TEST_F(OTPU_VPU_SUITE, SpecialValuesOnlyMatchIsaSim) {
  Start(3, 10, /*specials_only=*/true);
  for (int i = 0; i < 400; ++i) {
    if (!Check(RandomVop(*values_, RandomShape(*values_)), 5)) break;
  }
}

TEST_F(OTPU_VPU_SUITE, ReportsRefusedCyclesAsFrz) {
  Start(4, 50);
  for (int i = 0; i < 20; ++i) {
    const int64_t before = bench_->tmem().refused();
    ASSERT_TRUE(Check(RandomVop(*values_, RandomShape(*values_)), 7));
    EXPECT_EQ(int64_t{bench_->last_frz()}, bench_->tmem().refused() - before);
  }
}

TEST_F(OTPU_VPU_SUITE, UnrefusedGroupTakesOneCyclePerTmemRequest) {
  // ADD of one full row: read A, read B, write: three requests for each group of LANES.
  Start(5, 0);
  isa::VopOp op;
  op.fn = isa::VopFn::kADD;
  op.n = uint32_t(4 * kCfg.LANES);
  op.dst.imm = 1000;
  op.a.imm = 2000;
  op.b.imm = 3000;
  const int64_t before = bench_->cycles();
  ASSERT_TRUE(Check(isa::EncodeVop(op), 0));
  EXPECT_LE(bench_->cycles() - before, 3 * 4 + 4);
}

}  // namespace
}  // namespace otpu::rtl::units
