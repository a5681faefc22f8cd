// otpu_mxu (rtl/core) against the ISA simulator: batches of random MMs (int8, int4, fp4
// weights; scales or UNIT; ACC; m up to 16 for several passes; out strides that put a row's
// words in one bank) with the sequencer's two-phase start played by the bench (issue to the
// streamer, release once every older conflicting MM is done), ports A and B answering out of
// order with random latency and withheld ready, and the TMEM refusing at random. After each
// batch the whole TMEM must equal the simulator's.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "tests/rtl/units/mxu_bench.h"
#include "tests/rtl/units/unit_bench.h"
#include "workloads/isa/disasm.h"

namespace otpu::rtl::units {
namespace {

const isa::Config kCfg = UnitConfig();

// The suite is named after the configuration, so both builds' cases are told apart.
#ifdef OTPU_UNIT_BOARD
#define OTPU_MXU_SUITE MxuBoardRtlTest
#else
#define OTPU_MXU_SUITE MxuRtlTest
#endif

class OTPU_MXU_SUITE : public ::testing::Test {
 protected:
  void Start(uint64_t seed, const MxuOptions& opts) {
    values_ = std::make_unique<Values>(seed);
    golden_ = std::make_unique<Golden>(kCfg, kMxuDramBytes);
    bench_ = std::make_unique<MxuBench>(seed, opts, golden_.get());
    auto& words = bench_->tmem().words();
    for (auto& w : words) w = values_->Chance(90) ? values_->Normal(-4, 4) : values_->Fp32();
    golden_->sim().tmem() = words;
    // Weights: random bytes. Scales: the same bytes read as fp32 would be mostly NaN and
    // huge, so the scale-sized words are moderate normals with specials mixed in.
    for (uint64_t a = 0; a < kMxuDramUsed; a += 4) {
      const uint32_t w = (a / 4) % 3 == 0      ? uint32_t(values_->rng()())
                         : values_->Chance(95) ? values_->Normal(-6, 2)
                                               : values_->Fp32();
      golden_->dram().Write32(a, w);
    }
    sim::ActRam& act = golden_->sim().act_ram();
    for (int r = 0; r < kCfg.ACT_ROWS; ++r) {
      for (int b = 0; b < kCfg.ACT_BLOCKS; ++b) {
        act.Scale(r, b) =
            std::bit_cast<float>(values_->Chance(95) ? values_->Normal(-8, 0) : values_->Fp32());
        for (int e = 0; e < kCfg.D; ++e) act.Block(r, b)[e] = int8_t(values_->rng()());
      }
    }
  }

  // Runs the batch on both and compares TMEM; true when equal.
  bool Check(std::vector<MmJob>& jobs) {
    for (const MmJob& j : jobs) {
      const Status st = golden_->Exec(j.in);
      EXPECT_TRUE(st.ok()) << st.message();
      if (!st.ok()) return false;
    }
    if (!bench_->RunBatch(jobs)) return false;
    const std::string diff = DiffWords(bench_->tmem().words(), golden_->sim().tmem());
    std::string listing;
    for (const MmJob& j : jobs) listing += isa::Disassemble(j.in) + "\n";
    EXPECT_EQ(diff, "") << listing;
    EXPECT_TRUE(bench_->violations().empty()) << bench_->violations()[0];
    EXPECT_TRUE(bench_->tmem().violations().empty()) << bench_->tmem().violations()[0];
    return diff.empty() && bench_->violations().empty() && bench_->tmem().violations().empty();
  }

  std::vector<MmJob> RandomBatch(int size, const MmShape& shape, int max_delay) {
    std::vector<MmJob> jobs;
    jobs.resize(size_t(size));
    for (int i = 0; i < size; ++i) {
      jobs[size_t(i)].in = RandomMm(*values_, shape);
      jobs[size_t(i)].slot = uint32_t((next_slot_++) % 16);
      jobs[size_t(i)].release_delay = int64_t(values_->Uniform(0, uint64_t(max_delay)));
    }
    return jobs;
  }

  std::unique_ptr<Values> values_;
  std::unique_ptr<Golden> golden_;
  std::unique_ptr<MxuBench> bench_;
  uint32_t next_slot_ = 0;
};

TEST_F(OTPU_MXU_SUITE, RandomBatchesMatchIsaSim) {
  Start(21, MxuOptions{});
  for (int b = 0; b < 60; ++b) {
    std::vector<MmJob> jobs = RandomBatch(int(values_->Uniform(1, 5)), MmShape{}, 30);
    if (!Check(jobs)) break;
  }
}

TEST_F(OTPU_MXU_SUITE, CollidingOutRangesMatchIsaSim) {
  // Every MM writes the same 64 words: releases wait for the older MMs to be done.
  Start(22, MxuOptions{});
  for (int b = 0; b < 40; ++b) {
    std::vector<MmJob> jobs =
        RandomBatch(4, MmShape{.max_n = 6, .max_blocks = 4, .out_region = 64}, 5);
    if (!Check(jobs)) break;
  }
}

TEST_F(OTPU_MXU_SUITE, OverlappingOutRowsOfOnePassMatchIsaSim) {
  Start(30, MxuOptions{});
  for (int b = 0; b < 40; ++b) {
    std::vector<MmJob> jobs =
        RandomBatch(2, MmShape{.max_n = 10, .max_blocks = 3, .self_overlap = true}, 5);
    if (!Check(jobs)) break;
  }
}

TEST_F(OTPU_MXU_SUITE, StallingPortsAndTmemMatchIsaSim) {
  MxuOptions opts;
  opts.refuse_pct = 60;
  opts.port_b = ReadPort::Options{1, 40, 60};
  opts.port_a = ReadPort::Options{1, 40, 60};
  Start(23, opts);
  for (int b = 0; b < 25; ++b) {
    std::vector<MmJob> jobs = RandomBatch(3, MmShape{}, 50);
    if (!Check(jobs)) break;
  }
}

TEST_F(OTPU_MXU_SUITE, StreamsAtMostOneMmAheadOfTheConsumer) {
  Start(24, MxuOptions{});
  std::vector<MmJob> jobs = RandomBatch(2, MmShape{}, 0);
  jobs[0].release_delay = 2000;  // the consumer waits: the streamer must not take a second MM
  std::vector<MmJob> batch{jobs[0], jobs[1]};
  ASSERT_TRUE(Check(batch));
  EXPECT_GE(batch[1].taken, batch[0].released);
}

TEST_F(OTPU_MXU_SUITE, TouchesNoTmemBeforeRelease) {
  Start(25, MxuOptions{});
  std::vector<MmJob> jobs = RandomBatch(1, MmShape{}, 0);
  jobs[0].release_delay = 300;
  ASSERT_TRUE(Check(jobs));
  EXPECT_EQ(bench_->early_tmem(), 0);
}

TEST_F(OTPU_MXU_SUITE, CountsBackPressureWhileTheConsumerWaits) {
  // 4*FIFO_DEPTH chunks fill the FIFO long before the release, FIFO_DEPTH + 500 cycles later.
  MxuOptions opts;
  opts.refuse_pct = 0;
  opts.port_b = ReadPort::Options{2, 2, 0};
  opts.port_a = ReadPort::Options{2, 2, 0};
  Start(26, opts);
  isa::MmOp op;
  op.n = uint32_t(kCfg.FIFO_DEPTH) / 2;
  op.k = 8 * uint32_t(kCfg.D);
  op.m = 1;
  op.unit = true;
  op.w_stride = op.k;
  op.out.imm = 100;
  op.out_stride = op.n;
  const int64_t delay = kCfg.FIFO_DEPTH + 500;
  std::vector<MmJob> jobs(1);
  jobs[0].in = isa::EncodeMm(op);
  jobs[0].release_delay = delay;
  ASSERT_TRUE(Check(jobs));
  EXPECT_GE(int64_t{jobs[0].cnt[1]}, delay - kCfg.FIFO_DEPTH - 10);  // bp
  EXPECT_LE(int64_t{jobs[0].cnt[1]}, delay);
  EXPECT_EQ(jobs[0].cnt[0], 0u);  // starve: the FIFO never ran dry
}

TEST_F(OTPU_MXU_SUITE, CountsStarvationWhenDramIsSlow) {
  MxuOptions opts;
  opts.refuse_pct = 0;
  opts.port_b = ReadPort::Options{30, 30, 80};
  Start(27, opts);
  std::vector<MmJob> jobs = RandomBatch(1, MmShape{}, 0);
  ASSERT_TRUE(Check(jobs));
  EXPECT_GT(jobs[0].cnt[0], 30u);  // starve: at least the first chunk's latency
  EXPECT_EQ(jobs[0].cnt[1], 0u);   // bp: the FIFO never filled
}

TEST_F(OTPU_MXU_SUITE, ReportsRefusedTmemRequestsAsDeny) {
  MxuOptions opts;
  opts.refuse_pct = 50;
  Start(28, opts);
  for (int i = 0; i < 10; ++i) {
    std::vector<MmJob> jobs = RandomBatch(1, MmShape{}, 0);
    const int64_t before = bench_->tmem().refused();
    ASSERT_TRUE(Check(jobs));
    EXPECT_EQ(int64_t{jobs[0].cnt[3]}, bench_->tmem().refused() - before);
    EXPECT_LE(jobs[0].cnt[2], jobs[0].cnt[3]);  // frz: only refused cycles can freeze
  }
}

TEST_F(OTPU_MXU_SUITE, ConsumesOneChunkPerCycleFromAnIdealMemory) {
  MxuOptions opts;
  opts.refuse_pct = 0;
  opts.port_b = ReadPort::Options{4, 4, 0};
  opts.port_a = ReadPort::Options{4, 4, 0};
  Start(29, opts);
  for (isa::WFormat wf : {isa::WFormat::kINT8, isa::WFormat::kINT4}) {
    isa::MmOp op;
    op.wf = wf;
    op.n = 64;
    op.k = 8 * uint32_t(kCfg.D);
    op.m = 8;
    op.unit = true;
    op.w_stride = wf == isa::WFormat::kINT8 ? op.k : op.k / 2;
    op.out.imm = 0;
    op.out_stride = 65;
    const int64_t passes = (op.m + kCfg.MCOLS - 1) / kCfg.MCOLS;
    const int64_t chunks = passes * op.n * op.w_stride / kCfg.D;
    std::vector<MmJob> jobs(1);
    jobs[0].in = isa::EncodeMm(op);
    const int64_t before = bench_->cycles();
    ASSERT_TRUE(Check(jobs));
    EXPECT_LE(bench_->cycles() - before, chunks + 20) << isa::WFormatName(wf);
  }
}

}  // namespace
}  // namespace otpu::rtl::units
