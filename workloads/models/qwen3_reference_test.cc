#include "workloads/models/qwen3_reference.h"

#include <gtest/gtest.h>

#include <cmath>

#include "workloads/kernels/reference.h"

namespace otpu::models {
namespace {

std::vector<float> ToFloat(const std::vector<double>& v) { return {v.begin(), v.end()}; }

// The same model through the kernels' own float64 references (kernels/reference.h), which
// were written separately from Qwen3Reference: the two must agree.
TEST(Qwen3Reference, AgreesWithTheKernelReferences) {
  const Qwen3Config cfg = Qwen3Config::Tiny();
  const Qwen3Weights w = RandomQwen3(cfg, 4);
  const int H = cfg.hidden_size;
  const kernels::LayerShape ls{.h = H, .hq = cfg.num_attention_heads,
                               .hkv = cfg.num_key_value_heads, .hd = cfg.head_dim,
                               .t_max = 16, .rope_theta = cfg.rope_theta};
  const kernels::MlpShape ms{.m = 1, .h = H, .f = cfg.intermediate_size};
  std::vector<kernels::RefKvCache> caches(w.layers.size(),
                                          kernels::RefKvCache(ls.hkv, ls.hd));
  Qwen3Reference ref(w);
  for (int token : {17, 3, 998, 17}) {
    std::vector<float> x(w.embed_tokens.begin() + size_t(token) * H,
                         w.embed_tokens.begin() + size_t(token + 1) * H);
    for (size_t l = 0; l < w.layers.size(); ++l) {
      const Qwen3LayerWeights& lw = w.layers[l];
      const kernels::LayerWeights attn{lw.input_layernorm, lw.q_proj, lw.k_proj, lw.v_proj,
                                       lw.q_norm,          lw.k_norm, lw.o_proj};
      x = ToFloat(kernels::RefLayerStep(ls, attn, x, &caches[l]));
      const kernels::MlpWeights mlp{lw.post_attention_layernorm, lw.gate_proj, lw.up_proj,
                                    lw.down_proj};
      x = ToFloat(kernels::RefMlp(ms, mlp, x));
    }
    std::vector<double> n = kernels::RefRmsNorm({x.begin(), x.end()}, 1, H, w.norm,
                                                cfg.rms_norm_eps);
    std::vector<double> want(cfg.vocab_size, 0.0);
    for (int v = 0; v < cfg.vocab_size; ++v)
      for (int i = 0; i < H; ++i) want[v] += double(w.embed_tokens[size_t(v) * H + i]) * n[i];

    const int pos = ref.pos();
    StatusOr<std::vector<double>> got = ref.Step(token);
    ASSERT_TRUE(got.ok()) << got.status().message();
    double err = 0, norm = 0;
    for (int v = 0; v < cfg.vocab_size; ++v) {
      err += ((*got)[v] - want[v]) * ((*got)[v] - want[v]);
      norm += want[v] * want[v];
    }
    // Only the float rounding of the hidden state between blocks differs.
    EXPECT_LT(std::sqrt(err / norm), 1e-5) << "pos " << pos;
  }
  EXPECT_EQ(ref.pos(), 4);
}

TEST(Qwen3Reference, TokenOutsideTheVocabularyIsNamed) {
  Qwen3Config cfg = Qwen3Config::Tiny();
  cfg.num_hidden_layers = 1;
  const Qwen3Weights w = RandomQwen3(cfg, 0);
  Qwen3Reference ref(w);
  StatusOr<std::vector<double>> got = ref.Step(-1);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(), "reference: token -1 is outside the vocabulary of 1000");
  EXPECT_EQ(ref.pos(), 0);
}

TEST(Cosine, IsOneForEqualDirectionsAndZeroForAZeroVector) {
  EXPECT_DOUBLE_EQ(Cosine({1, 2, 3}, {2, 4, 6}), 1.0);
  EXPECT_NEAR(Cosine({1, 0}, {0, 1}), 0.0, 1e-15);
  EXPECT_EQ(Cosine({0, 0}, {1, 1}), 0.0);
}

}  // namespace
}  // namespace otpu::models
