// Writing checkpoint directories: any Qwen3Weights as config.json + safetensors (single or
// sharded), and the tiny random checkpoint (qwen-tiny by default) with its tokenizer.json,
// so tests and `otpu-mkcheckpoint` exercise the real loading path.
#ifndef OTPU_WORKLOADS_MODELS_TINY_CHECKPOINT_H_
#define OTPU_WORKLOADS_MODELS_TINY_CHECKPOINT_H_

#include <cstdint>
#include <functional>
#include <string>

#include "base/status.h"
#include "workloads/models/qwen3_config.h"
#include "workloads/models/qwen3_weights.h"
#include "workloads/models/safetensors.h"

namespace otpu::models {

// What WriteTinyCheckpoint writes.
struct TinyCheckpointOptions {
  Qwen3Config config = Qwen3Config::Tiny();
  uint32_t seed = 0;
  Dtype dtype = Dtype::kBF16;  // kBF16, kF16 or kF32
  int shards = 1;              // > 1: model-0000i-of-0000n.safetensors + the index
  bool string_merges = false;  // tokenizer merges as "a b" instead of ["a", "b"]
  // Called as the weights are written: the tensor being written, values written so far and
  // in all (a status line's input; may be empty).
  std::function<void(const std::string& tensor, int64_t done, int64_t total)> progress;
};

// Writes `weights` into `dir` (created with its parents): config.json and model.safetensors,
// or `shards` files plus model.safetensors.index.json. Each file is written atomically.
Status WriteQwen3Checkpoint(const std::string& dir, const Qwen3Weights& weights, Dtype dtype,
                            int shards = 1);

// Writes RandomQwen3(options.config, options.seed) and the tiny tokenizer.json into `dir`,
// tensor by tensor as they are drawn (GenerateRandomQwen3): memory stays a few megabytes
// whatever the shape. With the defaults this is the spec's qwen-tiny; loading it gives back
// exactly RandomQwen3(Qwen3Config::Tiny(), 0), and the files equal WriteQwen3Checkpoint's.
Status WriteTinyCheckpoint(const std::string& dir, const TinyCheckpointOptions& options = {});

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_TINY_CHECKPOINT_H_
