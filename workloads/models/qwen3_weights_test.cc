#include "workloads/models/qwen3_weights.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "workloads/models/io_test_util.h"
#include "workloads/models/safetensors.h"

namespace otpu::models {
namespace {

struct Moments {
  double mean = 0, std = 0;
};

Moments Measure(const std::vector<float>& v) {
  double s = 0, s2 = 0;
  for (float x : v) s += x, s2 += double(x) * x;
  const double mean = s / double(v.size());
  return {mean, std::sqrt(s2 / double(v.size()) - mean * mean)};
}

TEST(RandomQwen3, SameSeedGivesTheSameModel) {
  const Qwen3Weights& a = QwenTinyWeights();
  const Qwen3Weights b = RandomQwen3(Qwen3Config::Tiny(), 0);
  for (const std::string& name : Qwen3TensorNames(a.config))
    EXPECT_EQ(*a.Find(name), *b.Find(name)) << name;
}

// The generator draws a batch of pairs at a time from its own 32-bit mt19937; the values are
// still those of std::mt19937 and the scalar Box-Muller (cos first, then sin) the model was
// defined with, so every checkpoint it ever wrote stays the same.
TEST(RandomQwen3, DrawsStdMt19937sBoxMullerValues) {
  std::mt19937 rng(0);
  bool has_spare = false;
  double spare = 0;
  auto uniform = [&] {
    const uint64_t hi = rng() >> 5, lo = rng() >> 6;
    return double((hi << 26) | lo) * 0x1.0p-53;
  };
  auto next = [&] {
    if (has_spare) {
      has_spare = false;
      return spare;
    }
    const double u1 = 1.0 - uniform(), u2 = uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    spare = r * std::sin(2.0 * std::numbers::pi * u2);
    has_spare = true;
    return r * std::cos(2.0 * std::numbers::pi * u2);
  };
  const Qwen3Weights& w = QwenTinyWeights();
  // The first tensor, N(0, 1), then the first layer's norm gain, 1 + N(0, 0.1).
  for (size_t i = 0; i < w.embed_tokens.size(); ++i)
    ASSERT_EQ(w.embed_tokens[i], Bf16ToFloat(FloatToBf16(float(next())))) << i;
  for (size_t i = 0; i < w.layers[0].input_layernorm.size(); ++i)
    ASSERT_EQ(w.layers[0].input_layernorm[i], Bf16ToFloat(FloatToBf16(float(1.0 + 0.1 * next()))))
        << i;
}

TEST(RandomQwen3, OtherSeedGivesAnotherModel) {
  const Qwen3Weights& a = QwenTinyWeights();
  const Qwen3Weights b = RandomQwen3(Qwen3Config::Tiny(), 1);
  EXPECT_NE(a.embed_tokens, b.embed_tokens);
  EXPECT_NE(a.layers[1].down_proj, b.layers[1].down_proj);
}

TEST(RandomQwen3, EveryTensorHasItsConfigShape) {
  Qwen3Config c = Qwen3Config::Tiny();
  c.tie_word_embeddings = false;
  const Qwen3Weights w = RandomQwen3(c, 0);
  for (const std::string& name : Qwen3TensorNames(c)) {
    const std::vector<int64_t> shape = Qwen3TensorShape(c, name).value();
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    ASSERT_NE(w.Find(name), nullptr) << name;
    EXPECT_EQ(int64_t(w.Find(name)->size()), n) << name;
  }
}

TEST(RandomQwen3, ValuesAreBf16Exact) {
  const Qwen3Weights& w = QwenTinyWeights();
  for (const std::string& name : Qwen3TensorNames(w.config)) {
    for (float x : *w.Find(name)) ASSERT_EQ(Bf16ToFloat(FloatToBf16(x)), x) << name;
  }
}

TEST(RandomQwen3, MatricesHaveFanInScale) {
  const Qwen3Weights& w = QwenTinyWeights();
  const Moments q = Measure(w.layers[0].q_proj), down = Measure(w.layers[1].down_proj);
  EXPECT_NEAR(q.mean, 0.0, 0.01);
  EXPECT_NEAR(q.std, 1.0 / std::sqrt(256.0), 0.02 / std::sqrt(256.0) * 5);
  EXPECT_NEAR(down.std, 1.0 / std::sqrt(512.0), 0.02 / std::sqrt(512.0) * 5);
  const Moments e = Measure(w.embed_tokens);
  EXPECT_NEAR(e.std, 1.0, 0.02);
}

TEST(RandomQwen3, NormGainsAreNearOne) {
  const Qwen3Weights& w = QwenTinyWeights();
  const Moments g = Measure(w.layers[0].input_layernorm), n = Measure(w.norm);
  EXPECT_NEAR(g.mean, 1.0, 0.03);
  EXPECT_NEAR(g.std, 0.1, 0.02);
  EXPECT_NEAR(n.mean, 1.0, 0.03);
}

TEST(Qwen3Weights, TiedLmHeadIsTheEmbedding) {
  const Qwen3Weights& w = QwenTinyWeights();
  EXPECT_TRUE(w.lm_head.empty());
  EXPECT_EQ(&w.LmHead(), &w.embed_tokens);
  EXPECT_EQ(w.Find("lm_head.weight"), nullptr);
}

TEST(Qwen3Weights, UntiedLmHeadIsItsOwn) {
  Qwen3Config c = Qwen3Config::Tiny();
  c.tie_word_embeddings = false;
  const Qwen3Weights w = RandomQwen3(c, 0);
  EXPECT_EQ(&w.LmHead(), &w.lm_head);
  EXPECT_NE(w.lm_head, w.embed_tokens);
  EXPECT_EQ(w.Find("lm_head.weight"), &w.lm_head);
}

}  // namespace
}  // namespace otpu::models
