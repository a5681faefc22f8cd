#include "workloads/models/model_source.h"

namespace otpu::models {

StatusOr<ModelSource> LoadModel(const std::string& model) {
  ModelSource src;
  src.name = model;
  if (model == kQwenTinyName) {
    src.weights = std::make_shared<const Qwen3Weights>(
        RandomQwen3(Qwen3Config::Tiny(), kQwenTinySeed));
    src.source = std::make_shared<const ResidentQwen3>(src.weights);
    return src;
  }
  src.dir = model == kQwenName ? kDefaultCheckpointDir : model;
  ASSIGN_OR_RETURN(std::unique_ptr<Qwen3Checkpoint> ckpt, Qwen3Checkpoint::Open(src.dir));
  ASSIGN_OR_RETURN(Qwen3Weights w, LoadQwen3Weights(*ckpt));
  src.weights = std::make_shared<const Qwen3Weights>(std::move(w));
  src.source = std::make_shared<const ResidentQwen3>(src.weights);
  return src;
}

StatusOr<ModelSource> OpenModel(const std::string& model) {
  if (model == kQwenTinyName) return LoadModel(model);
  ModelSource src;
  src.name = model;
  src.dir = model == kQwenName ? kDefaultCheckpointDir : model;
  ASSIGN_OR_RETURN(std::unique_ptr<Qwen3Checkpoint> ckpt, Qwen3Checkpoint::Open(src.dir));
  src.source = std::make_shared<const CheckpointQwen3>(std::move(ckpt));
  return src;
}

}  // namespace otpu::models
