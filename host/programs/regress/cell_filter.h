// The --only pattern of otpu-regress: a PCRE2 regular expression over cell ids, bounded in size
// and in the work one match may take, because it comes from a command line (and is passed on to
// every Slurm task): a pattern nested thousands deep or one that backtracks without end must be
// a usage error, not a crash or a hang.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_CELL_FILTER_H_
#define OTPU_HOST_PROGRAMS_REGRESS_CELL_FILTER_H_

#include <memory>
#include <string>

#include "base/status.h"

namespace otpu::regress {

// The longest --only pattern, characters.
inline constexpr size_t kMaxOnlyChars = 1024;
// Parentheses nested at most (PCRE2's compile-time limit).
inline constexpr unsigned kMaxOnlyNesting = 64;
// Backtracking steps one id may take (PCRE2's match limit); ids are under 100 characters.
inline constexpr unsigned kMaxOnlyMatchSteps = 100000;

class CellFilter {
 public:
  // InvalidArgument naming --only when `pattern` is too long, too deeply nested or not a
  // regular expression. An empty pattern matches every id.
  static StatusOr<CellFilter> Create(const std::string& pattern);

  // Whether `id` matches (a search, as ECMAScript's regex_search). InvalidArgument naming
  // --only when the match needs more than kMaxOnlyMatchSteps.
  StatusOr<bool> Matches(const std::string& id) const;

 private:
  struct Code;
  explicit CellFilter(std::string pattern, std::shared_ptr<Code> code)
      : pattern_(std::move(pattern)), code_(std::move(code)) {}
  std::string pattern_;
  std::shared_ptr<Code> code_;  // null: match everything
};

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_CELL_FILTER_H_
