// SafetensorsSet: one model.safetensors or a sharded model.safetensors.index.json.
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <sys/stat.h>

#include "base/strings.h"
#include "workloads/models/safetensors.h"
#include "base/json.h"

namespace otpu::models {
namespace {

bool Exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string DirOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

StatusOr<std::unique_ptr<SafetensorsSet>> SafetensorsSet::OpenDir(const std::string& dir) {
  const std::string single = dir + "/model.safetensors";
  if (Exists(single)) return OpenFile(single);
  const std::string index = dir + "/model.safetensors.index.json";
  if (Exists(index)) return OpenIndex(index);
  return NotFound(dir + ": no model.safetensors or model.safetensors.index.json");
}

StatusOr<std::unique_ptr<SafetensorsSet>> SafetensorsSet::OpenFile(const std::string& path) {
  ASSIGN_OR_RETURN(auto file, SafetensorsFile::Open(path));
  std::unique_ptr<SafetensorsSet> set(new SafetensorsSet(path));
  for (const auto& [name, info] : file->tensors()) set->owner_[name] = file.get();
  set->files_.push_back(std::move(file));
  return set;
}

StatusOr<std::unique_ptr<SafetensorsSet>> SafetensorsSet::OpenIndex(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  rapidjson::Document doc;
  RETURN_IF_ERROR(ParseJson(text, path, &doc));
  if (!doc.IsObject() || !doc.HasMember("weight_map") || !doc["weight_map"].IsObject()) {
    return DataLoss(path + ": no weight_map object");
  }
  std::unique_ptr<SafetensorsSet> set(new SafetensorsSet(path));
  std::map<std::string, const SafetensorsFile*> shards;  // shard file name -> opened file
  const std::string dir = DirOf(path);
  for (auto it = doc["weight_map"].MemberBegin(); it != doc["weight_map"].MemberEnd(); ++it) {
    const std::string name = it->name.GetString();
    if (!it->value.IsString()) return DataLoss(path + ": weight_map." + name + " is not a string");
    const std::string shard = it->value.GetString();
    if (shard.empty() || shard.find('/') != std::string::npos) {
      return DataLoss(path + ": weight_map." + name + ": bad shard name '" + shard + "'");
    }
    auto found = shards.find(shard);
    if (found == shards.end()) {
      auto file = SafetensorsFile::Open(dir + "/" + shard);
      if (!file.ok()) return file.status().WithContext(path + ": shard of " + name);
      found = shards.emplace(shard, file->get()).first;
      set->files_.push_back(std::move(file).value());
    }
    if (found->second->Find(name) == nullptr) {
      return NotFound(path + ": tensor " + name + " is not in its shard " + found->second->path());
    }
    set->owner_[name] = found->second;
  }
  return set;
}

std::vector<std::string> SafetensorsSet::Names() const {
  std::vector<std::string> names;
  names.reserve(owner_.size());
  for (const auto& [name, file] : owner_) names.push_back(name);
  return names;
}

const SafetensorsFile* SafetensorsSet::FileOf(const std::string& name) const {
  auto it = owner_.find(name);
  return it == owner_.end() ? nullptr : it->second;
}

const TensorInfo* SafetensorsSet::Find(const std::string& name) const {
  const SafetensorsFile* file = FileOf(name);
  return file == nullptr ? nullptr : file->Find(name);
}

StatusOr<std::vector<float>> SafetensorsSet::ReadFloat(
    const std::string& name, std::span<const int64_t> expected_shape) const {
  const SafetensorsFile* file = FileOf(name);
  if (file == nullptr) return NotFound(source_ + ": missing tensor " + name);
  return file->ReadFloat(name, expected_shape);
}

StatusOr<std::vector<float>> SafetensorsSet::ReadFloatRows(
    const std::string& name, int64_t row, int64_t rows,
    std::span<const int64_t> expected_shape) const {
  const SafetensorsFile* file = FileOf(name);
  if (file == nullptr) return NotFound(source_ + ": missing tensor " + name);
  return file->ReadFloatRows(name, row, rows, expected_shape);
}

}  // namespace otpu::models
