#include "workloads/models/qwen3_weights.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "base/strings.h"
#include "workloads/models/safetensors.h"

namespace otpu::models {
namespace {

// std::mt19937's exact output stream, generated a block of 624 words at a time on 32-bit
// words (libstdc++'s std::mt19937 works on 64-bit words, word by word: a third of a random
// Qwen3-0.6B's generation time went there).
class Mt19937 {
 public:
  explicit Mt19937(uint32_t seed) {
    mt_[0] = seed;
    for (uint32_t i = 1; i < kN; ++i) mt_[i] = 1812433253u * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + i;
    at_ = kN;
  }

  uint32_t operator()() {
    if (at_ == kN) Twist();
    uint32_t y = mt_[at_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
  }

 private:
  static constexpr uint32_t kN = 624, kM = 397;

  static uint32_t Mix(uint32_t a, uint32_t b, uint32_t c) {
    const uint32_t y = (a & 0x80000000u) | (b & 0x7fffffffu);
    return c ^ (y >> 1) ^ ((b & 1u) ? 0x9908b0dfu : 0u);
  }
  void Twist() {
    uint32_t i = 0;
    for (; i < kN - kM; ++i) mt_[i] = Mix(mt_[i], mt_[i + 1], mt_[i + kM]);
    for (; i < kN - 1; ++i) mt_[i] = Mix(mt_[i], mt_[i + 1], mt_[i + kM - kN]);
    mt_[kN - 1] = Mix(mt_[kN - 1], mt_[0], mt_[kM - 1]);
    at_ = 0;
  }

  uint32_t mt_[kN];
  uint32_t at_;
};

// Normal deviates from mt19937 by Box-Muller on 53-bit uniforms. std::normal_distribution's
// algorithm is up to the standard library; this depends only on libm's log/sincos, whose
// last-bit differences the bf16 rounding almost always hides.
class Normal {
 public:
  explicit Normal(uint32_t seed) : rng_(seed) {}

  double Next() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double a, b;
    Pair(&a, &b);
    spare_ = b;
    has_spare_ = true;
    return a;
  }

  // out[i] = mean + std * Next(), rounded to bf16, for n values: the same values as n calls,
  // computed a batch of pairs at a time, each step over the whole batch (the uniforms, the
  // logs, the square roots, the sines and cosines), so the steps overlap in the core.
  void FillBf16(double mean, double std, float* out, size_t n) {
    size_t i = 0;
    if (n > 0 && has_spare_) out[i++] = Round(mean + std * Next());
    constexpr size_t kBatch = 256;
    double u1[kBatch], u2[kBatch], r[kBatch], sn[kBatch], cs[kBatch];
    while (i + 2 <= n) {
      const size_t m = std::min(kBatch, (n - i) / 2);
      for (size_t j = 0; j < m; ++j) {
        u1[j] = 1.0 - Uniform();  // (0, 1]: log stays finite
        u2[j] = Uniform();
      }
      for (size_t j = 0; j < m; ++j) r[j] = -2.0 * std::log(u1[j]);
      for (size_t j = 0; j < m; ++j) r[j] = std::sqrt(r[j]);
      for (size_t j = 0; j < m; ++j) ::sincos(2.0 * std::numbers::pi * u2[j], &sn[j], &cs[j]);
      for (size_t j = 0; j < m; ++j) {
        out[i + 2 * j] = Round(mean + std * (r[j] * cs[j]));
        out[i + 2 * j + 1] = Round(mean + std * (r[j] * sn[j]));
      }
      i += 2 * m;
    }
    if (i < n) out[i] = Round(mean + std * Next());
  }

  static float Round(double v) { return Bf16ToFloat(FloatToBf16(float(v))); }

  // The next two deviates, in the order Next returns them.
  void Pair(double* first, double* second) {
    const double u1 = 1.0 - Uniform();  // (0, 1]: log stays finite
    const double u2 = Uniform();
    const double r = std::sqrt(-2.0 * std::log(u1));
    double s, c;
    ::sincos(2.0 * std::numbers::pi * u2, &s, &c);
    *first = r * c;
    *second = r * s;
  }

  double Uniform() {  // [0, 1)
    const uint64_t hi = rng_() >> 5, lo = rng_() >> 6;
    return double((hi << 26) | lo) * 0x1.0p-53;
  }

  Mt19937 rng_;
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
    normal.FillBf16(mean, std, t.data(), t.size());
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
      normal.FillBf16(mean, std, buf.data(), k);
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

std::string Qwen3TensorSource::LmHeadName() const {
  return config().tie_word_embeddings ? "model.embed_tokens.weight" : "lm_head.weight";
}

Status ResidentQwen3::Check() const {
  if (w_.layers.size() != size_t(w_.config.num_hidden_layers))
    return InvalidArgument(StrFormat("qwen3 weights: %zu layers, the config has %d",
                                     w_.layers.size(), w_.config.num_hidden_layers));
  for (const std::string& name : Qwen3TensorNames(w_.config)) {
    const std::vector<float>* t = w_.Find(name);
    ASSIGN_OR_RETURN(std::vector<int64_t> shape, Qwen3TensorShape(w_.config, name));
    size_t want = 1;
    for (int64_t d : shape) want *= size_t(d);
    if (t == nullptr || t->size() != want)
      return InvalidArgument(StrFormat("qwen3 weights: tensor %s has %zu values, expected %zu",
                                       name.c_str(), t ? t->size() : size_t(0), want));
  }
  return OkStatus();
}

StatusOr<TensorValues> ResidentQwen3::Tensor(const std::string& name) const {
  const std::vector<float>* t = name == "lm_head.weight" ? &w_.LmHead() : w_.Find(name);
  if (t == nullptr) return NotFound("qwen3 weights: no tensor " + name);
  return TensorValues(t);
}

StatusOr<TensorValues> ResidentQwen3::Rows(const std::string& name, int64_t row,
                                           int64_t rows) const {
  ASSIGN_OR_RETURN(TensorValues whole, Tensor(name));
  ASSIGN_OR_RETURN(const std::vector<int64_t> shape, Qwen3TensorShape(w_.config, name));
  const int64_t dim0 = shape.empty() ? 1 : shape[0];
  const int64_t per_row = dim0 == 0 ? 0 : int64_t(whole.get().size()) / dim0;
  if (row < 0 || rows < 0 || row > dim0 || rows > dim0 - row)
    return InvalidArgument(StrFormat("qwen3 weights: rows [%lld, %lld) of %s outside its %lld rows",
                                     (long long)row, (long long)(row + rows), name.c_str(),
                                     (long long)dim0));
  const auto begin = whole.get().begin() + row * per_row;
  return TensorValues(std::vector<float>(begin, begin + rows * per_row));
}

StatusOr<TensorValues> CheckpointQwen3::Tensor(const std::string& name) const {
  ASSIGN_OR_RETURN(std::vector<float> v, ckpt_->Tensor(name));
  return TensorValues(std::move(v));
}

StatusOr<TensorValues> CheckpointQwen3::Rows(const std::string& name, int64_t row,
                                             int64_t rows) const {
  if (rows < 0)
    return InvalidArgument(StrFormat("%s: %lld rows of %s", ckpt_->dir().c_str(),
                                     (long long)rows, name.c_str()));
  ASSIGN_OR_RETURN(std::vector<float> v, ckpt_->TensorRows(name, row, rows));
  return TensorValues(std::move(v));
}

}  // namespace otpu::models
