// otpu-lock --prebuild: quantizes a run's 4-bit weights into the image cache before the lock
// is taken, by running the prebuild program at nice 19.
#ifndef OTPU_HOST_LOCK_PREBUILD_H_
#define OTPU_HOST_LOCK_PREBUILD_H_

#include <string>

#include "base/status.h"

namespace otpu::host {

// Names the prebuild program when set; else otpu-prebuild beside the running executable.
inline constexpr char kPrebuildEnv[] = "OTPU_PREBUILD";

// One --prebuild request, MODEL:WF:HF.
struct PrebuildSpec {
  std::string model;          // short name or checkpoint path (may itself contain ':')
  std::string weight_format;  // layer weights: int8, int4, fp4 or mix
  std::string head_format;    // head weights: int8, int4, fp4, or - for the default
  // Back to "MODEL:WF:HF".
  std::string ToString() const { return model + ":" + weight_format + ":" + head_format; }
};

// Parses MODEL:WF:HF, splitting at the last two colons. InvalidArgument naming the text and
// the field when it is malformed.
StatusOr<PrebuildSpec> ParsePrebuildSpec(const std::string& text);

// Checks --config up front (a bad one would only fail each prebuild and let the
// command run): InvalidArgument naming the option and the valid configurations.
Status ValidatePrebuildConfig(const std::string& cfg);

// `spec` with the default model name (`qwen`) replaced by the checkpoint directory found
// beside this executable or in the source tree (model_dir.h); NotFound saying where it looked.
StatusOr<PrebuildSpec> ResolvePrebuildModel(PrebuildSpec spec);

// The prebuild program to run: $OTPU_PREBUILD, else otpu-prebuild in this executable's directory.
std::string PrebuildProgram();

// Runs `program MODEL:WF:HF [--config CFG]` at nice 19 and waits. An error names the program
// and says whether it could not start or how it exited.
Status RunPrebuild(const std::string& program, const PrebuildSpec& spec, const std::string& cfg);

}  // namespace otpu::host

#endif  // OTPU_HOST_LOCK_PREBUILD_H_
