#include "tests/rtl/units/mxu_bench.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "Votpu_mxu.h"
#include "sim/isa/checks.h"
#include "verilated.h"

namespace otpu::rtl::units {
namespace {

constexpr int kAddrBits = 16;  // $clog2(TMEM_WORDS)
constexpr int64_t kTimeout = 500000;

}  // namespace

Span OutSpan(const isa::Instr& in) {
  const isa::MmOp op = isa::DecodeMm(in, nullptr);
  return Span{op.out.imm, uint64_t{op.out.imm} + uint64_t{op.m - 1} * op.out_stride + op.n};
}

MxuBench::MxuBench(uint64_t seed, const MxuOptions& opts, Golden* golden)
    : cfg_(UnitConfig()),
      ctx_(std::make_unique<VerilatedContext>()),
      top_(std::make_unique<Votpu_mxu>(ctx_.get(), "otpu_mxu")),
      tmem_(cfg_.LANES, kAddrBits, opts.refuse_pct, seed ^ 0x7E3Eu),
      port_b_(opts.port_b, seed ^ 0xB0B0u),
      port_a_(opts.port_a, seed ^ 0xA0A0u),
      golden_(golden),
      rng_(seed) {
  tmem_.words().assign(cfg_.TMEM_WORDS, 0);
  top_->rst_ni = 0;
  top_->clk_i = 0;
  top_->eval();
  top_->rst_ni = 1;
  top_->eval();
}

MxuBench::~MxuBench() { top_->final(); }

bool MxuBench::RunBatch(std::vector<MmJob>& jobs) {
  size_t next_issue = 0, next_release = 0;
  int64_t issue_at = cycle_ + int64_t(rng_() % 3);
  const int64_t start = cycle_;
  while (cycle_ - start < kTimeout) {
    // Issue: the next job, after a random gap.
    const bool offer = next_issue < jobs.size() && cycle_ >= issue_at;
    top_->issue_valid_i = offer;
    if (offer) {
      top_->issue_slot_i = jobs[next_issue].slot;
      for (int i = 0; i < isa::kInstrWords; ++i) {
        SetWord(top_->issue_instr_i, i, jobs[next_issue].in.w[i]);
      }
    }
    // Release: the oldest taken job, when its dependencies are done.
    bool release = false;
    if (next_release < jobs.size() && jobs[next_release].taken >= 0 &&
        cycle_ >= jobs[next_release].taken + jobs[next_release].release_delay) {
      release = true;
      const Span s = OutSpan(jobs[next_release].in);
      for (size_t o = 0; o < next_release; ++o) {
        const Span t = OutSpan(jobs[o].in);
        if (jobs[o].done < 0 && s.lo < t.hi && t.lo < s.hi) release = false;
      }
    }
    top_->release_i = release;
    const Step step = Tick();
    if (step.issued) {
      jobs[next_issue].taken = cycle_;
      ++next_issue;
      issue_at = cycle_ + int64_t(rng_() % 4);
    }
    if (step.released) {
      if (!release) violations_.push_back("release_ack_o without release_i");
      jobs[next_release].released = cycle_;
      ++next_release;
    }
    if (top_->done_o) {
      bool found = false;
      for (auto& j : jobs) {
        if (j.taken < 0 || j.done >= 0 || j.slot != top_->done_slot_o) continue;
        if (j.released < 0) violations_.push_back("done before release");
        j.done = cycle_;
        for (int c = 0; c < 4; ++c) j.cnt[size_t(c)] = GetWord(top_->done_cnt_o, c);
        found = true;
        break;
      }
      if (!found) violations_.push_back("done for slot " + std::to_string(top_->done_slot_o));
    }
    if (std::all_of(jobs.begin(), jobs.end(), [](const MmJob& j) { return j.done >= 0; })) {
      top_->issue_valid_i = 0;
      top_->release_i = 0;
      return true;
    }
  }
  ADD_FAILURE() << "batch not done after " << kTimeout << " cycles";
  return false;
}

MxuBench::Step MxuBench::Tick() {
  Step step;
  top_->clk_i = 0;
  top_->eval();
  tmem_.Drive(*top_);
  DrivePorts();
  DriveActRam();
  top_->eval();
  if (top_->tm_req_o && !ever_released_) ++early_tmem_;
  step.issued = top_->issue_valid_i && top_->issue_ready_o;
  step.released = top_->release_ack_o;
  if (step.released) ever_released_ = true;
  AcceptRequests();
  tmem_.Commit(*top_);
  top_->clk_i = 1;
  top_->eval();
  ++cycle_;
  return step;
}

void MxuBench::DrivePorts() {
  uint32_t tag = 0;
  port_b_.Plan(cycle_);
  top_->b_rd_ready_i = port_b_.Ready();
  const std::vector<uint8_t>* b = port_b_.Response(&tag);
  top_->b_rsp_valid_i = b != nullptr;
  top_->b_rsp_tag_i = tag;
  for (int i = 0; i < cfg_.D / 4; ++i) {
    uint32_t w = uint32_t(rng_());
    if (b) std::memcpy(&w, b->data() + 4 * i, 4);
    SetWord(top_->b_rsp_data_i, i, w);
  }
  port_a_.Plan(cycle_);
  top_->a_ready_i = port_a_.Ready();
  const std::vector<uint8_t>* a = port_a_.Response(&tag);
  top_->a_rsp_valid_i = a != nullptr;
  top_->a_rsp_tag_i = tag;
  uint32_t w = uint32_t(rng_());
  if (a) std::memcpy(&w, a->data(), 4);
  top_->a_rsp_data_i = w;
}

void MxuBench::DriveActRam() {
  const sim::ActRam& act = golden_->sim().act_ram();
  const int b = top_->act_rd_block_o;
  // Column c reads row act_rd_row_o + c (mod ACT_ROWS).
  for (int c = 0; c < cfg_.MCOLS; ++c) {
    const int r = (top_->act_rd_row_o + c) % cfg_.ACT_ROWS;
    for (int h = 0; h < 2; ++h) {
      const int blk = (b + h) % cfg_.ACT_BLOCKS;
      const int8_t* v = act.Block(r, blk);
      const int word0 = (c * 2 + h) * cfg_.D / 4;
      for (int i = 0; i < cfg_.D / 4; ++i) {
        uint32_t w;
        std::memcpy(&w, v + 4 * i, 4);
        SetWord(top_->act_rd_data_i, word0 + i, w);
      }
      SetWord(top_->act_rd_scale_i, c * 2 + h, std::bit_cast<uint32_t>(act.Scale(r, blk)));
    }
  }
}

void MxuBench::AcceptRequests() {
  if (top_->b_rd_valid_o && top_->b_rd_ready_i) {
    const uint32_t addr = top_->b_rd_addr_o;
    if (addr % uint32_t(cfg_.D) != 0 || addr + uint64_t(cfg_.D) > kMxuDramBytes) {
      violations_.push_back("bad port-B address " + std::to_string(addr));
    } else {
      port_b_.Accept(cycle_, top_->b_rd_tag_o, golden_->dram().ReadBytes(addr, uint64_t(cfg_.D)));
    }
  }
  if (top_->a_valid_o && top_->a_ready_i) {
    const uint32_t addr = top_->a_addr_o;
    if (top_->a_we_o) violations_.push_back("the MXU wrote port A");
    if (addr % 4 != 0 || addr + uint64_t{4} > kMxuDramBytes) {
      violations_.push_back("bad port-A address " + std::to_string(addr));
    } else {
      port_a_.Accept(cycle_, top_->a_tag_o, golden_->dram().ReadBytes(addr, 4));
    }
  }
  port_b_.Retire();
  port_a_.Retire();
}

isa::Instr RandomMm(Values& v, const MmShape& shape) {
  const isa::Config cfg = UnitConfig();
  for (;;) {
    isa::MmOp op;
    const int f = int(v.Uniform(0, 3));
    op.wf = f < 2 ? isa::WFormat::kINT8 : f == 2 ? isa::WFormat::kINT4 : isa::WFormat::kFP4;
    const bool four_bit = op.wf != isa::WFormat::kINT8;
    uint32_t blocks = uint32_t(v.Uniform(1, uint64_t(shape.max_blocks)));
    if (four_bit) blocks = 2 * std::max<uint32_t>(1, blocks / 2);
    op.k = blocks * uint32_t(cfg.D);
    op.n = uint32_t(v.Uniform(1, uint64_t(shape.max_n)));
    op.m = uint32_t(v.Chance(70) ? v.Uniform(1, 8) : v.Uniform(9, 16));
    op.act_row = uint32_t(v.Uniform(0, uint64_t(cfg.ACT_ROWS) - op.m));
    op.act_block = uint32_t(v.Uniform(0, uint64_t(cfg.ACT_BLOCKS) - blocks));
    op.acc = v.Chance(40);
    op.unit = v.Chance(30);
    const uint32_t row_bytes = four_bit ? op.k / 2 : op.k;
    op.w_stride = row_bytes + uint32_t(cfg.D) * uint32_t(v.Chance(50) ? 0 : v.Uniform(1, 4));
    const uint64_t w_span = uint64_t{op.n - 1} * op.w_stride + row_bytes;
    op.w.imm = uint32_t(v.Uniform(0, (kMxuDramUsed - w_span) / uint64_t(cfg.D)) * uint64_t(cfg.D));
    op.scales.imm = uint32_t(v.Uniform(0, (kMxuDramUsed - 4 * op.n * blocks) / 4) * 4);
    // Out rows never overlap each other (docs/isa.md leaves that undefined); strides that are
    // multiples of LANES put a whole row in one bank.
    const int pick = int(v.Uniform(0, 9));
    if (shape.self_overlap) {
      op.n = std::max<uint32_t>(op.n, 2);
      op.m = uint32_t(v.Uniform(2, uint64_t(cfg.MCOLS)));
      op.act_row = uint32_t(v.Uniform(0, uint64_t(cfg.ACT_ROWS) - op.m));
      op.out_stride = op.acc ? uint32_t(v.Uniform(1, op.n - 1)) : uint32_t(v.Uniform(0, op.n - 1));
    } else if (op.m == 1 && pick == 0) {
      op.out_stride = uint32_t(v.Uniform(0, 65535));
    } else if (pick < 4) {
      op.out_stride = uint32_t(cfg.LANES) * uint32_t(v.Uniform((op.n + 7) / 8, (op.n + 7) / 8 + 4));
    } else {
      op.out_stride = uint32_t(v.Uniform(op.n, op.n + 20));
    }
    const uint64_t out_span = uint64_t{op.m - 1} * op.out_stride + op.n;
    if (out_span > cfg.TMEM_WORDS) continue;
    const uint64_t region = std::max<uint64_t>(shape.out_region, out_span);
    op.out.imm =
        v.Chance(5) ? uint32_t(cfg.TMEM_WORDS - out_span)
                    : uint32_t(v.Uniform(0, std::min<uint64_t>(region, cfg.TMEM_WORDS) - out_span));
    isa::Instr in = isa::EncodeMm(op);
    const sim::MemSizes mem{cfg.TMEM_WORDS, kMxuDramBytes};
    if (sim::CheckMm(isa::DecodeMm(in, nullptr), cfg, mem).ok()) return in;
  }
}

}  // namespace otpu::rtl::units
