#include "workloads/kernels/reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace otpu::kernels {
namespace {

TEST(RelL2, IsTheNormOfTheErrorOverTheNormOfTheReference) {
  EXPECT_DOUBLE_EQ(RelL2({3.0f, 4.0f}, {3.0, 0.0}), 4.0 / 3.0);
  EXPECT_EQ(RelL2({0.0f}, {0.0}), 0.0);
  EXPECT_TRUE(std::isinf(RelL2({1.0f}, {0.0})));
}

TEST(RelL2, DeltaMeasuresAgainstTheResidualBranch) {
  // ref - base = (1, 0); got - ref = (0, 0.5).
  EXPECT_DOUBLE_EQ(RelL2Delta({11.0f, 20.5f}, {11.0, 20.0}, {10.0f, 20.0f}), 0.5);
}

TEST(RefRmsNorm, RowsComeOutWithUnitRmsTimesG) {
  std::vector<double> x = {1, 2, 3, 4, -2, -2, -2, -2};
  std::vector<double> n = RefRmsNorm(x, 2, 4, {1, 1, 1, 2}, 0.0);
  double ss = 0;
  for (int e = 0; e < 4; ++e) ss += n[e] * n[e] / (e == 3 ? 4 : 1);
  EXPECT_NEAR(ss / 4, 1.0, 1e-12);
  EXPECT_NEAR(n[4], -1.0, 1e-12);
  EXPECT_NEAR(n[7], -2.0, 1e-12);
}

TEST(RefAttn, OnePositionReturnsItsValue) {
  std::vector<double> q = {1, 2, 3, 4}, k = {5, 6}, v = {7, 8};
  std::vector<double> o = RefAttn(2, 1, 2, 1, q, k, v);
  EXPECT_EQ(o, (std::vector<double>{7, 8, 7, 8}));
}

TEST(RefAttn, EqualScoresAverageTheValues) {
  std::vector<double> q = {0, 0}, k = {1, 2, 3, 4, 5, 6}, v = {1, 10, 2, 20, 3, 30};
  std::vector<double> o = RefAttn(1, 1, 2, 3, q, k, v);
  EXPECT_NEAR(o[0], 2.0, 1e-12);
  EXPECT_NEAR(o[1], 20.0, 1e-12);
}

TEST(RefAttn, ScoresAreScaledByTheInverseSqrtOfTheHeadDim) {
  // Two positions, scores q.k = 0 and 4 over hd = 4: weights softmax(0, 2).
  std::vector<double> q = {1, 1, 1, 1}, k = {0, 0, 0, 0, 1, 1, 1, 1};
  std::vector<double> v = {0, 0, 0, 0, 1, 1, 1, 1};
  std::vector<double> o = RefAttn(1, 1, 4, 2, q, k, v);
  EXPECT_NEAR(o[0], std::exp(2.0) / (1 + std::exp(2.0)), 1e-12);
}

TEST(RefMlp, ZeroDownProjectionLeavesX) {
  MlpShape s{.m = 2, .h = 4, .f = 8};
  MlpWeights w = MlpWeights::Random(s, 1);
  std::fill(w.w_down.begin(), w.w_down.end(), 0.0f);
  std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<double> y = RefMlp(s, w, x);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(y[i], x[i]);
}

TEST(RefMlp, SiluGatesTheUpProjection) {
  // H = 1, F = 1: n = sign(x) g, y = x + wd * silu(wg n) * (wu n).
  MlpShape s{.m = 1, .h = 1, .f = 1};
  MlpWeights w{.g = {1}, .w_gate = {2}, .w_up = {3}, .w_down = {0.5f}};
  std::vector<double> y = RefMlp(s, w, {4.0f});
  double n = 4.0 / std::sqrt(16.0 + 1e-6);
  double g = 2 * n;
  EXPECT_NEAR(y[0], 4.0 + 0.5 * g / (1 + std::exp(-g)) * 3 * n, 1e-6);
}

TEST(RefLayer, StepAppendsOnePositionToTheCache) {
  LayerShape s{.h = 8, .hq = 2, .hkv = 1, .hd = 4, .t_max = 4};
  LayerWeights w = LayerWeights::Random(s, 2);
  RefKvCache cache(1, 4);
  cache.AppendPrefix(std::vector<float>(8, 0.5f), std::vector<float>(8, 0.25f), 2);
  std::vector<double> y = RefLayerStep(s, w, std::vector<float>(8, 1.0f), &cache);
  EXPECT_EQ(cache.t, 3);
  EXPECT_EQ(cache.k[0].size(), 12u);
  EXPECT_EQ(y.size(), 8u);
  // After k-norm the key's squares sum to hd (times g_k^2); RoPE keeps each pair's norm.
  double ss = 0, gmax = 0;
  for (int e = 0; e < 4; ++e) {
    ss += cache.k[0][8 + e] * cache.k[0][8 + e];
    gmax = std::max(gmax, std::fabs(double(w.g_k[e])));
  }
  EXPECT_GT(ss, 0.0);
  EXPECT_LE(ss, 4 * gmax * gmax * (1 + 1e-9));
}

}  // namespace
}  // namespace otpu::kernels
