// otpu-prebuild's work (SPEC 9, otpu-lock --prebuild): quantize the 4-bit weights of a run
// into the image cache ahead of time, so the run itself only reads them back.
#ifndef OTPU_WORKLOADS_MODELS_PREBUILD_H_
#define OTPU_WORKLOADS_MODELS_PREBUILD_H_

#include <functional>
#include <string>

#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/models/image_cache.h"
#include "workloads/models/qwen3_formats.h"
#include "workloads/models/qwen3_weights.h"

namespace otpu::models {

// One MODEL:WF:HF request.
struct PrebuildRequest {
  std::string model;  // qwen-tiny, qwen or a checkpoint directory (may contain ':')
  WeightFormats formats;
};

// Parses MODEL:WF:HF, splitting at the last two colons (HF "-" = the layers' default head).
// InvalidArgument naming the text and the field.
StatusOr<PrebuildRequest> ParsePrebuildRequest(const std::string& text);
// The accelerator configuration named by --config: sim or board.
StatusOr<isa::Config> ParseHwConfig(const std::string& name);

// What a prebuild did.
struct PrebuildReport {
  int matrices = 0;   // 4-bit matrices of the run
  int cached = 0;     // already in the cache
  int quantized = 0;  // quantized and stored now
};

// Quantizes every 4-bit matrix the engine would build for `w` in `formats` on `hw` through
// `cache` (enabled). Errors name the config field or tensor; an entry that could not be
// stored is an Internal error naming it (the cache's last error).
// `progress` (may be empty) hears of each matrix as it is done: matrices done, of all the
// run's (int8 ones included), and the matrix's name.
StatusOr<PrebuildReport> Prebuild(
    const Qwen3Weights& w, const WeightFormats& formats, const isa::Config& hw, ImageCache* cache,
    const std::function<void(int done, int total, const std::string& what)>& progress = {});

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_PREBUILD_H_
