// `otpu-regress run --baselines-at REV`: the baselines as a git revision has them, so `git
// bisect run` can judge every commit against the good commit's reviewed figures (the loop of
// docs/regress.md commits baselines together with the RTL, so each commit's own baselines
// would move with the change being hunted).
#ifndef OTPU_HOST_PROGRAMS_REGRESS_BASELINES_AT_H_
#define OTPU_HOST_PROGRAMS_REGRESS_BASELINES_AT_H_

#include <string>

#include "base/status.h"

namespace otpu::regress {

// A directory holding `dir` (a baselines directory inside a git checkout) as revision `rev`
// has it, extracted under a new temporary directory that the object removes.
class BaselinesAt {
 public:
  // InvalidArgument naming --baselines-at when `dir` is not inside a git checkout, `rev` names
  // no commit, or that commit has no `dir`; Internal when extracting fails.
  static StatusOr<BaselinesAt> Extract(const std::string& dir, const std::string& rev);
  BaselinesAt(BaselinesAt&& other) noexcept;
  BaselinesAt& operator=(BaselinesAt&&) = delete;
  ~BaselinesAt();

  // The extracted baselines directory.
  const std::string& path() const { return path_; }

 private:
  BaselinesAt(std::string root, std::string path) : root_(std::move(root)), path_(std::move(path)) {}
  std::string root_;  // the temporary directory (removed with the object)
  std::string path_;
};

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_BASELINES_AT_H_
