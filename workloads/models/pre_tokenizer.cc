#include "workloads/models/pre_tokenizer.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "base/strings.h"

namespace otpu::models {
namespace {

pcre2_code* Code(void* p) { return static_cast<pcre2_code*>(p); }

std::string TypeOf(const rapidjson::Value& v) {
  return v.IsObject() && v.HasMember("type") && v["type"].IsString() ? v["type"].GetString() : "";
}

// Frees PCRE2 match data on every path out of Split.
struct MatchData {
  explicit MatchData(pcre2_code* code) : md(pcre2_match_data_create_from_pattern(code, nullptr)) {}
  ~MatchData() { pcre2_match_data_free(md); }
  pcre2_match_data* md;
};

}  // namespace

PreTokenizer::~PreTokenizer() {
  for (void* c : codes_) pcre2_code_free(Code(c));
}

StatusOr<std::unique_ptr<PreTokenizer>> PreTokenizer::FromJson(const rapidjson::Value& value,
                                                               const std::string& path) {
  std::unique_ptr<PreTokenizer> pre(new PreTokenizer());
  if (!value.IsNull()) RETURN_IF_ERROR(pre->AddJson(value, path + ": pre_tokenizer"));
  return pre;
}

StatusOr<std::unique_ptr<PreTokenizer>> PreTokenizer::FromPattern(const std::string& pattern) {
  std::unique_ptr<PreTokenizer> pre(new PreTokenizer());
  RETURN_IF_ERROR(pre->Add(pattern, false, "pattern"));
  return pre;
}

Status PreTokenizer::AddJson(const rapidjson::Value& v, const std::string& where) {
  const std::string type = TypeOf(v);
  if (type == "Sequence") {
    if (!v.HasMember("pretokenizers") || !v["pretokenizers"].IsArray()) {
      return InvalidArgument(where + ": Sequence without a pretokenizers array");
    }
    int i = 0;
    for (const auto& step : v["pretokenizers"].GetArray()) {
      RETURN_IF_ERROR(AddJson(step, StrFormat("%s.pretokenizers[%d]", where.c_str(), i++)));
    }
    return OkStatus();
  }
  if (type == "ByteLevel") {
    // The byte mapping itself happens in the model step; only its options matter here.
    if (v.HasMember("add_prefix_space") && v["add_prefix_space"].IsTrue()) {
      return InvalidArgument(where + ": ByteLevel add_prefix_space true is not supported");
    }
    if (v.HasMember("use_regex") && v["use_regex"].IsFalse()) return OkStatus();
    return Add(kGpt2Pattern, false, where);
  }
  if (type == "Split") {
    const std::string behavior =
        v.HasMember("behavior") && v["behavior"].IsString() ? v["behavior"].GetString() : "";
    if (behavior != "Isolated") {
      return InvalidArgument(where + ": Split behavior '" + behavior +
                             "' is not supported (only Isolated)");
    }
    if (v.HasMember("invert") && v["invert"].IsTrue()) {
      return InvalidArgument(where + ": Split invert true is not supported");
    }
    if (!v.HasMember("pattern") || !v["pattern"].IsObject()) {
      return InvalidArgument(where + ": Split without a pattern");
    }
    const auto& p = v["pattern"];
    if (p.HasMember("Regex") && p["Regex"].IsString())
      return Add(p["Regex"].GetString(), false, where);
    if (p.HasMember("String") && p["String"].IsString())
      return Add(p["String"].GetString(), true, where);
    return InvalidArgument(where + ": Split pattern is neither {Regex} nor {String}");
  }
  return InvalidArgument(where + ": pre-tokenizer type '" + type + "' is not supported");
}

Status PreTokenizer::Add(const std::string& pattern, bool literal, const std::string& where) {
  int err = 0;
  PCRE2_SIZE offset = 0;
  // PCRE2_LITERAL refuses PCRE2_UCP (it has no classes to widen).
  const uint32_t options = PCRE2_UTF | (literal ? PCRE2_LITERAL : PCRE2_UCP);
  pcre2_code* code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   options, &err, &offset, nullptr);
  if (code == nullptr) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(err, msg, sizeof msg);
    return InvalidArgument(StrFormat("%s: pattern does not compile: %s at offset %zu",
                                     where.c_str(), reinterpret_cast<char*>(msg), size_t(offset)));
  }
  // Without JIT (unsupported build or platform) pcre2_match interprets: slower, same result.
  if (pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) != 0) jit_ = false;
  codes_.push_back(code);
  return OkStatus();
}

Status PreTokenizer::Split(std::string_view text, std::vector<std::string_view>* pieces) const {
  std::vector<std::string_view> cur{text}, next;
  for (void* c : codes_) {
    pcre2_code* code = Code(c);
    MatchData data(code);
    next.clear();
    for (std::string_view s : cur) {
      const auto* subject = reinterpret_cast<PCRE2_SPTR>(s.data());
      size_t start = 0, last = 0;
      while (start < s.size()) {
        const int rc =
            pcre2_match(code, subject, s.size(), start, PCRE2_NO_UTF_CHECK, data.md, nullptr);
        if (rc == PCRE2_ERROR_NOMATCH) break;
        if (rc < 0) {
          PCRE2_UCHAR msg[256];
          pcre2_get_error_message(rc, msg, sizeof msg);
          return Internal(
              StrFormat("pre-tokenizer: PCRE2 match failed: %s", reinterpret_cast<char*>(msg)));
        }
        const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(data.md);
        const size_t m0 = ov[0], m1 = ov[1];
        if (m1 == m0) {  // an empty match cuts nothing: step one code point on
          ++start;
          while (start < s.size() && (uint8_t(s[start]) & 0xC0) == 0x80) ++start;
          continue;
        }
        if (m0 > last) next.push_back(s.substr(last, m0 - last));
        next.push_back(s.substr(m0, m1 - m0));
        last = start = m1;
      }
      if (last < s.size()) next.push_back(s.substr(last));
    }
    cur.swap(next);
  }
  pieces->insert(pieces->end(), cur.begin(), cur.end());
  return OkStatus();
}

}  // namespace otpu::models
