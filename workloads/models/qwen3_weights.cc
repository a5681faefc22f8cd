#include "workloads/models/qwen3_weights.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>

#include "workloads/models/safetensors.h"

namespace otpu::models {
namespace {

// Normal deviates from mt19937 by Box-Muller on 53-bit uniforms. std::normal_distribution's
// algorithm is up to the standard library; this depends only on libm's log/sin/cos, whose
// last-bit differences the bf16 rounding almost always hides.
class Normal {
 public:
  explicit Normal(uint32_t seed) : rng_(seed) {}

  double Next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double u1 = 1.0 - Uniform();  // (0, 1]: log stays finite
    const double u2 = Uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    spare_ = r * std::sin(2.0 * std::numbers::pi * u2);
    has_spare_ = true;
    return r * std::cos(2.0 * std::numbers::pi * u2);
  }

 private:
  double Uniform() {  // [0, 1)
    const uint64_t hi = rng_() >> 5, lo = rng_() >> 6;
    return double((hi << 26) | lo) * 0x1.0p-53;
  }

  std::mt19937 rng_;
  double spare_ = 0;
  bool has_spare_ = false;
};

// Pointers to each tensor of `w` in Qwen3TensorNames order, with their names.
template <typename W, typename F>
void ForEachTensor(W& w, F&& fn) {
  fn("model.embed_tokens.weight", w.embed_tokens);
  for (size_t l = 0; l < w.layers.size(); ++l) {
    auto& L = w.layers[l];
    const std::string p = "model.layers." + std::to_string(l) + ".";
    fn(p + "input_layernorm.weight", L.input_layernorm);
    fn(p + "self_attn.q_proj.weight", L.q_proj);
    fn(p + "self_attn.k_proj.weight", L.k_proj);
    fn(p + "self_attn.v_proj.weight", L.v_proj);
    fn(p + "self_attn.o_proj.weight", L.o_proj);
    fn(p + "self_attn.q_norm.weight", L.q_norm);
    fn(p + "self_attn.k_norm.weight", L.k_norm);
    fn(p + "post_attention_layernorm.weight", L.post_attention_layernorm);
    fn(p + "mlp.gate_proj.weight", L.gate_proj);
    fn(p + "mlp.up_proj.weight", L.up_proj);
    fn(p + "mlp.down_proj.weight", L.down_proj);
  }
  fn("model.norm.weight", w.norm);
  if (!w.config.tie_word_embeddings) fn("lm_head.weight", w.lm_head);
}

}  // namespace

const std::vector<float>* Qwen3Weights::Find(const std::string& name) const {
  return const_cast<Qwen3Weights*>(this)->Find(name);
}

std::vector<float>* Qwen3Weights::Find(const std::string& name) {
  std::vector<float>* found = nullptr;
  ForEachTensor(*this, [&](const std::string& n, std::vector<float>& t) {
    if (n == name) found = &t;
  });
  return found;
}

namespace {

// The distribution of tensor `name` of `shape`: matrices N(0, 1/sqrt(fan-in)), the embeddings
// N(0, 1), norm gains 1 + N(0, 0.1).
void DistributionOf(const std::string& name, const std::vector<int64_t>& shape, double* mean,
                    double* std) {
  *mean = 0;
  *std = 0.1;
  if (name == "model.embed_tokens.weight") {
    *std = 1.0;
  } else if (shape.size() == 2) {
    *std = 1.0 / std::sqrt(double(shape[1]));
  } else {
    *mean = 1.0;
  }
}

}  // namespace

Qwen3Weights RandomQwen3(const Qwen3Config& config, uint32_t seed) {
  Qwen3Weights w;
  w.config = config;
  w.layers.resize(size_t(config.num_hidden_layers));
  Normal normal(seed);
  ForEachTensor(w, [&](const std::string& name, std::vector<float>& t) {
    const std::vector<int64_t> shape = Qwen3TensorShape(config, name).value();
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    t.resize(size_t(n));
    double mean = 0, std = 0;
    DistributionOf(name, shape, &mean, &std);
    for (float& x : t) x = Bf16ToFloat(FloatToBf16(float(mean + std * normal.Next())));
  });
  return w;
}

Status GenerateRandomQwen3(const Qwen3Config& config, uint32_t seed, size_t max_piece,
                           const RandomTensorPiece& piece) {
  Normal normal(seed);
  std::vector<float> buf(std::max<size_t>(1, max_piece));
  for (const std::string& name : Qwen3TensorNames(config)) {
    ASSIGN_OR_RETURN(const std::vector<int64_t> shape, Qwen3TensorShape(config, name));
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    double mean = 0, std = 0;
    DistributionOf(name, shape, &mean, &std);
    for (int64_t at = 0; at < n;) {
      const size_t k = size_t(std::min<int64_t>(n - at, int64_t(buf.size())));
      for (size_t i = 0; i < k; ++i) {
        buf[i] = Bf16ToFloat(FloatToBf16(float(mean + std * normal.Next())));
      }
      RETURN_IF_ERROR(piece(name, shape, at, std::span<const float>(buf.data(), k)));
      at += int64_t(k);
    }
  }
  return OkStatus();
}

StatusOr<Qwen3Weights> LoadQwen3Weights(const Qwen3Checkpoint& checkpoint) {
  Qwen3Weights w;
  w.config = checkpoint.config();
  w.layers.resize(size_t(w.config.num_hidden_layers));
  Status status;
  ForEachTensor(w, [&](const std::string& name, std::vector<float>& t) {
    if (!status.ok()) return;
    auto tensor = checkpoint.Tensor(name);
    if (tensor.ok()) {
      t = std::move(tensor).value();
    } else {
      status = tensor.status();
    }
  });
  if (!status.ok()) return status;
  return w;
}

}  // namespace otpu::models
