#include "base/json.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>

#include <algorithm>

namespace otpu {
namespace {

// Objects with more keys than this get a hash set (tokenizer.json's vocab has 151k keys);
// smaller ones are searched in place, which is faster for the profile's many tiny objects.
constexpr size_t kLinearKeys = 16;

}  // namespace

bool JsonGuardState::Open(bool object) {
  if (frames_.size() >= size_t(kMaxJsonDepth)) {
    error_ = "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    return false;
  }
  Frame& f = frames_.emplace_back();
  f.first = keys_.size();
  f.object = object;
  return true;
}

void JsonGuardState::Close() {
  if (frames_.empty()) return;
  keys_.resize(frames_.back().first);
  frames_.pop_back();
}

bool JsonGuardState::String(std::string_view s) {
  if (refuse_nul_strings_ && s.find('\0') != std::string_view::npos) {
    error_ = "NUL inside a string";
    return false;
  }
  return true;
}

bool JsonGuardState::Key(std::string_view key) {
  if (key.find('\0') != std::string_view::npos) {
    error_ = "NUL inside a key";
    return false;
  }
  if (frames_.empty()) return true;
  Frame& f = frames_.back();
  bool fresh = true;
  if (f.big) {
    fresh = f.big->emplace(key).second;
  } else {
    for (size_t i = f.first; i < keys_.size() && fresh; ++i) fresh = keys_[i] != key;
    if (fresh) {
      keys_.emplace_back(key);
      if (keys_.size() - f.first > kLinearKeys) {
        f.big = std::make_unique<std::unordered_set<std::string>>(keys_.begin() + f.first,
                                                                  keys_.end());
        keys_.resize(f.first);
      }
    }
  }
  if (!fresh) {
    std::string shown(key.substr(0, 64));
    error_ = "duplicate key \"" + shown + (key.size() > 64 ? "...\"" : "\"");
  }
  return fresh;
}

Status JsonParseError(const std::string& what, const rapidjson::ParseResult& result,
                      const JsonGuardState& guard) {
  const std::string reason = result.Code() == rapidjson::kParseErrorTermination &&
                                     !guard.error().empty()
                                 ? guard.error()
                                 : rapidjson::GetParseError_En(result.Code());
  return DataLoss((what.empty() ? "" : what + ": ") + "invalid JSON at byte " +
                  std::to_string(result.Offset()) + ": " + reason);
}

namespace {

bool IsNumberChar(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// The offset of the first number token (a run of number characters outside strings) for which
// `bad(token)` holds, or npos.
template <typename Bad>
size_t FindJsonNumber(std::string_view text, Bad bad) {
  bool in_string = false, escape = false;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (in_string) {
      if (escape) escape = false;
      else if (c == '\\') escape = true;
      else if (c == '"') in_string = false;
      ++i;
      continue;
    }
    if (!IsNumberChar(c)) {
      in_string = c == '"';
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < text.size() && IsNumberChar(text[i])) ++i;
    if (bad(text.substr(start, i - start))) return start;
  }
  return std::string_view::npos;
}

// The decimal exponent k of a number token's magnitude 10^k (k of its first significant digit;
// the exponent alone for a zero).
int64_t DecimalMagnitude(std::string_view token) {
  int64_t int_digits = 0, lead_frac_zeros = 0, exp = 0;
  bool nonzero = false, point = false, in_exp = false, exp_negative = false;
  for (const char d : token) {
    if (d >= '0' && d <= '9') {
      if (in_exp) {
        exp = std::min<int64_t>(exp * 10 + (d - '0'), 1000000);
      } else if (!point) {
        if (d != '0' || nonzero) {
          nonzero = true;
          ++int_digits;
        }
      } else if (!nonzero) {
        if (d == '0') ++lead_frac_zeros;
        else nonzero = true;
      }
    } else if (d == '.') {
      point = true;
    } else if (d == 'e' || d == 'E') {
      in_exp = true;
    } else if (in_exp) {
      exp_negative = d == '-';
    }
  }
  const int64_t e = exp_negative ? -exp : exp;
  if (!nonzero) return e;
  return int_digits > 0 ? int_digits - 1 + e : e - lead_frac_zeros - 1;
}

}  // namespace

size_t FindOverlongJsonNumber(std::string_view text) {
  return FindJsonNumber(text,
                        [](std::string_view token) { return token.size() > kMaxJsonNumberChars; });
}

size_t FindOutOfRangeJsonNumber(std::string_view text) {
  return FindJsonNumber(text, [](std::string_view token) {
    const int64_t k = DecimalMagnitude(token);
    return k < -kMaxJsonDecimalExponent || k > kMaxJsonDecimalExponent;
  });
}

Status CheckJsonNumbers(std::string_view text, const std::string& what) {
  const std::string prefix = (what.empty() ? "" : what + ": ") + "invalid JSON at byte ";
  if (const size_t at = FindOverlongJsonNumber(text); at != std::string_view::npos) {
    return DataLoss(prefix + std::to_string(at) + ": number longer than " +
                    std::to_string(kMaxJsonNumberChars) + " characters");
  }
  if (const size_t at = FindOutOfRangeJsonNumber(text); at != std::string_view::npos) {
    return DataLoss(prefix + std::to_string(at) + ": number beyond 1e" +
                    std::to_string(kMaxJsonDecimalExponent) + " or below 1e-" +
                    std::to_string(kMaxJsonDecimalExponent));
  }
  return OkStatus();
}

Status ParseJson(std::string_view text, const std::string& what, rapidjson::Document* doc,
                 const JsonParseOptions& opts) {
  if (opts.full_precision) RETURN_IF_ERROR(CheckJsonNumbers(text, what));
  rapidjson::ParseResult result;
  std::unique_ptr<JsonGuard<rapidjson::Document>> guard;
  auto parse = [&](rapidjson::Document& d) {
    guard = std::make_unique<JsonGuard<rapidjson::Document>>(&d);
    guard->state().set_refuse_nul_strings(opts.refuse_nul_strings);
    rapidjson::MemoryStream in(text.data(), text.size());
    rapidjson::Reader reader;
    constexpr unsigned kBase = rapidjson::kParseIterativeFlag;
    constexpr unsigned kUtf8 = rapidjson::kParseValidateEncodingFlag;
    constexpr unsigned kExact = rapidjson::kParseFullPrecisionFlag;
    if (opts.validate_utf8 && opts.full_precision) {
      result = reader.Parse<kBase | kUtf8 | kExact>(in, *guard);
    } else if (opts.validate_utf8) {
      result = reader.Parse<kBase | kUtf8>(in, *guard);
    } else if (opts.full_precision) {
      result = reader.Parse<kBase | kExact>(in, *guard);
    } else {
      result = reader.Parse<kBase>(in, *guard);
    }
    return !result.IsError();
  };
  doc->Populate(parse);
  if (result.IsError()) return JsonParseError(what, result, guard->state());
  return OkStatus();
}

Status ParseStrictJson(std::string_view text, const std::string& what, rapidjson::Document* doc) {
  JsonParseOptions opts;
  opts.full_precision = true;
  opts.validate_utf8 = true;
  opts.refuse_nul_strings = true;
  return ParseJson(text, what, doc, opts);
}

}  // namespace otpu
