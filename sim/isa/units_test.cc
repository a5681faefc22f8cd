// LD, ST, MM, QACT and QST on small hand-made cases; expected values are computed here with
// plain loops (VOP is in vpu_test.cc).
#include <gtest/gtest.h>

#include <random>

#include "sim/isa/fp32.h"
#include "sim/isa/test_util.h"

namespace otpu::sim {
namespace {

using isa::At;

TEST_F(IsaSimTest, LdCopiesStridedRowsBitForBit) {
  const uint32_t words[2][3] = {{0x3F800000u, 0x7FC01234u, 0x80000001u}, {4, 5, 6}};
  for (int r = 0; r < 2; ++r)
    for (int j = 0; j < 3; ++j) dram.Write32(0x200 + 64 * r + 4 * j, words[r][j]);
  isa::DmaOp op;
  op.tmem = At(100);
  op.dram = At(0x200);
  op.n = 3;
  op.rows = 2;
  op.dram_stride = 64;
  op.tmem_stride = 5;
  sim.tmem()[103] = 77;
  ASSERT_TRUE(RunCode({isa::EncodeLd(op)}).ok());
  for (int r = 0; r < 2; ++r)
    for (int j = 0; j < 3; ++j) EXPECT_EQ(sim.tmem()[100 + 5 * r + j], words[r][j]);
  EXPECT_EQ(sim.tmem()[103], 77u);  // the gap between rows is untouched
}

TEST_F(IsaSimTest, StWritesStridedRowsAndNothingElse) {
  for (uint32_t i = 0; i < 8; ++i) sim.tmem()[40 + i] = 0xA0 + i;
  isa::DmaOp op;
  op.tmem = At(40);
  op.dram = At(0x1004);
  op.n = 2;
  op.rows = 3;
  op.dram_stride = 12;
  op.tmem_stride = 3;
  ASSERT_TRUE(RunCode({isa::EncodeSt(op)}).ok());
  for (uint32_t r = 0; r < 3; ++r) {
    EXPECT_EQ(dram.Read32(0x1004 + 12 * r), 0xA0 + 3 * r);
    EXPECT_EQ(dram.Read32(0x1008 + 12 * r), 0xA1 + 3 * r);
    EXPECT_EQ(dram.Read32(0x100C + 12 * r), 0u);
  }
  EXPECT_EQ(dram.Read32(0x1000), 0u);
}

// --- MM ------------------------------------------------------------------------------------

class MmTest : public IsaSimTest {
 protected:
  static constexpr uint32_t kW = 0x1000, kScales = 0x8000, kOut = 300;

  // Random activations in rows [row0, row0 + m), blocks [block0, block0 + k/D), scales 2^-s.
  void FillAct(uint32_t row0, uint32_t m, uint32_t block0, uint32_t k) {
    const int d = cfg.D;
    for (uint32_t i = 0; i < m; ++i) {
      for (uint32_t b = 0; b < k / d; ++b) {
        for (int e = 0; e < d; ++e) sim.act_ram().Block(row0 + i, block0 + b)[e] = int8_t(Rand(-127, 127));
        sim.act_ram().Scale(row0 + i, block0 + b) = std::ldexp(1.0f, Rand(-9, -3));
      }
    }
  }
  // Weight scales of n rows, k/D blocks each, at kScales.
  std::vector<float> FillScales(uint32_t n, uint32_t k) {
    std::vector<float> sw(n * (k / cfg.D));
    for (size_t i = 0; i < sw.size(); ++i) {
      sw[i] = std::ldexp(1.0f, Rand(-6, 2)) * (Rand(0, 1) ? 1.0f : 1.5f);
      SetDramF(kScales + 4 * i, sw[i]);
    }
    return sw;
  }
  // out[i][j] as docs/isa.md defines it, with plain float arithmetic (no subnormals occur).
  float Expected(const std::vector<std::vector<int>>& w, const std::vector<float>* sw,
                 uint32_t row0, uint32_t block0, uint32_t i, uint32_t j, uint32_t k, float acc) {
    const int d = cfg.D;
    for (uint32_t b = 0; b < k / d; ++b) {
      int isum = 0;
      for (int e = 0; e < d; ++e) isum += sim.act_ram().Block(row0 + i, block0 + b)[e] * w[j][b * d + e];
      float sa = sim.act_ram().Scale(row0 + i, block0 + b);
      float scale = sw ? sa * (*sw)[j * (k / d) + b] : sa;
      acc = acc + float(isum) * scale;
    }
    return acc;
  }
  int Rand(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

 private:
  std::mt19937 rng_{42};
};

TEST_F(MmTest, Int8ProductWithScalesOffsetsAndStrides) {
  const uint32_t m = 2, n = 3, k = 64, stride = 96, out_stride = 8;
  FillAct(1, m, 2, k);
  std::vector<std::vector<int>> w(n, std::vector<int>(k));
  for (uint32_t j = 0; j < n; ++j)
    for (uint32_t e = 0; e < k; ++e) {
      w[j][e] = Rand(-127, 127);
      dram.Write8(kW + j * stride + e, uint8_t(int8_t(w[j][e])));
    }
  std::vector<float> sw = FillScales(n, k);
  isa::MmOp op;
  op.out = At(kOut);
  op.w = At(kW);
  op.scales = At(kScales);
  op.n = n;
  op.k = k;
  op.m = m;
  op.act_row = 1;
  op.act_block = 2;
  op.w_stride = stride;
  op.out_stride = out_stride;
  SetT(kOut + n, 9.0f);  // between the output rows: must stay
  ASSERT_TRUE(RunCode({isa::EncodeMm(op)}).ok());
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j)
      EXPECT_EQ(T(kOut + i * out_stride + j), Expected(w, &sw, 1, 2, i, j, k, 0.0f)) << i << "," << j;
  EXPECT_EQ(T(kOut + n), 9.0f);
}

TEST_F(MmTest, AccAddsIntoTheOutput) {
  const uint32_t n = 2, k = 32;
  FillAct(0, 1, 0, k);
  std::vector<std::vector<int>> w(n, std::vector<int>(k));
  for (uint32_t j = 0; j < n; ++j)
    for (uint32_t e = 0; e < k; ++e) {
      w[j][e] = Rand(-127, 127);
      dram.Write8(kW + j * k + e, uint8_t(int8_t(w[j][e])));
    }
  std::vector<float> sw = FillScales(n, k);
  SetT(kOut, 1.5f);
  SetT(kOut + 1, -1000.25f);
  isa::MmOp op;
  op.out = At(kOut);
  op.w = At(kW);
  op.scales = At(kScales);
  op.n = n;
  op.k = k;
  op.w_stride = k;
  op.acc = true;
  ASSERT_TRUE(RunCode({isa::EncodeMm(op)}).ok());
  EXPECT_EQ(T(kOut), Expected(w, &sw, 0, 0, 0, 0, k, 1.5f));
  EXPECT_EQ(T(kOut + 1), Expected(w, &sw, 0, 0, 0, 1, k, -1000.25f));
}

TEST_F(MmTest, UnitUsesActivationScalesOnlyAndIgnoresTheScaleAddress) {
  const uint32_t n = 2, k = 64;
  FillAct(4, 1, 0, k);
  std::vector<std::vector<int>> w(n, std::vector<int>(k));
  for (uint32_t j = 0; j < n; ++j)
    for (uint32_t e = 0; e < k; ++e) {
      w[j][e] = Rand(-127, 127);
      dram.Write8(kW + j * k + e, uint8_t(int8_t(w[j][e])));
    }
  isa::MmOp op;
  op.out = At(kOut);
  op.w = At(kW);
  op.scales = At(0xFFFFFFF3u);  // misaligned and outside DRAM: unused with UNIT
  op.n = n;
  op.k = k;
  op.act_row = 4;
  op.w_stride = k;
  op.unit = true;
  ASSERT_TRUE(RunCode({isa::EncodeMm(op)}).ok());
  for (uint32_t j = 0; j < n; ++j) EXPECT_EQ(T(kOut + j), Expected(w, nullptr, 4, 0, 0, j, k, 0.0f));
}

// Packs 4-bit nibbles two per byte, element 2i in the low nibble.
void PackNibbles(SparseMemory& dram, uint64_t addr, const std::vector<int>& nibbles) {
  for (size_t i = 0; i < nibbles.size(); i += 2)
    dram.Write8(addr + i / 2, uint8_t((nibbles[i] & 0xF) | ((nibbles[i + 1] & 0xF) << 4)));
}

TEST_F(MmTest, Int4WeightsAreTwosComplementNibbles) {
  const uint32_t n = 2, k = 64;
  FillAct(0, 1, 0, k);
  std::vector<std::vector<int>> w(n, std::vector<int>(k));
  for (uint32_t j = 0; j < n; ++j) {
    for (uint32_t e = 0; e < k; ++e) w[j][e] = Rand(-8, 7);
    PackNibbles(dram, kW + j * cfg.D, w[j]);  // k/2 = 32 bytes per row
  }
  std::vector<float> sw = FillScales(n, k);
  isa::MmOp op;
  op.out = At(kOut);
  op.w = At(kW);
  op.scales = At(kScales);
  op.n = n;
  op.k = k;
  op.w_stride = 32;
  op.wf = isa::WFormat::kINT4;
  ASSERT_TRUE(RunCode({isa::EncodeMm(op)}).ok());
  for (uint32_t j = 0; j < n; ++j) EXPECT_EQ(T(kOut + j), Expected(w, &sw, 0, 0, 0, j, k, 0.0f));
}

TEST_F(MmTest, Fp4WeightsAreTwiceTheirE2M1Value) {
  const int kTwice[8] = {0, 1, 2, 3, 4, 6, 8, 12};
  const uint32_t n = 3, k = 128;
  FillAct(2, 1, 1, k);
  std::vector<std::vector<int>> w(n, std::vector<int>(k));
  for (uint32_t j = 0; j < n; ++j) {
    std::vector<int> nib(k);
    for (uint32_t e = 0; e < k; ++e) {
      nib[e] = Rand(0, 15);
      w[j][e] = (nib[e] & 8 ? -1 : 1) * kTwice[nib[e] & 7];
    }
    PackNibbles(dram, kW + j * 64, nib);
  }
  std::vector<float> sw = FillScales(n, k);
  isa::MmOp op;
  op.out = At(kOut);
  op.w = At(kW);
  op.scales = At(kScales);
  op.n = n;
  op.k = k;
  op.act_row = 2;
  op.act_block = 1;
  op.w_stride = 64;
  op.wf = isa::WFormat::kFP4;
  ASSERT_TRUE(RunCode({isa::EncodeMm(op)}).ok());
  for (uint32_t j = 0; j < n; ++j) EXPECT_EQ(T(kOut + j), Expected(w, &sw, 2, 1, 0, j, k, 0.0f));
}

TEST_F(MmTest, MoreRowsThanMcolsGiveTheSameResultPerRow) {
  const uint32_t m = 11, n = 2, k = 32;
  FillAct(0, m, 0, k);
  std::vector<std::vector<int>> w(n, std::vector<int>(k));
  for (uint32_t j = 0; j < n; ++j)
    for (uint32_t e = 0; e < k; ++e) {
      w[j][e] = Rand(-127, 127);
      dram.Write8(kW + j * k + e, uint8_t(int8_t(w[j][e])));
    }
  std::vector<float> sw = FillScales(n, k);
  isa::MmOp op;
  op.out = At(kOut);
  op.w = At(kW);
  op.scales = At(kScales);
  op.n = n;
  op.k = k;
  op.m = m;
  op.w_stride = k;
  op.out_stride = n;
  ASSERT_TRUE(RunCode({isa::EncodeMm(op)}).ok());
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j)
      EXPECT_EQ(T(kOut + i * n + j), Expected(w, &sw, 0, 0, i, j, k, 0.0f)) << i;
}

TEST(MmBoard, D128BlocksUseTheWholeBlock) {
  // The board configuration (D = 128): one block of 128 products per scale.
  isa::Config cfg = isa::Config::Board();
  SparseMemory dram(1 << 20);
  IsaSim sim(cfg, &dram);
  std::mt19937 rng(5);
  const uint32_t k = 256, n = 2;
  std::vector<int> w(n * k);
  for (uint32_t i = 0; i < n * k; ++i) {
    w[i] = int(rng() % 255) - 127;
    dram.Write8(i, uint8_t(int8_t(w[i])));
  }
  for (uint32_t b = 0; b < 2; ++b) {
    for (uint32_t e = 0; e < 128; ++e) sim.act_ram().Block(0, b)[e] = int8_t(int(rng() % 255) - 127);
    sim.act_ram().Scale(0, b) = 0.5f;
  }
  isa::MmOp op;
  op.out = At(0);
  op.w = At(0);
  op.n = n;
  op.k = k;
  op.w_stride = k;
  op.unit = true;
  ASSERT_TRUE(sim.LoadProgram({isa::EncodeMm(op), isa::EncodeHalt()}).ok());
  ASSERT_TRUE(sim.Run({}).ok());
  for (uint32_t j = 0; j < n; ++j) {
    float acc = 0;
    for (uint32_t b = 0; b < 2; ++b) {
      int isum = 0;
      for (uint32_t e = 0; e < 128; ++e) isum += sim.act_ram().Block(0, b)[e] * w[j * k + b * 128 + e];
      acc = acc + float(isum) * 0.5f;
    }
    EXPECT_EQ(std::bit_cast<float>(sim.tmem()[j]), acc);
  }
}

// --- QACT / QST ------------------------------------------------------------------------------

// Writes n varied values (scaled by `mul`) at TMEM `at` and appends them to `ref`.
void FillRow(std::vector<uint32_t>& tmem, std::vector<float>* ref, uint32_t at, uint32_t n,
             float mul) {
  for (uint32_t j = 0; j < n; ++j) {
    float v = mul * float(int(j * 37 % 23) - 11) / 7.0f;
    ref->push_back(v);
    tmem[at + j] = fp32::Bits(v);
  }
}

TEST_F(IsaSimTest, QactQuantizesEachBlockIntoActRam) {
  const uint32_t k = 64, rows = 2, stride = 80;
  std::vector<float> x;
  FillRow(sim.tmem(), &x, 500, k, 1.0f);
  FillRow(sim.tmem(), &x, 500 + stride, k, 30.0f);
  isa::QactOp op;
  op.src = At(500);
  op.k = k;
  op.rows = rows;
  op.src_stride = stride;
  op.act_row = 3;
  op.act_block = 5;
  ASSERT_TRUE(RunCode({isa::EncodeQact(op)}).ok());
  std::vector<int8_t> q(32);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t b = 0; b < k / 32; ++b) {
      float scale = fp32::QuantizeBlock(x.data() + r * k + b * 32, 32, q.data());
      EXPECT_EQ(sim.act_ram().Scale(3 + r, 5 + b), scale);
      for (int e = 0; e < 32; ++e) EXPECT_EQ(sim.act_ram().Block(3 + r, 5 + b)[e], q[e]);
    }
  }
  EXPECT_EQ(sim.act_ram().Scale(3, 4), 0.0f);  // neighbours untouched
  EXPECT_EQ(sim.act_ram().Scale(5, 5), 0.0f);
}

TEST_F(IsaSimTest, QactPerRowWritesTheRowScaleIntoEveryBlock) {
  const uint32_t k = 96;
  std::vector<float> x;
  FillRow(sim.tmem(), &x, 0, k, 2.0f);
  x[70] = 100.0f;
  SetT(70, 100.0f);
  isa::QactOp op;
  op.src = At(0);
  op.k = k;
  op.perrow = true;
  ASSERT_TRUE(RunCode({isa::EncodeQact(op)}).ok());
  std::vector<int8_t> q(k);
  float scale = fp32::QuantizeBlock(x.data(), int(k), q.data());
  EXPECT_EQ(scale, fp32::Mul(100.0f, fp32::FromBits(fp32::kInv127)));
  for (uint32_t b = 0; b < 3; ++b) EXPECT_EQ(sim.act_ram().Scale(0, b), scale);
  for (uint32_t e = 0; e < k; ++e) EXPECT_EQ(sim.act_ram().Block(0, 0)[e], q[e]) << e;
  EXPECT_EQ(sim.act_ram().Block(0, 0)[70], 127);
}

TEST_F(IsaSimTest, QstWritesContiguousBytesAndPerRowScales) {
  const uint32_t n = 64, rows = 2;
  std::vector<float> x;
  FillRow(sim.tmem(), &x, 0, n, 1.0f);
  FillRow(sim.tmem(), &x, 64, n, -5.0f);
  isa::QstOp op;
  op.src = At(0);
  op.dst = At(0x5001);  // bytes need no alignment
  op.scales = At(0x6000);
  op.n = n;
  op.rows = rows;
  op.src_stride = 64;
  op.elem_stride = 1;
  op.dst_stride = 100;
  ASSERT_TRUE(RunCode({isa::EncodeQst(op)}).ok());
  std::vector<int8_t> q(32);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t b = 0; b < 2; ++b) {
      float scale = fp32::QuantizeBlock(x.data() + r * n + b * 32, 32, q.data());
      EXPECT_EQ(DramF(0x6000 + 8 * r + 4 * b), scale);
      for (uint32_t e = 0; e < 32; ++e)
        EXPECT_EQ(int8_t(dram.Read8(0x5001 + 100 * r + 32 * b + e)), q[e]);
    }
  }
  EXPECT_EQ(dram.Read8(0x5001 + 64), 0);  // between rows
  EXPECT_EQ(dram.Read32(0x6010), 0u);
}

TEST_F(IsaSimTest, QstWithElementStrideWritesOneColumn) {
  const uint32_t n = 32;
  std::vector<float> x;
  FillRow(sim.tmem(), &x, 200, n, 3.0f);
  isa::QstOp op;
  op.src = At(200);
  op.dst = At(0x7003);
  op.scales = At(0x9000);
  op.n = n;
  op.elem_stride = 16;
  ASSERT_TRUE(RunCode({isa::EncodeQst(op)}).ok());
  std::vector<int8_t> q(n);
  float scale = fp32::QuantizeBlock(x.data(), int(n), q.data());
  EXPECT_EQ(DramF(0x9000), scale);
  for (uint32_t j = 0; j < n; ++j) {
    EXPECT_EQ(int8_t(dram.Read8(0x7003 + 16 * j)), q[j]) << j;
    EXPECT_EQ(dram.Read8(0x7004 + 16 * j), 0) << j;
  }
}

TEST_F(IsaSimTest, QstPerRowAcceptsAnyLength) {
  std::vector<float> x;
  FillRow(sim.tmem(), &x, 0, 5, 1.0f);
  FillRow(sim.tmem(), &x, 5, 5, 2.0f);
  isa::QstOp op;
  op.src = At(0);
  op.dst = At(0x100);
  op.scales = At(0x200);
  op.n = 5;
  op.rows = 2;
  op.src_stride = 5;
  op.dst_stride = 5;
  op.perrow = true;
  ASSERT_TRUE(RunCode({isa::EncodeQst(op)}).ok());
  std::vector<int8_t> q(5);
  for (uint32_t r = 0; r < 2; ++r) {
    EXPECT_EQ(DramF(0x200 + 4 * r), fp32::QuantizeBlock(x.data() + 5 * r, 5, q.data()));
    for (uint32_t j = 0; j < 5; ++j) EXPECT_EQ(int8_t(dram.Read8(0x100 + 5 * r + j)), q[j]);
  }
}

}  // namespace
}  // namespace otpu::sim
