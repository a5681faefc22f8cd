#include "host/programs/regress/cell_filter.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

namespace otpu::regress {

struct CellFilter::Code {
  pcre2_code* code = nullptr;
  pcre2_match_context* match = nullptr;
  ~Code() {
    pcre2_match_context_free(match);
    pcre2_code_free(code);
  }
};

namespace {

std::string Shown(const std::string& pattern) {
  return pattern.size() <= 60 ? pattern : pattern.substr(0, 60) + "...";
}

}  // namespace

StatusOr<CellFilter> CellFilter::Create(const std::string& pattern) {
  if (pattern.empty()) return CellFilter(pattern, nullptr);
  if (pattern.size() > kMaxOnlyChars) {
    return InvalidArgument("--only: the pattern has " + std::to_string(pattern.size()) +
                           " characters; at most " + std::to_string(kMaxOnlyChars));
  }
  pcre2_compile_context* cc = pcre2_compile_context_create(nullptr);
  pcre2_set_parens_nest_limit(cc, kMaxOnlyNesting);
  int err = 0;
  PCRE2_SIZE offset = 0;
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   0, &err, &offset, cc);
  pcre2_compile_context_free(cc);
  if (code == nullptr) {
    PCRE2_UCHAR text[256];
    pcre2_get_error_message(err, text, sizeof text);
    return InvalidArgument("--only '" + Shown(pattern) + "': not a regular expression (" +
                           reinterpret_cast<const char*>(text) + " at offset " +
                           std::to_string(offset) + ")");
  }
  auto c = std::make_shared<Code>();
  c->code = code;
  c->match = pcre2_match_context_create(nullptr);
  pcre2_set_match_limit(c->match, kMaxOnlyMatchSteps);
  pcre2_set_depth_limit(c->match, kMaxOnlyMatchSteps);
  return CellFilter(pattern, std::move(c));
}

StatusOr<bool> CellFilter::Matches(const std::string& id) const {
  if (!code_) return true;
  pcre2_match_data* md = pcre2_match_data_create_from_pattern(code_->code, nullptr);
  const int rc = pcre2_match(code_->code, reinterpret_cast<PCRE2_SPTR>(id.data()), id.size(), 0,
                             0, md, code_->match);
  pcre2_match_data_free(md);
  if (rc >= 0) return true;
  if (rc == PCRE2_ERROR_NOMATCH) return false;
  if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT) {
    return InvalidArgument("--only '" + Shown(pattern_) + "': matching '" + id + "' takes more than " +
                           std::to_string(kMaxOnlyMatchSteps) +
                           " steps (a pattern that backtracks without end?)");
  }
  PCRE2_UCHAR text[256];
  pcre2_get_error_message(rc, text, sizeof text);
  return InvalidArgument("--only '" + Shown(pattern_) + "': " + reinterpret_cast<const char*>(text));
}

}  // namespace otpu::regress
