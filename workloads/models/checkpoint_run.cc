#include "workloads/models/checkpoint_run.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "base/strings.h"
#include "workloads/models/image_cache.h"
#include "workloads/models/model_source.h"
#include "workloads/models/qwen3_workload.h"
#include "workloads/models/tokenizer.h"

namespace otpu::models {

StatusOr<std::vector<int>> ParsePromptIds(const std::string& text) {
  std::vector<int> ids;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(start, comma - start);
    char* end = nullptr;
    errno = 0;
    const long v = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || errno != 0 || v < 0 || v > 0x7fffffff) {
      return InvalidArgument("--prompt-ids " + text + ": '" + item +
                             "' is not a token id (expected ids like 1,42,7)");
    }
    ids.push_back(int(v));
    start = comma + 1;
  }
  return ids;
}

namespace {

// Every defect of the checkpoint's files (config.json, tokenizer.json, the safetensors) is one
// kind of failure, DataLoss, whichever check finds it, so a bad checkpoint always gives the
// same exit code; a missing checkpoint stays NotFound (MakeCheckpointRun), and the caller's
// own options stay InvalidArgument.
Status AsBadCheckpoint(const Status& s) {
  if (s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kDataLoss ||
      s.code() == StatusCode::kNotFound) {
    return DataLoss(s.message());
  }
  return s;
}

template <typename T>
StatusOr<T> AsBadCheckpoint(StatusOr<T> v) {
  if (v.ok()) return v;
  return AsBadCheckpoint(v.status());
}

// The prompt's token ids: the given ones, checked against the vocabulary, or the tokenized
// chat prompt (qwen-tiny has no tokenizer: its own prompt).
StatusOr<std::vector<int>> PromptIds(const CheckpointRequest& req, const ModelSource& src) {
  const int vocab = src.source->config().vocab_size;
  if (req.ids) {
    for (int id : *req.ids) {
      if (id >= vocab) {
        return InvalidArgument(StrFormat("--prompt-ids: token %d is past the vocabulary of %d",
                                         id, vocab));
      }
    }
    return *req.ids;
  }
  if (src.dir.empty()) return kTinyPrompt;
  ASSIGN_OR_RETURN(auto tokenizer,
                   AsBadCheckpoint(Tokenizer::FromFile(src.dir + "/tokenizer.json")));
  return AsBadCheckpoint(tokenizer->Encode(QwenChatPrompt(req.prompt)));
}

// Profiles are named after the checkpoint's directory ("Qwen3-0.6B step 8").
std::string RunName(const std::string& model) {
  std::filesystem::path p(model);
  if (!p.has_filename()) p = p.parent_path();
  return p.filename().empty() ? model : p.filename().string();
}

}  // namespace

StatusOr<workloads::WorkloadRun> MakeCheckpointRun(const CheckpointRequest& req,
                                                   const isa::Config& hw) {
  if (req.tokens < 1) {
    return InvalidArgument(StrFormat("--tokens %d: trace at least 1 step", req.tokens));
  }
  StatusOr<ModelSource> loaded = OpenModel(req.model);
  // A checkpoint directory that is not there stays NotFound (it may not be fetched yet).
  if (!loaded.ok() && !(loaded.status().code() == StatusCode::kNotFound &&
                        !std::filesystem::is_directory(req.model))) {
    return AsBadCheckpoint(loaded.status());
  }
  ASSIGN_OR_RETURN(ModelSource src, std::move(loaded));
  Qwen3RunOptions ro;
  ASSIGN_OR_RETURN(ro.prompt, PromptIds(req, src));
  if (ro.prompt.empty()) return InvalidArgument("--prompt: the prompt has no tokens");
  const int first = req.pos >= 0 ? req.pos : int(ro.prompt.size()) - 1;
  ro.pos = first + req.tokens - 1;
  ro.engine.formats = req.formats;
  std::optional<ImageCache> cache;
  if (HasFourBit(req.formats, src.source->config().num_hidden_layers)) {
    ASSIGN_OR_RETURN(ImageCacheOptions cache_opts, ImageCacheOptionsFromEnv());
    ro.cache = &cache.emplace(cache_opts);
  }
  ASSIGN_OR_RETURN(workloads::WorkloadRun run,
                   MakeQwen3Run(RunName(req.model), *src.source, hw, ro));
  for (int i = 0; i < int(run.steps.size()); ++i) run.steps[size_t(i)].traced = i >= first;
  return run;
}

}  // namespace otpu::models
