#include "workloads/models/tiny_checkpoint.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <filesystem>
#include <system_error>

#include "base/strings.h"
#include "workloads/models/tiny_tokenizer.h"

namespace otpu::models {

Status WriteQwen3Checkpoint(const std::string& dir, const Qwen3Weights& weights, Dtype dtype,
                            int shards) {
  const Qwen3Config& c = weights.config;
  RETURN_IF_ERROR(c.Validate().WithContext(dir));
  if (shards < 1) return InvalidArgument(StrFormat("shards = %d: must be at least 1", shards));
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Internal(dir + ": cannot create directory: " + ec.message());

  const std::vector<std::string> names = Qwen3TensorNames(c);
  std::vector<TensorToWrite> tensors;
  for (const std::string& name : names) {
    const std::vector<float>* t = weights.Find(name);
    ASSIGN_OR_RETURN(std::vector<int64_t> shape, Qwen3TensorShape(c, name));
    if (t == nullptr) return InvalidArgument(dir + ": weights lack tensor " + name);
    tensors.push_back({name, dtype, shape, *t});
  }
  RETURN_IF_ERROR(WriteFileAtomic(dir + "/config.json", Qwen3ConfigJson(c)));
  if (shards == 1) return WriteSafetensors(dir + "/model.safetensors", tensors);

  // Sharded: consecutive runs of tensors, one file each, then the index naming them.
  rapidjson::StringBuffer sb;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(sb);
  w.SetIndent(' ', 2);
  w.StartObject();
  w.Key("metadata");
  w.StartObject();
  uint64_t total = 0;
  for (const auto& t : tensors) total += t.values.size() * DtypeSize(dtype);
  w.Key("total_size");
  w.Uint64(total);
  w.EndObject();
  w.Key("weight_map");
  w.StartObject();
  const size_t per = (tensors.size() + size_t(shards) - 1) / size_t(shards);
  for (int s = 0; s < shards; ++s) {
    const std::string file = StrFormat("model-%05d-of-%05d.safetensors", s + 1, shards);
    const size_t begin = std::min(tensors.size(), size_t(s) * per);
    const size_t end = std::min(tensors.size(), begin + per);
    const std::vector<TensorToWrite> part(tensors.begin() + long(begin),
                                          tensors.begin() + long(end));
    RETURN_IF_ERROR(WriteSafetensors(dir + "/" + file, part));
    for (const auto& t : part) {
      w.Key(t.name.c_str());
      w.String(file.c_str());
    }
  }
  w.EndObject();
  w.EndObject();
  return WriteFileAtomic(dir + "/model.safetensors.index.json", std::string(sb.GetString()) + "\n");
}

Status WriteTinyCheckpoint(const std::string& dir, const TinyCheckpointOptions& options) {
  RETURN_IF_ERROR(options.config.Validate().WithContext(dir));
  ASSIGN_OR_RETURN(std::string tokenizer,
                   TinyTokenizerJson(options.config.vocab_size, options.string_merges));
  const Qwen3Weights weights = RandomQwen3(options.config, options.seed);
  RETURN_IF_ERROR(WriteQwen3Checkpoint(dir, weights, options.dtype, options.shards));
  return WriteFileAtomic(dir + "/tokenizer.json", tokenizer);
}

}  // namespace otpu::models
