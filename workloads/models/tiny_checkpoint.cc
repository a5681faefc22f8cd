#include "workloads/models/tiny_checkpoint.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <filesystem>
#include <system_error>

#include "base/strings.h"
#include "workloads/models/tiny_tokenizer.h"

namespace otpu::models {

namespace {

// A checkpoint's files: consecutive runs of tensors, one file each (model.safetensors when
// there is one).
struct Shard {
  std::string file;
  size_t begin = 0, end = 0;  // tensors [begin, end)
};

std::vector<Shard> ShardsOf(size_t tensors, int shards) {
  if (shards == 1) return {{"model.safetensors", 0, tensors}};
  std::vector<Shard> out;
  const size_t per = (tensors + size_t(shards) - 1) / size_t(shards);
  for (int s = 0; s < shards; ++s) {
    const size_t begin = std::min(tensors, size_t(s) * per);
    out.push_back({StrFormat("model-%05d-of-%05d.safetensors", s + 1, shards), begin,
                   std::min(tensors, begin + per)});
  }
  return out;
}

// model.safetensors.index.json of `shards` holding `specs`.
std::string IndexJson(const std::vector<TensorSpec>& specs, const std::vector<Shard>& shards) {
  rapidjson::StringBuffer sb;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(sb);
  w.SetIndent(' ', 2);
  w.StartObject();
  w.Key("metadata");
  w.StartObject();
  uint64_t total = 0;
  for (const TensorSpec& t : specs) {
    uint64_t n = 1;
    for (int64_t d : t.shape) n *= uint64_t(d);
    total += n * DtypeSize(t.dtype);
  }
  w.Key("total_size");
  w.Uint64(total);
  w.EndObject();
  w.Key("weight_map");
  w.StartObject();
  for (const Shard& s : shards) {
    for (size_t i = s.begin; i < s.end; ++i) {
      w.Key(specs[i].name.c_str());
      w.String(s.file.c_str());
    }
  }
  w.EndObject();
  w.EndObject();
  return std::string(sb.GetString()) + "\n";
}

Status Prepare(const std::string& dir, const Qwen3Config& c, int shards) {
  RETURN_IF_ERROR(c.Validate().WithContext(dir));
  if (shards < 1) return InvalidArgument(StrFormat("shards = %d: must be at least 1", shards));
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Internal(dir + ": cannot create directory: " + ec.message());
  return OkStatus();
}

std::vector<TensorSpec> SpecsOf(const Qwen3Config& c, Dtype dtype) {
  std::vector<TensorSpec> specs;
  for (const std::string& name : Qwen3TensorNames(c)) {
    specs.push_back({name, dtype, Qwen3TensorShape(c, name).value()});
  }
  return specs;
}

}  // namespace

Status WriteQwen3Checkpoint(const std::string& dir, const Qwen3Weights& weights, Dtype dtype,
                            int shards) {
  const Qwen3Config& c = weights.config;
  RETURN_IF_ERROR(Prepare(dir, c, shards));
  const std::vector<TensorSpec> specs = SpecsOf(c, dtype);
  std::vector<TensorToWrite> tensors;
  for (const TensorSpec& spec : specs) {
    const std::vector<float>* t = weights.Find(spec.name);
    if (t == nullptr) return InvalidArgument(dir + ": weights lack tensor " + spec.name);
    tensors.push_back({spec.name, dtype, spec.shape, *t});
  }
  RETURN_IF_ERROR(WriteFileAtomic(dir + "/config.json", Qwen3ConfigJson(c)));
  const std::vector<Shard> files = ShardsOf(tensors.size(), shards);
  for (const Shard& s : files) {
    const std::vector<TensorToWrite> part(tensors.begin() + long(s.begin),
                                          tensors.begin() + long(s.end));
    RETURN_IF_ERROR(WriteSafetensors(dir + "/" + s.file, part));
  }
  if (shards == 1) return OkStatus();
  return WriteFileAtomic(dir + "/model.safetensors.index.json", IndexJson(specs, files));
}

Status WriteTinyCheckpoint(const std::string& dir, const TinyCheckpointOptions& options) {
  const Qwen3Config& c = options.config;
  RETURN_IF_ERROR(Prepare(dir, c, options.shards));
  ASSIGN_OR_RETURN(std::string tokenizer, TinyTokenizerJson(c.vocab_size, options.string_merges));
  const std::vector<TensorSpec> specs = SpecsOf(c, options.dtype);
  int64_t total = 0;
  for (const TensorSpec& t : specs) {
    int64_t n = 1;
    for (int64_t d : t.shape) n *= d;
    total += n;
  }
  RETURN_IF_ERROR(WriteFileAtomic(dir + "/config.json", Qwen3ConfigJson(c)));
  const std::vector<Shard> files = ShardsOf(specs.size(), options.shards);
  // The shard being written, opened when its first tensor comes (or an empty one is passed).
  size_t shard = 0, tensor = 0;
  std::unique_ptr<SafetensorsWriter> writer;
  auto open_through = [&](size_t t) -> Status {
    while (writer == nullptr || t >= files[shard].end) {
      if (writer != nullptr) {
        RETURN_IF_ERROR(writer->Finish());
        writer.reset();
        ++shard;
      }
      if (shard == files.size()) return OkStatus();
      const Shard& s = files[shard];
      ASSIGN_OR_RETURN(writer, SafetensorsWriter::Create(
                                   dir + "/" + s.file,
                                   std::vector<TensorSpec>(specs.begin() + long(s.begin),
                                                           specs.begin() + long(s.end))));
    }
    return OkStatus();
  };
  int64_t done = 0;
  RETURN_IF_ERROR(GenerateRandomQwen3(
      c, options.seed, size_t{1} << 20,
      [&](const std::string& name, const std::vector<int64_t>&, int64_t offset,
          std::span<const float> values) -> Status {
        while (tensor < specs.size() && specs[tensor].name != name) ++tensor;  // empty ones
        (void)offset;
        RETURN_IF_ERROR(open_through(tensor));
        RETURN_IF_ERROR(writer->Write(values));
        done += int64_t(values.size());
        if (options.progress) options.progress(name, done, total);
        return OkStatus();
      }));
  RETURN_IF_ERROR(open_through(specs.size()));  // finishes the last shard and any empty ones
  if (options.shards > 1) {
    RETURN_IF_ERROR(
        WriteFileAtomic(dir + "/model.safetensors.index.json", IndexJson(specs, files)));
  }
  return WriteFileAtomic(dir + "/tokenizer.json", tokenizer);
}

}  // namespace otpu::models
