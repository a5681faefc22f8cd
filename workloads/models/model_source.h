// The models the command lines name: `qwen-tiny` (the spec's random Qwen3, seed 0), `qwen`
// (the checkpoint in models/Qwen3-0.6B), or the path of a Hugging Face checkpoint directory.
#ifndef OTPU_WORKLOADS_MODELS_MODEL_SOURCE_H_
#define OTPU_WORKLOADS_MODELS_MODEL_SOURCE_H_

#include <cstdint>
#include <memory>
#include <string>

#include "base/status.h"
#include "workloads/models/qwen3_weights.h"

namespace otpu::models {

inline constexpr char kQwenTinyName[] = "qwen-tiny";
inline constexpr uint32_t kQwenTinySeed = 0;
inline constexpr char kQwenName[] = "qwen";
// Where `qwen` looks for its checkpoint (relative to the working directory; SPEC 9).
inline constexpr char kDefaultCheckpointDir[] = "models/Qwen3-0.6B";
// The prompt of a checkpoint's workload, in the Qwen chat template (SPEC 9's --prompt default).
inline constexpr char kDefaultPrompt[] = "What is the capital of France?";

// A loaded model and where it came from.
struct ModelSource {
  std::string name;  // as given
  std::string dir;   // checkpoint directory; empty for qwen-tiny
  std::shared_ptr<const Qwen3Weights> weights;  // LoadModel's; null from OpenModel
  // The model's tensors: the weights above, or (OpenModel) the checkpoint read on demand.
  std::shared_ptr<const Qwen3TensorSource> source;
};

// Loads `model`: qwen-tiny, qwen, or a checkpoint directory. A missing directory is the
// checkpoint loader's one-line NotFound saying where to put a checkpoint.
StatusOr<ModelSource> LoadModel(const std::string& model);
// Opens `model` as LoadModel does, but a checkpoint's tensors stay in its files, read tensor by
// tensor through `source` (qwen-tiny is generated, and resident). Errors as LoadModel's.
StatusOr<ModelSource> OpenModel(const std::string& model);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_MODEL_SOURCE_H_
