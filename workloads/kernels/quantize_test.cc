#include "workloads/kernels/quantize.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace otpu::kernels {
namespace {

using isa::WFormat;

QuantizedMatrix Q(const std::vector<float>& w, int n, int k, QuantOptions opts) {
  StatusOr<QuantizedMatrix> q = Quantize(w, n, k, opts, "test");
  EXPECT_TRUE(q.ok()) << q.status().message();
  return q.ok() ? *q : QuantizedMatrix{};
}

// A block of 4 whose amax is `amax` (first element), the rest as given.
std::vector<float> Block(float amax, float a, float b, float c) { return {amax, a, b, c}; }

TEST(Quantize, Int8ScaleIsAmaxOver127) {
  QuantizedMatrix q = Q(Block(-2.54f, 1.0f, 0.0f, 0.3f), 1, 4, {.block = 4, .align = 4});
  EXPECT_EQ(q.scales[0], 2.54f / 127.0f);
  EXPECT_EQ(q.Code(0, 0), -127);
  EXPECT_EQ(q.Code(0, 1), 50);
  EXPECT_EQ(q.Code(0, 2), 0);
  EXPECT_EQ(q.Code(0, 3), 15);
}

TEST(Quantize, Int8RoundsHalfToEven) {
  // amax 127: inv = 1 exactly, so v = x.
  QuantizedMatrix q = Q(Block(127.0f, 2.5f, 3.5f, -2.5f), 1, 4, {.block = 4, .align = 4});
  EXPECT_EQ(q.Code(0, 1), 2);
  EXPECT_EQ(q.Code(0, 2), 4);
  EXPECT_EQ(q.Code(0, 3), -2);
}

TEST(Quantize, Int4PacksTwoNibblesLowFirst) {
  // amax 7: inv = 1. Codes 7, -3, 2, -7.
  QuantizedMatrix q = Q(Block(7.0f, -3.0f, 2.0f, -7.0f), 1, 4,
                        {.wf = WFormat::kINT4, .block = 4, .align = 4});
  EXPECT_EQ(q.row_stride, 4u);  // 2 bytes rounded up to the alignment
  EXPECT_EQ(q.bytes[0], 0xD7);  // -3 = 0xD high, 7 low
  EXPECT_EQ(q.bytes[1], 0x92);  // -7 = 0x9 high, 2 low
  EXPECT_EQ(q.scales[0], 1.0f);
  EXPECT_EQ(q.Code(0, 1), -3);
}

TEST(Quantize, Fp4PicksTheNearestCodeWithTiesToTheSmallerMagnitude) {
  // amax 12: inv = 1, so v = x. Ties: 5 -> 4, 7 -> 6, 10 -> 8, 0.5 -> 0, 2.5 -> 2.
  std::vector<float> w = {12.0f, 5.0f, 7.0f, 10.0f, 0.5f, -2.6f, 2.5f, -0.4f};
  QuantizedMatrix q = Q(w, 1, 8, {.wf = WFormat::kFP4, .block = 8, .align = 4});
  const int want[8] = {12, 4, 6, 8, 0, -3, 2, 0};
  for (int e = 0; e < 8; ++e) EXPECT_EQ(q.Code(0, e), want[e]) << e;
  EXPECT_EQ(q.bytes[0] & 0xF, 7);      // 12 is index 7
  EXPECT_EQ(q.bytes[2] >> 4, 8 | 3);   // -3: sign bit and index 3
  EXPECT_EQ(q.bytes[3] >> 4, 0);       // -0.4 rounds to 0, stored without a sign
  EXPECT_EQ(q.scales[0], 1.0f);
}

TEST(Quantize, ZeroBlockHasZeroScaleAndCodes) {
  QuantizedMatrix q = Q({0, 0, 0, 0, 1, 0, 0, 0}, 1, 8, {.block = 4, .align = 4});
  EXPECT_EQ(q.scales[0], 0.0f);
  for (int e = 0; e < 4; ++e) EXPECT_EQ(q.Code(0, e), 0);
  EXPECT_EQ(q.Code(0, 4), 127);
}

TEST(Quantize, ScalesAreGroupedByColumnTile) {
  // n=2, k=8, block 2, k_tile 4: tile 0 holds rows 0,1 blocks 0,1; then tile 1.
  std::vector<float> w(16);
  for (int i = 0; i < 16; ++i) w[i] = float(i + 1);
  QuantizedMatrix q = Q(w, 2, 8, {.block = 2, .k_tile = 4, .align = 8});
  const int want_amax[8] = {2, 4, 10, 12, 6, 8, 14, 16};  // [tile][row][block]
  for (int i = 0; i < 8; ++i) EXPECT_EQ(q.scales[i], float(want_amax[i]) / 127.0f) << i;
  EXPECT_EQ(q.ScaleIndex(1, 3), 7u);
}

TEST(Quantize, RowStrideRoundsUpToTheAlignment) {
  QuantizedMatrix q = Q(std::vector<float>(2 * 48, 1.0f), 2, 48, {.block = 16, .align = 32});
  EXPECT_EQ(q.row_stride, 64u);
  EXPECT_EQ(q.bytes.size(), 128u);
  EXPECT_EQ(q.bytes[64], 127);
}

TEST(Quantize, DequantizedWeightsAreCloseForEveryFormat) {
  std::mt19937 rng(3);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> w(64 * 128);
  for (float& x : w) x = dist(rng);
  const std::pair<WFormat, double> bounds[] = {
      {WFormat::kINT8, 0.01}, {WFormat::kINT4, 0.2}, {WFormat::kFP4, 0.2}};
  for (auto [wf, bound] : bounds) {
    std::vector<float> d = Q(w, 64, 128, {.wf = wf, .block = 32, .align = 32}).Dequantize();
    double num = 0, den = 0;
    for (size_t i = 0; i < w.size(); ++i) {
      num += (d[i] - w[i]) * (d[i] - w[i]);
      den += w[i] * w[i];
    }
    EXPECT_LT(std::sqrt(num / den), bound) << isa::WFormatName(wf);
  }
}

TEST(QuantizeErrors, NonFiniteWeightNamesTheElement) {
  std::vector<float> w(8, 1.0f);
  w[5] = NAN;
  auto q = Quantize(w, 2, 4, {.block = 4, .align = 4}, "layer.wq");
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.status().message(), "layer.wq: element (1, 1) is not finite");
}

TEST(QuantizeErrors, BlockNotDividingKNamesK) {
  auto q = Quantize(std::vector<float>(10), 1, 10, {.block = 4, .align = 4}, "w");
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.status().message().find("do not divide k=10"), std::string::npos);
}

TEST(QuantizeErrors, WrongValueCountNamesBoth) {
  auto q = Quantize(std::vector<float>(7), 2, 4, {.block = 4, .align = 4}, "w");
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.status().message(), "w: has 7 values, expected 8");
}

TEST(QuantizeErrors, FourBitNeedsAnEvenBlock) {
  auto q = Quantize(std::vector<float>(6), 2, 3, {.wf = WFormat::kFP4, .block = 3, .align = 4},
                    "w");
  ASSERT_FALSE(q.ok());
  EXPECT_NE(q.status().message().find("even block"), std::string::npos);
}

TEST(QuantizeErrors, WriteOutsideTheImageNamesTheAddress) {
  QuantizedMatrix q = Q(std::vector<float>(4, 1.0f), 1, 4, {.block = 4, .align = 4});
  SparseMemory mem(4096);
  Status st = q.WriteTo(&mem, 4094, 0);
  EXPECT_NE(st.message().find("at DRAM 0xffe"), std::string::npos) << st.message();
}

TEST(DramLayout, RegionsAreAlignedAndInOrder) {
  DramLayout d(100, 32);
  uint64_t a = d.Alloc("a", 10);
  uint64_t b = d.Alloc("b", 33);
  EXPECT_EQ(a, 128u);
  EXPECT_EQ(b, 160u);
  EXPECT_EQ(d.end(), 224u);
  ASSERT_EQ(d.regions().size(), 2u);
  EXPECT_EQ(d.regions()[1].name, "b");
}

TEST(DramLayout, CheckFitsNamesTheRegionPastTheEnd) {
  DramLayout d(0, 32);
  d.Alloc("small", 64);
  d.Alloc("weights", 1000);
  Status st = d.CheckFits(512);
  EXPECT_NE(st.message().find("'weights'"), std::string::npos) << st.message();
  EXPECT_NE(st.message().find("DRAM_BYTES=0x200"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace otpu::kernels
