#include "workloads/models/qwen3_reference.h"

#include <algorithm>
#include <cmath>

#include "base/strings.h"

namespace otpu::models {

Qwen3Reference::Qwen3Reference(const Qwen3Weights& w)
    : resident_(std::make_unique<ResidentQwen3>(w)),
      w_(*resident_),
      c_(w.config),
      k_(w.layers.size()),
      v_(w.layers.size()) {}

Qwen3Reference::Qwen3Reference(const Qwen3TensorSource& w, int64_t head_piece_values)
    : w_(w),
      c_(w.config()),
      head_piece_values_(std::max<int64_t>(1, head_piece_values)),
      k_(size_t(w.config().num_hidden_layers)),
      v_(size_t(w.config().num_hidden_layers)) {}

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
  const double inv = 1.0 / std::sqrt(ss / double(n) + c_.rms_norm_eps);
  std::vector<double> y(n);
  for (size_t i = 0; i < n; ++i) y[i] = x[offset + i] * inv * double(g[i]);
  return y;
}

void Qwen3Reference::Rope(double* v, int pos) const {
  const int hd = c_.head_dim, half = hd / 2;
  for (int i = 0; i < half; ++i) {
    const double angle = double(pos) * std::pow(c_.rope_theta, -2.0 * i / hd);
    const double c = std::cos(angle), s = std::sin(angle);
    const double a = v[i], b = v[i + half];
    v[i] = a * c - b * s;
    v[i + half] = b * c + a * s;
  }
}

std::vector<double> Qwen3Reference::Attention(int layer, const std::vector<double>& q,
                                              int pos) const {
  const Qwen3Config& c = c_;
  const int hq = c.num_attention_heads, hkv = c.num_key_value_heads, hd = c.head_dim;
  const int group = hq / hkv, t = pos + 1;
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

namespace {

// The tensors of a layer, in the order Layer reads them.
enum LayerTensor {
  kInNorm, kQ, kK, kV, kQNorm, kKNorm, kO, kPostNorm, kGate, kUp, kDown, kLayerTensors
};
constexpr const char* kLayerTensorNames[kLayerTensors] = {
    "input_layernorm.weight",  "self_attn.q_proj.weight", "self_attn.k_proj.weight",
    "self_attn.v_proj.weight", "self_attn.q_norm.weight", "self_attn.k_norm.weight",
    "self_attn.o_proj.weight", "post_attention_layernorm.weight", "mlp.gate_proj.weight",
    "mlp.up_proj.weight",      "mlp.down_proj.weight"};

}  // namespace

Status Qwen3Reference::Layer(int l, int pos, std::vector<double>* xp) {
  if (loaded_ != l) {
    lw_.clear();
    loaded_ = -1;
    const std::string prefix = "model.layers." + std::to_string(l) + ".";
    for (const char* name : kLayerTensorNames) {
      ASSIGN_OR_RETURN(TensorValues t, w_.Tensor(prefix + name));
      lw_.push_back(std::move(t));
    }
    loaded_ = l;
  }
  auto W = [&](LayerTensor t) -> const std::vector<float>& { return lw_[t].get(); };
  const Qwen3Config& c = c_;
  const int H = c.hidden_size, hq = c.num_attention_heads, hkv = c.num_key_value_heads;
  const int hd = c.head_dim, F = c.intermediate_size;
  std::vector<double>& x = *xp;
  std::vector<double> n = RmsNorm(x, W(kInNorm), 0, H);
  std::vector<double> q = MatVec(W(kQ), n, hq * hd);
  std::vector<double> k = MatVec(W(kK), n, hkv * hd);
  std::vector<double> v = MatVec(W(kV), n, hkv * hd);
  for (int h = 0; h < hq; ++h) {
    std::vector<double> qn = RmsNorm(q, W(kQNorm), size_t(h) * hd, hd);
    Rope(qn.data(), pos);
    std::copy(qn.begin(), qn.end(), q.begin() + size_t(h) * hd);
  }
  for (int j = 0; j < hkv; ++j) {
    std::vector<double> kn = RmsNorm(k, W(kKNorm), size_t(j) * hd, hd);
    Rope(kn.data(), pos);
    std::copy(kn.begin(), kn.end(), k.begin() + size_t(j) * hd);
  }
  k_[l].insert(k_[l].end(), k.begin(), k.end());
  v_[l].insert(v_[l].end(), v.begin(), v.end());
  std::vector<double> attn = MatVec(W(kO), Attention(l, q, pos), H);
  for (int i = 0; i < H; ++i) x[i] += attn[i];

  n = RmsNorm(x, W(kPostNorm), 0, H);
  std::vector<double> gate = MatVec(W(kGate), n, F), up = MatVec(W(kUp), n, F);
  for (int i = 0; i < F; ++i) gate[i] = gate[i] / (1.0 + std::exp(-gate[i])) * up[i];
  std::vector<double> down = MatVec(W(kDown), gate, H);
  for (int i = 0; i < H; ++i) x[i] += down[i];
  return OkStatus();
}

StatusOr<std::vector<double>> Qwen3Reference::Head(const std::vector<double>& x) const {
  const int H = c_.hidden_size, vocab = c_.vocab_size;
  ASSIGN_OR_RETURN(TensorValues g, w_.Tensor("model.norm.weight"));
  const std::vector<double> n = RmsNorm(x, g.get(), 0, H);
  const std::string head = w_.LmHeadName();
  if (w_.resident()) {
    ASSIGN_OR_RETURN(TensorValues t, w_.Tensor(head));
    return MatVec(t.get(), n, vocab);
  }
  std::vector<double> logits;
  logits.reserve(size_t(vocab));
  const int rows = int(std::max<int64_t>(1, head_piece_values_ / std::max(H, 1)));
  for (int r = 0; r < vocab; r += rows) {
    const int m = std::min(rows, vocab - r);
    ASSIGN_OR_RETURN(TensorValues t, w_.Rows(head, r, m));
    const std::vector<double> y = MatVec(t.get(), n, m);
    logits.insert(logits.end(), y.begin(), y.end());
  }
  return logits;
}

StatusOr<std::vector<double>> Qwen3Reference::Step(int token) {
  return Prefill({token});
}

StatusOr<std::vector<double>> Qwen3Reference::Prefill(const std::vector<int>& tokens) {
  const Qwen3Config& c = c_;
  if (tokens.empty()) return InvalidArgument("reference: no tokens to run");
  std::vector<std::vector<double>> xs;
  for (int token : tokens) {
    if (token < 0 || token >= c.vocab_size)
      return InvalidArgument(
          StrFormat("reference: token %d is outside the vocabulary of %d", token, c.vocab_size));
    ASSIGN_OR_RETURN(TensorValues row, w_.Rows("model.embed_tokens.weight", token, 1));
    xs.emplace_back(row.get().begin(), row.get().end());
  }
  struct Unload {  // a reference between steps holds no weights
    Qwen3Reference* r;
    ~Unload() {
      r->lw_.clear();
      r->loaded_ = -1;
    }
  } unload{this};
  for (int l = 0; l < c.num_hidden_layers; ++l)
    for (size_t i = 0; i < xs.size(); ++i) RETURN_IF_ERROR(Layer(l, pos_ + int(i), &xs[i]));
  pos_ += int(tokens.size());
  return Head(xs.back());
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
