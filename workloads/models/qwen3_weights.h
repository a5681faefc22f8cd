// Qwen3Weights: a whole Qwen3 model's parameters as float tensors in Hugging Face layout,
// from a checkpoint directory or from the seeded random initialisation (qwen-tiny). The
// engine takes one of these whatever its source.
#ifndef OTPU_WORKLOADS_MODELS_QWEN3_WEIGHTS_H_
#define OTPU_WORKLOADS_MODELS_QWEN3_WEIGHTS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "workloads/models/qwen3_config.h"

namespace otpu::models {

// One decoder layer. Matrices are row-major [out, in] as in the checkpoint:
// q_proj [hq*hd, H], k_proj/v_proj [hkv*hd, H], o_proj [H, hq*hd],
// gate_proj/up_proj [F, H], down_proj [H, F]; norm gains are vectors.
struct Qwen3LayerWeights {
  std::vector<float> input_layernorm;           // [H]
  std::vector<float> q_proj, k_proj, v_proj;    // see above
  std::vector<float> q_norm, k_norm;            // [hd] each, shared by all heads
  std::vector<float> o_proj;                    // [H, hq*hd]
  std::vector<float> post_attention_layernorm;  // [H]
  std::vector<float> gate_proj, up_proj;        // [F, H]
  std::vector<float> down_proj;                 // [H, F]
};

// The whole model.
struct Qwen3Weights {
  Qwen3Config config;
  std::vector<float> embed_tokens;  // [vocab, H]; row t is token t's embedding
  std::vector<Qwen3LayerWeights> layers;
  std::vector<float> norm;     // [H], the final RMSNorm gain
  std::vector<float> lm_head;  // [vocab, H]; empty when config.tie_word_embeddings

  // The LM head matrix [vocab, H]: embed_tokens when tied.
  const std::vector<float>& LmHead() const {
    return config.tie_word_embeddings ? embed_tokens : lm_head;
  }
  // Tensor `name` (a Hugging Face name such as "model.layers.0.mlp.up_proj.weight");
  // nullptr for an unknown name or lm_head.weight of a tied model.
  const std::vector<float>* Find(const std::string& name) const;
  std::vector<float>* Find(const std::string& name);
};

// The seeded random model: matrices N(0, 1/sqrt(fan-in)), embeddings N(0, 1), norm gains
// 1 + N(0, 0.1), drawn from mt19937(seed) with our own Box-Muller (std::normal_distribution's
// algorithm differs between standard libraries) in Qwen3TensorNames order. Every value is
// rounded to bf16, so a bf16 or f32 checkpoint of it loads back bit-exactly.
// RandomQwen3(Qwen3Config::Tiny(), 0) is the spec's qwen-tiny.
Qwen3Weights RandomQwen3(const Qwen3Config& config, uint32_t seed);

// Receives one piece of a tensor: `values` are elements [offset, offset + values.size()) of
// tensor `name` of `shape`. An error stops the generation.
using RandomTensorPiece =
    std::function<Status(const std::string& name, const std::vector<int64_t>& shape,
                         int64_t offset, std::span<const float> values)>;

// RandomQwen3's values without holding the model (a Qwen3-0.6B-shaped one is 2.4 GB of
// floats): every tensor in Qwen3TensorNames order, in consecutive pieces of at most
// `max_piece` values, drawn exactly as RandomQwen3 draws them. Returns the first error of
// `piece`.
Status GenerateRandomQwen3(const Qwen3Config& config, uint32_t seed, size_t max_piece,
                           const RandomTensorPiece& piece);

// Reads every tensor of an opened checkpoint into floats.
StatusOr<Qwen3Weights> LoadQwen3Weights(const Qwen3Checkpoint& checkpoint);

// One tensor's float values, or a slice of its rows: borrowed from a model in memory, or
// read for the caller and owned.
class TensorValues {
 public:
  explicit TensorValues(const std::vector<float>* borrowed) : borrowed_(borrowed) {}
  explicit TensorValues(std::vector<float> owned) : owned_(std::move(owned)) {}
  const std::vector<float>& get() const { return borrowed_ ? *borrowed_ : owned_; }

 private:
  std::vector<float> owned_;
  const std::vector<float>* borrowed_ = nullptr;
};

// Where the image, the steps and the reference take a model's tensors from, one tensor (or a
// slice of one) at a time: a Qwen3Weights in memory (ResidentQwen3), or a checkpoint read
// tensor by tensor (CheckpointQwen3), so that a Qwen3-0.6B is never held as 2.4 GB of floats.
class Qwen3TensorSource {
 public:
  virtual ~Qwen3TensorSource() = default;
  virtual const Qwen3Config& config() const = 0;
  // True when the values are in memory: a whole tensor costs nothing, so callers take whole
  // tensors rather than slices.
  virtual bool resident() const = 0;
  // InvalidArgument naming the Hugging Face tensor when one is missing or of the wrong size
  // (the config's layer count included); a checkpoint checked its tensors when it opened.
  virtual Status Check() const = 0;
  // Tensor `name` of Qwen3TensorNames.
  virtual StatusOr<TensorValues> Tensor(const std::string& name) const = 0;
  // Rows [row, row + rows) of 2-D tensor `name`.
  virtual StatusOr<TensorValues> Rows(const std::string& name, int64_t row,
                                      int64_t rows) const = 0;
  // The LM head's tensor: lm_head.weight, or the embeddings of a tied model.
  std::string LmHeadName() const;
};

// A Qwen3Weights in memory, borrowed (it must outlive the source) or shared.
class ResidentQwen3 : public Qwen3TensorSource {
 public:
  explicit ResidentQwen3(const Qwen3Weights& w) : w_(w) {}
  explicit ResidentQwen3(std::shared_ptr<const Qwen3Weights> w)
      : owned_(std::move(w)), w_(*owned_) {}
  const Qwen3Config& config() const override { return w_.config; }
  bool resident() const override { return true; }
  Status Check() const override;
  StatusOr<TensorValues> Tensor(const std::string& name) const override;
  StatusOr<TensorValues> Rows(const std::string& name, int64_t row, int64_t rows) const override;

 private:
  std::shared_ptr<const Qwen3Weights> owned_;
  const Qwen3Weights& w_;
};

// An opened checkpoint, read (and converted to float) tensor by tensor on every call: what a
// call returns is all it holds (SafetensorsFile::ReadFloatRows releases the mapped pages).
class CheckpointQwen3 : public Qwen3TensorSource {
 public:
  explicit CheckpointQwen3(std::unique_ptr<Qwen3Checkpoint> checkpoint)
      : ckpt_(std::move(checkpoint)) {}
  const Qwen3Config& config() const override { return ckpt_->config(); }
  bool resident() const override { return false; }
  Status Check() const override { return OkStatus(); }
  StatusOr<TensorValues> Tensor(const std::string& name) const override;
  StatusOr<TensorValues> Rows(const std::string& name, int64_t row, int64_t rows) const override;
  const Qwen3Checkpoint& checkpoint() const { return *ckpt_; }

 private:
  std::unique_ptr<Qwen3Checkpoint> ckpt_;
};

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_QWEN3_WEIGHTS_H_
