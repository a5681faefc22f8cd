// Where otpu-lock --prebuild finds the default checkpoint (`qwen`): in the repository or
// beside the installed data, not wherever the command happens to be started.
#ifndef OTPU_HOST_LOCK_MODEL_DIR_H_
#define OTPU_HOST_LOCK_MODEL_DIR_H_

#include <string>
#include <vector>

#include "base/status.h"

namespace otpu::host {

// The short model name that means the default checkpoint, and that checkpoint's directory
// relative to a checkout (the same as workloads/models/model_source.h, which host/ may not
// include: host sits below workloads in SPEC 2's layering).
inline constexpr char kDefaultModelName[] = "qwen";
inline constexpr char kDefaultModelSubdir[] = "models/Qwen3-0.6B";
// A source checkout to look in first.
inline constexpr char kSourceDirEnv[] = "OTPU_SOURCE_DIR";

// The places searched for kDefaultModelSubdir, in order: $OTPU_SOURCE_DIR/models/...; for the
// directory of `exe` and each parent up to /, DIR/models/... (a build tree inside a checkout)
// and DIR/share/otpu/models/... (bin/ of an install prefix); last ./models/... .
std::vector<std::string> DefaultModelCandidates(const std::string& exe);

// The first candidate that is a directory; NotFound listing every place it looked.
StatusOr<std::string> FindDefaultModelDir(const std::string& exe);

// This executable's path (/proc/self/exe); empty when it cannot be read.
std::string SelfExecutable();

}  // namespace otpu::host

#endif  // OTPU_HOST_LOCK_MODEL_DIR_H_
