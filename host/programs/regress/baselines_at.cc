#include "host/programs/regress/baselines_at.h"

#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

#include "base/subprocess.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;

// Runs `argv` and returns its stdout without the final newline; nullopt when it fails.
std::optional<std::string> Output(const std::vector<std::string>& argv) {
  SubprocessOptions o;
  o.argv = argv;
  o.out = Stream::Capture();
  o.err = Stream::Capture();
  o.timeout_s = 120;
  StatusOr<SubprocessResult> r = RunSubprocess(o);
  if (!r.ok() || !r->exited || r->exit_code != 0) return std::nullopt;
  std::string out = r->out;
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace

StatusOr<BaselinesAt> BaselinesAt::Extract(const std::string& dir, const std::string& rev) {
  const std::string what = "--baselines-at " + rev + ": ";
  // The baselines directory may be missing in the working tree; its parent holds the matrix.
  std::error_code ec;
  const fs::path abs = fs::absolute(dir, ec);
  const fs::path probe = fs::is_directory(abs, ec) ? abs : abs.parent_path();
  const std::optional<std::string> top =
      Output({"git", "-C", probe.string(), "rev-parse", "--show-toplevel"});
  if (!top) return InvalidArgument(what + dir + " is not inside a git checkout");
  if (!Output({"git", "-C", *top, "rev-parse", "--verify", "--quiet", rev + "^{commit}"})) {
    return InvalidArgument(what + "not a commit of " + *top);
  }
  const std::string rel =
      fs::weakly_canonical(abs, ec).lexically_relative(fs::weakly_canonical(*top, ec)).string();
  std::string root = (fs::temp_directory_path() / "otpu_baselines_at.XXXXXX").string();
  if (!::mkdtemp(root.data())) return Internal(what + "cannot make a temporary directory");
  BaselinesAt out(root, (fs::path(root) / rel).string());
  SubprocessOptions o;
  o.argv = {"sh", "-c", "git -C \"$1\" archive --format=tar \"$2\" -- \"$3\" | tar -x -C \"$4\"",
            "sh", *top, rev, rel, root};
  o.err = Stream::Capture();
  o.timeout_s = 300;
  StatusOr<SubprocessResult> r = RunSubprocess(o);
  if (!r.ok() || !r->exited || r->exit_code != 0 || !fs::is_directory(out.path_, ec)) {
    return InvalidArgument(what + "commit has no " + rel + " in " + *top);
  }
  return out;
}

BaselinesAt::BaselinesAt(BaselinesAt&& other) noexcept
    : root_(std::exchange(other.root_, "")), path_(std::move(other.path_)) {}

BaselinesAt::~BaselinesAt() {
  if (root_.empty()) return;
  std::error_code ignored;
  fs::remove_all(root_, ignored);
}

}  // namespace otpu::regress
