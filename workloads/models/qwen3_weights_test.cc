#include "workloads/models/qwen3_weights.h"

#include <gtest/gtest.h>

#include <cmath>

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
