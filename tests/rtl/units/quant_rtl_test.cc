// otpu_quant (rtl/core) against the ISA simulator: random QACT and QST instructions (per block
// and PERROW, contiguous and strided stores, overlapping DRAM layouts) on TMEM full of special
// values, with TMEM refusals and port A withholding ready. After each instruction ACT RAM and
// DRAM must equal the simulator's.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "Votpu_quant.h"
#include "sim/isa/checks.h"
#include "tests/rtl/units/unit_bench.h"
#include "verilated.h"
#include "workloads/isa/cost.h"
#include "workloads/isa/disasm.h"

namespace otpu::rtl::units {
namespace {

const isa::Config kCfg = UnitConfig();

// The suite is named after the configuration, so both builds' cases are told apart.
#ifdef OTPU_UNIT_BOARD
#define OTPU_QUANT_SUITE QuantBoardRtlTest
#else
#define OTPU_QUANT_SUITE QuantRtlTest
#endif
constexpr int kAddrBits = 16;  // $clog2(TMEM_WORDS)
constexpr uint64_t kDramBytes = 1 << 20;
constexpr uint64_t kDramUsed = 1 << 16;  // where the stores go, filled with random bytes
constexpr int64_t kTimeout = 400000;

// The Verilated QUANT with the sequencer, TMEM, port A and ACT RAM played around it.
class QuantBench {
 public:
  QuantBench(uint64_t seed, int refuse_pct, int a_stall_pct)
      : ctx_(std::make_unique<VerilatedContext>()),
        top_(std::make_unique<Votpu_quant>(ctx_.get(), "otpu_quant")),
        tmem_(kCfg.LANES, kAddrBits, refuse_pct, seed ^ 0x7E3Eu),
        dram_(kDramBytes),
        act_(kCfg),
        a_stall_pct_(a_stall_pct),
        rng_(seed) {
    tmem_.words().assign(kCfg.TMEM_WORDS, 0);
    top_->rst_ni = 0;
    top_->clk_i = 0;
    top_->eval();
    top_->rst_ni = 1;
    top_->eval();
  }
  ~QuantBench() { top_->final(); }

  TmemModel& tmem() { return tmem_; }
  SparseMemory& dram() { return dram_; }
  sim::ActRam& act() { return act_; }
  int64_t port_a_writes() const { return a_writes_; }
  uint32_t last_frz() const { return last_frz_; }
  const std::vector<std::string>& violations() const { return violations_; }

  // Offers `in` after a random delay and clocks until its done pulse; false on a timeout.
  bool Run(const isa::Instr& in, uint32_t slot) {
    for (int d = int(rng_() % 3); d > 0; --d) Tick();
    top_->issue_valid_i = 1;
    top_->issue_slot_i = slot;
    for (int i = 0; i < isa::kInstrWords; ++i) SetWord(top_->issue_instr_i, i, in.w[i]);
    for (int64_t t = 0; t < kTimeout; ++t) {
      const bool taking = top_->issue_valid_i && top_->issue_ready_o;
      Tick();
      if (taking) top_->issue_valid_i = 0;
      if (top_->done_o) {
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
    top_->a_ready_i = int(rng_() % 100) >= a_stall_pct_;
    top_->eval();
    if (top_->tm_req_o && top_->tm_we_o) violations_.push_back("QUANT wrote TMEM");
    if (top_->a_valid_o && top_->a_ready_i) WritePortA();
    if (top_->act_we_o) {
      const int row = top_->act_row_o, block = top_->act_block_o;
      int8_t* values = act_.Block(row, block);
      for (int e = 0; e < kCfg.D; ++e) values[e] = int8_t(GetBits(top_->act_data_o, 8 * e, 8));
      act_.Scale(row, block) = std::bit_cast<float>(uint32_t(top_->act_scale_o));
    }
    tmem_.Commit(*top_);
    top_->clk_i = 1;
    top_->eval();
  }

  void WritePortA() {
    ++a_writes_;
    const uint32_t addr = top_->a_addr_o;
    if (!top_->a_we_o) violations_.push_back("QUANT read port A");
    if (addr % 4 != 0 || top_->a_be_o == 0 || uint64_t{addr} + 4 > kDramBytes) {
      violations_.push_back("bad port-A write at " + std::to_string(addr));
      return;
    }
    for (int b = 0; b < 4; ++b) {
      if (top_->a_be_o >> b & 1) dram_.Write8(addr + b, uint8_t(top_->a_wdata_o >> (8 * b)));
    }
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Votpu_quant> top_;
  TmemModel tmem_;
  SparseMemory dram_;
  sim::ActRam act_;
  int a_stall_pct_;
  std::mt19937_64 rng_;
  int64_t a_writes_ = 0;
  uint32_t last_frz_ = 0;
  std::vector<std::string> violations_;
};

uint32_t RandomTmemBase(Values& v, uint32_t rows, uint32_t stride, uint32_t len) {
  const uint64_t span = uint64_t{rows - 1} * stride + len;
  const uint64_t top = kCfg.TMEM_WORDS - span;
  return v.Chance(10) ? uint32_t(top) : uint32_t(v.Uniform(0, std::min<uint64_t>(top, 8192)));
}

isa::Instr RandomQact(Values& v) {
  isa::QactOp op;
  op.perrow = v.Chance(40);
  const uint32_t blocks = uint32_t(v.Chance(85) ? v.Uniform(1, 6) : v.Uniform(7, 40));
  op.k = blocks * uint32_t(kCfg.D);
  op.rows = uint32_t(v.Chance(80) ? v.Uniform(1, 3) : v.Uniform(4, 16));
  op.src_stride = uint32_t(v.Chance(10) ? v.Uniform(0, op.k) : v.Uniform(op.k, op.k + 40));
  op.src.imm = RandomTmemBase(v, op.rows, op.src_stride, op.k);
  op.act_row = uint32_t(v.Uniform(0, uint64_t(kCfg.ACT_ROWS) - op.rows));
  op.act_block = uint32_t(v.Uniform(0, uint64_t(kCfg.ACT_BLOCKS) - blocks));
  return isa::EncodeQact(op);
}

isa::Instr RandomQst(Values& v) {
  isa::QstOp op;
  op.perrow = v.Chance(40);
  op.n = op.perrow && v.Chance(50) ? uint32_t(v.Uniform(1, 100))
                                   : uint32_t(kCfg.D) * uint32_t(v.Uniform(1, 4));
  op.rows = uint32_t(v.Uniform(1, 4));
  op.src_stride = uint32_t(v.Uniform(op.n, op.n + 40));
  op.src.imm = RandomTmemBase(v, op.rows, op.src_stride, op.n);
  const int pick = int(v.Uniform(0, 9));
  op.elem_stride = pick < 5   ? 1
                   : pick < 8 ? uint32_t(v.Uniform(2, 9))
                              : uint32_t(v.Uniform(60, 300));
  const uint64_t row_span = uint64_t{op.n - 1} * op.elem_stride + 1;
  // Rows usually apart, sometimes overlapping (later rows win, as in the simulator).
  op.dst_stride =
      uint32_t(v.Chance(80) ? v.Uniform(row_span, row_span + 64) : v.Uniform(0, row_span));
  const uint64_t span = uint64_t{op.rows - 1} * op.dst_stride + row_span;
  if (span > kDramUsed / 2) return RandomQst(v);  // keep the stores inside the filled region
  op.dst.imm = uint32_t(v.Uniform(0, kDramUsed - span));
  const uint32_t scales = op.perrow ? 1 : op.n / uint32_t(kCfg.D);
  // Scales mostly apart from the values, sometimes on top of them (scales are written last).
  op.scales.imm = v.Chance(85) ? uint32_t(v.Uniform(0, (kDramUsed - 4 * op.rows * scales) / 4) * 4)
                               : uint32_t(op.dst.imm & ~3u);
  return isa::EncodeQst(op);
}

// "scale rtl 0x.., golden 0x..; value 3: rtl 5, golden 6" for one ACT RAM block.
std::string ActDiff(const sim::ActRam& golden, const sim::ActRam& rtl, int row, int block) {
  std::string out = "scale rtl " + std::to_string(std::bit_cast<uint32_t>(rtl.Scale(row, block))) +
                    ", golden " + std::to_string(std::bit_cast<uint32_t>(golden.Scale(row, block)));
  for (int e = 0; e < golden.d(); ++e) {
    if (golden.Block(row, block)[e] == rtl.Block(row, block)[e]) continue;
    out += "; value " + std::to_string(e) + ": rtl " + std::to_string(rtl.Block(row, block)[e]) +
           ", golden " + std::to_string(golden.Block(row, block)[e]);
  }
  return out;
}

class OTPU_QUANT_SUITE : public ::testing::Test {
 protected:
  void Start(uint64_t seed, int refuse_pct, int a_stall_pct, bool specials_only = false) {
    values_ = std::make_unique<Values>(seed);
    bench_ = std::make_unique<QuantBench>(seed, refuse_pct, a_stall_pct);
    golden_ = std::make_unique<Golden>(kCfg, kDramBytes);
    auto& words = bench_->tmem().words();
    for (auto& w : words) w = specials_only ? values_->Special() : values_->Fp32();
    // Occasional all-zero blocks (amax = 0) and NaN rows exercise the special scales.
    for (int i = 0; i < 200; ++i) {
      const uint32_t at = uint32_t(values_->Uniform(0, kCfg.TMEM_WORDS - uint32_t(kCfg.D)));
      const uint32_t fill =
          values_->Chance(70) ? (values_->Chance(50) ? 0u : 0x80000001u) : values_->Special();
      std::fill(words.begin() + at, words.begin() + at + kCfg.D, fill);
    }
    golden_->sim().tmem() = words;
    for (uint64_t a = 0; a < kDramUsed; a += 4) {
      const uint32_t w = uint32_t(values_->rng()());
      bench_->dram().Write32(a, w);
      golden_->dram().Write32(a, w);
    }
    for (int r = 0; r < kCfg.ACT_ROWS; ++r) {
      for (int b = 0; b < kCfg.ACT_BLOCKS; ++b) {
        const float s = std::bit_cast<float>(values_->Fp32());
        bench_->act().Scale(r, b) = golden_->sim().act_ram().Scale(r, b) = s;
        for (int e = 0; e < kCfg.D; ++e) {
          const int8_t q = int8_t(values_->rng()());
          bench_->act().Block(r, b)[e] = golden_->sim().act_ram().Block(r, b)[e] = q;
        }
      }
    }
  }

  // True when ACT RAM, DRAM and TMEM agree with the simulator after `in`.
  bool Check(const isa::Instr& in, uint32_t slot) {
    const Status st = golden_->Exec(in);
    EXPECT_TRUE(st.ok()) << st.message();
    if (!st.ok() || !bench_->Run(in, slot)) return false;
    bool same = true;
    const sim::ActRam& g = golden_->sim().act_ram();
    for (int r = 0; r < kCfg.ACT_ROWS && same; ++r) {
      for (int b = 0; b < kCfg.ACT_BLOCKS && same; ++b) {
        const bool values_same =
            std::equal(g.Block(r, b), g.Block(r, b) + kCfg.D, bench_->act().Block(r, b));
        const bool scale_same = std::bit_cast<uint32_t>(g.Scale(r, b)) ==
                                std::bit_cast<uint32_t>(bench_->act().Scale(r, b));
        EXPECT_TRUE(values_same && scale_same)
            << "ACT RAM row " << r << " block " << b << " differs after " << isa::Disassemble(in)
            << (in.flags() ? " PERROW" : "") << ": " << ActDiff(g, bench_->act(), r, b);
        same = values_same && scale_same;
      }
    }
    const int64_t diff = bench_->dram().FirstDifference(golden_->dram());
    EXPECT_EQ(diff, -1) << "DRAM differs after " << isa::Disassemble(in)
                        << (in.flags() ? " PERROW" : "") << " (elem stride " << in.w[6]
                        << "): at 0x" << std::hex << diff << " rtl "
                        << int(bench_->dram().Read8(uint64_t(std::max<int64_t>(diff, 0))))
                        << ", golden "
                        << int(golden_->dram().Read8(uint64_t(std::max<int64_t>(diff, 0))));
    EXPECT_EQ(DiffWords(bench_->tmem().words(), golden_->sim().tmem()), "");
    EXPECT_TRUE(bench_->violations().empty()) << bench_->violations()[0];
    EXPECT_TRUE(bench_->tmem().violations().empty()) << bench_->tmem().violations()[0];
    return same && diff == -1 && bench_->violations().empty() &&
           bench_->tmem().violations().empty();
  }

  std::unique_ptr<Values> values_;
  std::unique_ptr<QuantBench> bench_;
  std::unique_ptr<Golden> golden_;
};

TEST_F(OTPU_QUANT_SUITE, RandomQactMatchesIsaSim) {
  Start(11, 20, 0);
  for (int i = 0; i < 300; ++i) {
    if (!Check(RandomQact(*values_), uint32_t(i % 16))) break;
  }
}

TEST_F(OTPU_QUANT_SUITE, RandomQstMatchesIsaSim) {
  Start(12, 20, 30);
  for (int i = 0; i < 300; ++i) {
    if (!Check(RandomQst(*values_), uint32_t(i % 16))) break;
  }
}

TEST_F(OTPU_QUANT_SUITE, SpecialValuesOnlyMatchIsaSim) {
  Start(13, 10, 10, /*specials_only=*/true);
  for (int i = 0; i < 200; ++i) {
    const isa::Instr in = values_->Chance(50) ? RandomQact(*values_) : RandomQst(*values_);
    if (!Check(in, 2)) break;
  }
}

TEST_F(OTPU_QUANT_SUITE, QstWritesTheWordsTheCostModelCounts) {
  Start(14, 0, 25);
  for (int i = 0; i < 100; ++i) {
    const isa::Instr in = RandomQst(*values_);
    const int64_t before = bench_->port_a_writes();
    ASSERT_TRUE(Check(in, 4));
    const uint32_t regs[isa::kNumRegs] = {};
    EXPECT_EQ(bench_->port_a_writes() - before, isa::CostOf(in, regs, kCfg).port_a)
        << isa::Disassemble(in);
  }
}

TEST_F(OTPU_QUANT_SUITE, ReportsRefusedCyclesAsFrz) {
  Start(15, 50, 0);
  for (int i = 0; i < 20; ++i) {
    const int64_t before = bench_->tmem().refused();
    ASSERT_TRUE(Check(values_->Chance(50) ? RandomQact(*values_) : RandomQst(*values_), 9));
    EXPECT_EQ(int64_t{bench_->last_frz()}, bench_->tmem().refused() - before);
  }
}

}  // namespace
}  // namespace otpu::rtl::units
