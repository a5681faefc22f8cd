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

#include <memory>
#include <vector>

#include "base/status.h"
#include "workloads/models/qwen3_weights.h"

namespace otpu::models {

// One sequence being decoded: the float64 KV cache grows by a position per Step. The
// weights come from a Qwen3TensorSource a layer at a time, so a reference of a checkpoint
// holds one layer's floats (and a slice of the LM head), never the model.
class Qwen3Reference {
 public:
  // `w` is borrowed and must outlive the reference.
  explicit Qwen3Reference(const Qwen3Weights& w);
  // A source that is not resident gives the LM head in slices of at most `head_piece_values`.
  explicit Qwen3Reference(const Qwen3TensorSource& w,
                          int64_t head_piece_values = kHeadPieceValues);
  // 64 MB of floats: a slice of Qwen3-0.6B's 622 MB LM head.
  static constexpr int64_t kHeadPieceValues = int64_t{16} << 20;

  // Runs `token` at position pos() and returns the logits [vocab]; InvalidArgument naming the
  // token when it is outside the vocabulary, the source's error when a tensor does not read.
  StatusOr<std::vector<double>> Step(int token);
  // Runs `tokens` at positions pos() .. pos() + size - 1 and returns the last one's logits:
  // exactly what Step on each would give, computed layer by layer (each layer's weights are
  // read once for all of them). InvalidArgument for an empty list or a token as Step.
  StatusOr<std::vector<double>> Prefill(const std::vector<int>& tokens);
  // The position the next Step runs at (= tokens so far).
  int pos() const { return pos_; }

 private:
  // y = W x for row-major W [rows x x.size()].
  static std::vector<double> MatVec(const std::vector<float>& w, const std::vector<double>& x,
                                    int rows);
  std::vector<double> RmsNorm(const std::vector<double>& x, const std::vector<float>& g,
                              size_t offset, size_t n) const;
  void Rope(double* v, int pos) const;
  std::vector<double> Attention(int layer, const std::vector<double>& q, int pos) const;
  // Layer `l` for the residual `x` of the token at position `pos` (its k, v appended).
  Status Layer(int l, int pos, std::vector<double>* x);
  // The logits of the final residual `x`.
  StatusOr<std::vector<double>> Head(const std::vector<double>& x) const;

  std::unique_ptr<ResidentQwen3> resident_;  // when constructed from a Qwen3Weights
  const Qwen3TensorSource& w_;
  const Qwen3Config& c_;
  int64_t head_piece_values_ = kHeadPieceValues;
  int pos_ = 0;
  // Per layer: keys and values of every position so far, [pos][hkv * hd].
  std::vector<std::vector<double>> k_, v_;
  // The layer whose weights are loaded (-1: none) and its tensors, by Layer's order.
  int loaded_ = -1;
  std::vector<TensorValues> lw_;
};

// Cosine similarity of two vectors (1 when equal up to scale; 0 when either is zero).
double Cosine(const std::vector<float>& a, const std::vector<double>& b);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_QWEN3_REFERENCE_H_
