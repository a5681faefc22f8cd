// The workload of a card recording (SPEC 9): a Hugging Face checkpoint's decode over a prompt
// (tokenized with the chat template, or given as ids), the positions before --pos prefilled
// untraced and --tokens positions from --pos traced, one profile each. The same run goes to a
// card or the board model, so the two can be compared.
#ifndef OTPU_WORKLOADS_MODELS_CHECKPOINT_RUN_H_
#define OTPU_WORKLOADS_MODELS_CHECKPOINT_RUN_H_

#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/models/qwen3_formats.h"
#include "workloads/workload.h"

namespace otpu::models {

struct CheckpointRequest {
  std::string model;                    // --model: a checkpoint directory (or qwen-tiny)
  std::string prompt;                   // --prompt, wrapped in the chat template
  std::optional<std::vector<int>> ids;  // --prompt-ids: no tokenizer
  int pos = -1;                         // --pos; -1: the last prompt token
  int tokens = 1;                       // --tokens
  WeightFormats formats;        // --wformat, --head-format
};

// Parses --prompt-ids ("1,42,7"): InvalidArgument naming --prompt-ids for an empty list, a
// non-number or a negative id.
StatusOr<std::vector<int>> ParsePromptIds(const std::string& text);

// Loads the checkpoint and builds its decode for `hw` with positions pos .. pos + tokens - 1
// traced. NotFound for a missing checkpoint (the loader's line naming the directory);
// InvalidArgument naming --prompt-ids for an id past the vocabulary, --pos for a position
// past the KV cache. 4-bit matrices are quantized through the image cache.
StatusOr<workloads::WorkloadRun> MakeCheckpointRun(const CheckpointRequest& req,
                                                   const isa::Config& hw);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_CHECKPOINT_RUN_H_
