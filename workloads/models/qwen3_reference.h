// The float64 reference forward pass of Qwen3 (the Hugging Face Qwen3ForCausalLM math) on
// the unquantized weights, one token at a time with a float64 KV cache: what the engine's
// logits are checked against.
//   x = embed[token]
//   per layer: n = rmsnorm(x) g_in; q, k, v = Wq n, Wk n, Wv n; q, k = rmsnorm per head with
//     q_norm / k_norm; rotate-half RoPE at pos with inv_freq_i = theta^(-2i/hd); append k, v;
//     o = softmax(q k^T / sqrt(hd)) v per q head (kv head = q head / (hq/hkv));
//     x += Wo o; n = rmsnorm(x) g_post; x += W_down (silu(W_gate n) * W_up n)
//   logits = W_head (rmsnorm(x) g_final)
#ifndef OTPU_WORKLOADS_MODELS_QWEN3_REFERENCE_H_
#define OTPU_WORKLOADS_MODELS_QWEN3_REFERENCE_H_

#include <vector>

#include "base/status.h"
#include "workloads/models/qwen3_weights.h"

namespace otpu::models {

// One sequence being decoded: the float64 KV cache grows by a position per Step.
class Qwen3Reference {
 public:
  // `w` is borrowed and must outlive the reference.
  explicit Qwen3Reference(const Qwen3Weights& w);

  // Runs `token` at position pos() and returns the logits [vocab]; InvalidArgument naming the
  // token when it is outside the vocabulary.
  StatusOr<std::vector<double>> Step(int token);
  // The position the next Step runs at (= tokens so far).
  int pos() const { return pos_; }

 private:
  // y = W x for row-major W [rows x x.size()].
  static std::vector<double> MatVec(const std::vector<float>& w, const std::vector<double>& x,
                                    int rows);
  std::vector<double> RmsNorm(const std::vector<double>& x, const std::vector<float>& g,
                              size_t offset, size_t n) const;
  void Rope(double* v, int pos) const;
  std::vector<double> Attention(int layer, const std::vector<double>& q) const;

  const Qwen3Weights& w_;
  int pos_ = 0;
  // Per layer: keys and values of every position so far, [pos][hkv * hd].
  std::vector<std::vector<double>> k_, v_;
};

// Cosine similarity of two vectors (1 when equal up to scale; 0 when either is zero).
double Cosine(const std::vector<float>& a, const std::vector<double>& b);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_QWEN3_REFERENCE_H_
