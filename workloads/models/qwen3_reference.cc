#include "workloads/models/qwen3_reference.h"

#include <algorithm>
#include <cmath>

#include "base/strings.h"

namespace otpu::models {

Qwen3Reference::Qwen3Reference(const Qwen3Weights& w)
    : w_(w), k_(w.layers.size()), v_(w.layers.size()) {}

std::vector<double> Qwen3Reference::MatVec(const std::vector<float>& w,
                                           const std::vector<double>& x, int rows) {
  const size_t k = x.size();
  std::vector<double> y(rows);
  for (int r = 0; r < rows; ++r) {
    const float* row = w.data() + size_t(r) * k;
    double acc = 0;
    for (size_t e = 0; e < k; ++e) acc += double(row[e]) * x[e];
    y[r] = acc;
  }
  return y;
}

std::vector<double> Qwen3Reference::RmsNorm(const std::vector<double>& x,
                                            const std::vector<float>& g, size_t offset,
                                            size_t n) const {
  double ss = 0;
  for (size_t i = 0; i < n; ++i) ss += x[offset + i] * x[offset + i];
  const double inv = 1.0 / std::sqrt(ss / double(n) + w_.config.rms_norm_eps);
  std::vector<double> y(n);
  for (size_t i = 0; i < n; ++i) y[i] = x[offset + i] * inv * double(g[i]);
  return y;
}

void Qwen3Reference::Rope(double* v, int pos) const {
  const int hd = w_.config.head_dim, half = hd / 2;
  for (int i = 0; i < half; ++i) {
    const double angle = double(pos) * std::pow(w_.config.rope_theta, -2.0 * i / hd);
    const double c = std::cos(angle), s = std::sin(angle);
    const double a = v[i], b = v[i + half];
    v[i] = a * c - b * s;
    v[i + half] = b * c + a * s;
  }
}

std::vector<double> Qwen3Reference::Attention(int layer, const std::vector<double>& q) const {
  const Qwen3Config& c = w_.config;
  const int hq = c.num_attention_heads, hkv = c.num_key_value_heads, hd = c.head_dim;
  const int group = hq / hkv, t = pos_ + 1;
  const std::vector<double>& K = k_[layer];
  const std::vector<double>& V = v_[layer];
  const double scale = 1.0 / std::sqrt(double(hd));
  std::vector<double> o(size_t(hq) * hd, 0.0), s(t);
  for (int h = 0; h < hq; ++h) {
    const int j = h / group;
    double mx = -INFINITY;
    for (int p = 0; p < t; ++p) {
      double dot = 0;
      for (int e = 0; e < hd; ++e) dot += q[size_t(h) * hd + e] * K[(size_t(p) * hkv + j) * hd + e];
      s[p] = dot * scale;
      mx = std::max(mx, s[p]);
    }
    double sum = 0;
    for (int p = 0; p < t; ++p) sum += (s[p] = std::exp(s[p] - mx));
    for (int p = 0; p < t; ++p)
      for (int e = 0; e < hd; ++e)
        o[size_t(h) * hd + e] += s[p] / sum * V[(size_t(p) * hkv + j) * hd + e];
  }
  return o;
}

StatusOr<std::vector<double>> Qwen3Reference::Step(int token) {
  const Qwen3Config& c = w_.config;
  const int H = c.hidden_size, hq = c.num_attention_heads, hkv = c.num_key_value_heads;
  const int hd = c.head_dim, F = c.intermediate_size;
  if (token < 0 || token >= c.vocab_size)
    return InvalidArgument(
        StrFormat("reference: token %d is outside the vocabulary of %d", token, c.vocab_size));
  std::vector<double> x(w_.embed_tokens.begin() + size_t(token) * H,
                        w_.embed_tokens.begin() + size_t(token + 1) * H);
  for (size_t l = 0; l < w_.layers.size(); ++l) {
    const Qwen3LayerWeights& lw = w_.layers[l];
    std::vector<double> n = RmsNorm(x, lw.input_layernorm, 0, H);
    std::vector<double> q = MatVec(lw.q_proj, n, hq * hd);
    std::vector<double> k = MatVec(lw.k_proj, n, hkv * hd);
    std::vector<double> v = MatVec(lw.v_proj, n, hkv * hd);
    for (int h = 0; h < hq; ++h) {
      std::vector<double> qn = RmsNorm(q, lw.q_norm, size_t(h) * hd, hd);
      Rope(qn.data(), pos_);
      std::copy(qn.begin(), qn.end(), q.begin() + size_t(h) * hd);
    }
    for (int j = 0; j < hkv; ++j) {
      std::vector<double> kn = RmsNorm(k, lw.k_norm, size_t(j) * hd, hd);
      Rope(kn.data(), pos_);
      std::copy(kn.begin(), kn.end(), k.begin() + size_t(j) * hd);
    }
    k_[l].insert(k_[l].end(), k.begin(), k.end());
    v_[l].insert(v_[l].end(), v.begin(), v.end());
    std::vector<double> attn = MatVec(lw.o_proj, Attention(int(l), q), H);
    for (int i = 0; i < H; ++i) x[i] += attn[i];

    n = RmsNorm(x, lw.post_attention_layernorm, 0, H);
    std::vector<double> gate = MatVec(lw.gate_proj, n, F), up = MatVec(lw.up_proj, n, F);
    for (int i = 0; i < F; ++i) gate[i] = gate[i] / (1.0 + std::exp(-gate[i])) * up[i];
    std::vector<double> down = MatVec(lw.down_proj, gate, H);
    for (int i = 0; i < H; ++i) x[i] += down[i];
  }
  ++pos_;
  return MatVec(w_.LmHead(), RmsNorm(x, w_.norm, 0, H), c.vocab_size);
}

double Cosine(const std::vector<float>& a, const std::vector<double>& b) {
  double ab = 0, aa = 0, bb = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    ab += double(a[i]) * b[i];
    aa += double(a[i]) * a[i];
    bb += b[i] * b[i];
  }
  return aa == 0 || bb == 0 ? 0.0 : ab / std::sqrt(aa * bb);
}

}  // namespace otpu::models
