// The Qwen3 model configuration (the fields of a Hugging Face config.json that the engine
// uses) and Qwen3Checkpoint, a checkpoint directory opened for tensor access by HF name.
#ifndef OTPU_WORKLOADS_MODELS_QWEN3_CONFIG_H_
#define OTPU_WORKLOADS_MODELS_QWEN3_CONFIG_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "workloads/models/safetensors.h"

namespace otpu::models {

// The architecture fields of config.json; names follow the Hugging Face keys.
struct Qwen3Config {
  int hidden_size = 0;
  int intermediate_size = 0;
  int num_hidden_layers = 0;
  int num_attention_heads = 0;
  int num_key_value_heads = 0;
  int head_dim = 0;
  double rms_norm_eps = 1e-6;
  double rope_theta = 1e6;
  int vocab_size = 0;
  bool tie_word_embeddings = false;
  int max_position_embeddings = 0;
  std::string torch_dtype = "bfloat16";  // informational: tensors carry their own dtype

  // The spec's qwen-tiny: hidden 256, 2 layers, 4 q / 2 kv heads of 128, FFN 512, vocab 1000,
  // rope_theta 1e6, eps 1e-6, tied embeddings, 1024 positions.
  static Qwen3Config Tiny();
  // The Qwen/Qwen3-0.6B layout (28 layers, hidden 1024, 16 q / 8 kv heads, vocab 151936).
  static Qwen3Config Qwen3_0_6B();

  // Checks that sizes are positive and heads divide evenly; InvalidArgument naming the field.
  Status Validate() const;
};

// Parses config.json text; errors name `path` and the field.
StatusOr<Qwen3Config> ParseQwen3Config(const std::string& json, const std::string& path);
// Reads and parses the file at `path`.
StatusOr<Qwen3Config> ReadQwen3Config(const std::string& path);
// config.json text for `config` (architectures ["Qwen3ForCausalLM"], model_type "qwen3").
std::string Qwen3ConfigJson(const Qwen3Config& config);

// The Hugging Face shape of tensor `name` under `config`; NotFound for a name the
// architecture does not have (lm_head.weight is not part of a tied model).
StatusOr<std::vector<int64_t>> Qwen3TensorShape(const Qwen3Config& config, const std::string& name);
// Every tensor name a checkpoint of `config` must hold, in a fixed order.
std::vector<std::string> Qwen3TensorNames(const Qwen3Config& config);

// A checkpoint directory (config.json + model.safetensors or its sharded index): the config
// and its tensors, memory mapped, read by Hugging Face name with their shapes checked.
class Qwen3Checkpoint {
 public:
  // Opens `dir`: parses config.json, maps the safetensors files and checks that every tensor
  // of the architecture is present with its shape. A missing directory is one line saying
  // where to put a checkpoint.
  static StatusOr<std::unique_ptr<Qwen3Checkpoint>> Open(const std::string& dir);

  // The parsed configuration.
  const Qwen3Config& config() const { return config_; }
  // The directory this was opened from.
  const std::string& dir() const { return dir_; }
  // Tensor `name` as floats (row-major HF layout), its shape checked against the config.
  StatusOr<std::vector<float>> Tensor(const std::string& name) const;
  // Rows [row, row + rows) of 2-D tensor `name` as floats (an embedding row, a slice of the
  // LM head), the shape checked as for Tensor.
  StatusOr<std::vector<float>> TensorRows(const std::string& name, int64_t row,
                                          int64_t rows) const;
  // The underlying tensor files, for callers that need raw dtype/bytes.
  const SafetensorsSet& tensors() const { return *tensors_; }

 private:
  Qwen3Checkpoint(std::string dir, Qwen3Config config, std::unique_ptr<SafetensorsSet> tensors)
      : dir_(std::move(dir)), config_(std::move(config)), tensors_(std::move(tensors)) {}

  std::string dir_;
  Qwen3Config config_;
  std::unique_ptr<SafetensorsSet> tensors_;
};

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_QWEN3_CONFIG_H_
