// The one JSON parse every reader of an untrusted file goes through (profiles, config.json,
// tokenizer.json, safetensors headers and indices): RapidJSON with a guard that refuses
// nesting deeper than kMaxJsonDepth (RapidJSON's recursive parser and Document destructor
// would otherwise overflow the stack on `[[[[...`) and duplicate keys in an object (which
// readers would resolve differently: RapidJSON's FindMember takes the first, a browser's
// JSON.parse the last). docs/profile.md and docs/models.md list the limits.
#ifndef OTPU_BASE_JSON_H_
#define OTPU_BASE_JSON_H_

#include <rapidjson/document.h>
#include <rapidjson/reader.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "base/status.h"

namespace otpu {

// Containers (arrays and objects) open at once, at most. Every file we read needs under 10.
inline constexpr int kMaxJsonDepth = 128;

// What the guard saw: why it stopped a parse (empty when it did not).
class JsonGuardState {
 public:
  // False (and the reason kept) when one more container would be too deep.
  bool Open(bool object);
  void Close();
  // False (and the reason kept) when the open object already has `key`, or `key` holds a NUL.
  bool Key(std::string_view key);
  // False (and the reason kept) when NUL is refused in strings and `s` holds one.
  bool String(std::string_view s);
  // Refuse NUL in string values too (keys never take one): for files whose strings are names.
  void set_refuse_nul_strings(bool refuse) { refuse_nul_strings_ = refuse; }
  const std::string& error() const { return error_; }

 private:
  struct Frame {
    size_t first = 0;  // index of the frame's first key in keys_
    bool object = false;
    std::unique_ptr<std::unordered_set<std::string>> big;  // once the object has many keys
  };
  std::vector<Frame> frames_;
  std::vector<std::string> keys_;  // keys of the open objects, innermost last
  std::string error_;
  bool refuse_nul_strings_ = false;
};

// A RapidJSON handler that checks depth and duplicate keys, then forwards to `inner`
// (borrowed).
template <typename Handler>
class JsonGuard {
 public:
  explicit JsonGuard(Handler* inner) : h_(*inner) {}
  const JsonGuardState& state() const { return state_; }
  JsonGuardState& state() { return state_; }

  bool Null() { return h_.Null(); }
  bool Bool(bool b) { return h_.Bool(b); }
  bool Int(int i) { return h_.Int(i); }
  bool Uint(unsigned u) { return h_.Uint(u); }
  bool Int64(int64_t i) { return h_.Int64(i); }
  bool Uint64(uint64_t u) { return h_.Uint64(u); }
  bool Double(double d) { return h_.Double(d); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) {
    return h_.RawNumber(s, n, copy);
  }
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    return state_.String(std::string_view(s, n)) && h_.String(s, n, copy);
  }
  bool StartObject() {
    return state_.Open(true) && h_.StartObject();
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) {
    return state_.Key(std::string_view(s, n)) && h_.Key(s, n, copy);
  }
  bool EndObject(rapidjson::SizeType members) {
    state_.Close();
    return h_.EndObject(members);
  }
  bool StartArray() { return state_.Open(false) && h_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) {
    state_.Close();
    return h_.EndArray(elements);
  }

 private:
  Handler& h_;
  JsonGuardState state_;
};

// The longest number token a file may hold. RapidJSON's full-precision strtod (1.1.0) reads
// out of bounds on numbers with hundreds of digits; the project writes at most 25 characters.
inline constexpr size_t kMaxJsonNumberChars = 64;

// The decimal exponent past which a number is refused before a full-precision parse: RapidJSON
// 1.1.0's full-precision strtod reads out of bounds when a number's scaled exponent falls
// below -348 (a fuzzed `0.0000003333333333333332e-0333`). Every double but subnormals below
// 1e-320 fits; a project file never holds one.
inline constexpr int64_t kMaxJsonDecimalExponent = 320;

// The byte offset of the first number (outside strings) whose magnitude, 10^k, has |k| past
// kMaxJsonDecimalExponent (a zero with such an exponent too), or npos.
size_t FindOutOfRangeJsonNumber(std::string_view text);

// The byte offset of the first number (outside strings) longer than kMaxJsonNumberChars,
// or npos. Run before a full-precision parse.
size_t FindOverlongJsonNumber(std::string_view text);

// DataLoss "<what>: invalid JSON at byte N: number longer than 64 characters" when `text`
// holds one (FindOverlongJsonNumber), or "...: number beyond 1e320 or below 1e-320"
// (FindOutOfRangeJsonNumber); OK otherwise.
Status CheckJsonNumbers(std::string_view text, const std::string& what);

// DataLoss "<what>: invalid JSON at byte N: <reason>" (the app's wording) for a failed parse: the guard's reason when it
// stopped the parse, else RapidJSON's.
Status JsonParseError(const std::string& what, const rapidjson::ParseResult& result,
                      const JsonGuardState& guard);

// How ParseJson reads beyond RapidJSON's defaults (no NaN, no comments, nothing after the
// value).
struct JsonParseOptions {
  bool full_precision = false;  // exact doubles (after CheckJsonNumbers, which it runs)
  bool validate_utf8 = false;   // refuse invalid UTF-8 in strings and keys
  bool refuse_nul_strings = false;  // refuse NUL in string values (keys never take one)
};

// Parses `text` into `doc` through the guard. DataLoss naming `what` (the file, maybe with the
// part of it) when the text is not JSON, too deep, has a duplicate key or a NUL in a key, or
// breaks one of `opts`.
Status ParseJson(std::string_view text, const std::string& what, rapidjson::Document* doc,
                 const JsonParseOptions& opts = {});

// ParseJson with every option on: for the small files a run is judged by (regression matrices,
// baselines, results, indices), where anything unusual is a damaged file.
Status ParseStrictJson(std::string_view text, const std::string& what, rapidjson::Document* doc);

}  // namespace otpu

#endif  // OTPU_BASE_JSON_H_
