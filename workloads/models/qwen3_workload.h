// Qwen3 decode as a workload (workloads/workload.h): the engine's image and program, one
// step per position 0..pos with the position `pos` traced, and a check of the traced step's
// logits against the float64 reference. `qwen-tiny` and `qwen` in workloads/list.cc are
// built here.
//
// Tokens: position p runs prompt[p]; past the prompt it runs the reference's greedy token of
// position p-1, so the sequence is fixed before anything runs and the accelerator and the
// reference see the same history (teacher forcing).
//
// Accuracy: relative L2 (and cosine) of the accelerator's logits against the reference's.
// The bounds per format (LogitsBound) are 1.5x the worst measured over 8 positions of 5
// random models of qwen-tiny's shape (seeds 0..4), on the sim and board configs; the numbers
// are in docs/models.md, "Weight formats".
#ifndef OTPU_WORKLOADS_MODELS_QWEN3_WORKLOAD_H_
#define OTPU_WORKLOADS_MODELS_QWEN3_WORKLOAD_H_

#include <string>
#include <vector>

#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/models/image_cache.h"
#include "workloads/models/qwen3_plan.h"
#include "workloads/models/qwen3_weights.h"
#include "workloads/workload.h"

namespace otpu::models {

// qwen-tiny's prompt (token ids; no tokenizer) and its default traced position, the last
// prompt token (SPEC 9).
inline const std::vector<int> kTinyPrompt = {1, 42, 318, 7};
inline constexpr int kTinyDefaultPos = 3;

// How MakeQwen3Run builds the steps.
struct Qwen3RunOptions {
  std::vector<int> prompt;  // token ids of positions 0.. (at least one)
  int pos = -1;             // the traced position; -1: the last prompt token
  EngineOptions engine;
  ImageCache* cache = nullptr;  // quantizes the 4-bit matrices when given
};

// Documented bound on the relative L2 error of the logits for formats `f`.
double LogitsBound(const WeightFormats& f);

// Builds the workload `name` for `w` on `hw`. InvalidArgument naming --pos when the position
// is negative or past the KV cache, or an empty prompt; the engine's errors otherwise.
StatusOr<workloads::WorkloadRun> MakeQwen3Run(const std::string& name, const Qwen3Weights& w,
                                              const isa::Config& hw,
                                              const Qwen3RunOptions& opts);
// The same from a source read tensor by tensor: the image is built a matrix at a time and the
// reference runs a layer at a time (the prompt's positions together), so the run holds the
// image and one layer's weights at most, not the model's floats.
StatusOr<workloads::WorkloadRun> MakeQwen3Run(const std::string& name, const Qwen3TensorSource& w,
                                              const isa::Config& hw,
                                              const Qwen3RunOptions& opts);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_QWEN3_WORKLOAD_H_
