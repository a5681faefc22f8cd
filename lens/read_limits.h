// The limits of reading a profile file (docs/profile.md, "Limits"), and the RapidJSON handler
// that enforces the element counts while the text is parsed: a 2 MB gzip file can hold an
// array of 10^9 zeros, which must be refused before it is built, not after.
#ifndef OTPU_LENS_READ_LIMITS_H_
#define OTPU_LENS_READ_LIMITS_H_

#include <rapidjson/reader.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace otpu::lens {

// Bytes of JSON text a file may inflate to (4 GiB); the writer's largest profiles are far below.
inline constexpr uint64_t kMaxProfileTextBytes = uint64_t{4} << 30;
// Elements of one array: instruction rows of a profile, windows of a bucket column, program
// rows, sources, notes. 2^24 rows is 16.7 M instructions; 2^24 windows of the default 64
// cycles is 10^9 cycles.
inline constexpr uint64_t kMaxArrayElements = uint64_t{1} << 24;
// Values (numbers, strings, booleans, nulls, containers) of the whole file: what bounds the
// memory a read takes (tens of bytes a value at most, see docs/profile.md).
inline constexpr uint64_t kMaxProfileValues = uint64_t{1} << 27;

// The limits one read applies; tests lower them to exercise them on small files.
struct ReadLimits {
  uint64_t max_text_bytes = kMaxProfileTextBytes;
  uint64_t max_array_elements = kMaxArrayElements;
  uint64_t max_values = kMaxProfileValues;
};

// A RapidJSON handler that counts the elements of every open array and all values, stops the
// parse past ReadLimits (error() says which limit), and otherwise forwards to `inner`
// (borrowed).
template <typename Handler>
class JsonLimitGuard {
 public:
  JsonLimitGuard(Handler* inner, const ReadLimits& limits) : h_(*inner), limits_(limits) {}
  // Why the parse was stopped; empty when it was not.
  const std::string& error() const { return error_; }

  bool Null() { return Value() && h_.Null(); }
  bool Bool(bool b) { return Value() && h_.Bool(b); }
  bool Int(int i) { return Value() && h_.Int(i); }
  bool Uint(unsigned u) { return Value() && h_.Uint(u); }
  bool Int64(int64_t i) { return Value() && h_.Int64(i); }
  bool Uint64(uint64_t u) { return Value() && h_.Uint64(u); }
  bool Double(double d) { return Value() && h_.Double(d); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool copy) {
    return Value() && h_.RawNumber(s, n, copy);
  }
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    return Value() && h_.String(s, n, copy);
  }
  bool StartObject() {
    if (!Value()) return false;
    open_.push_back(kObject);
    return h_.StartObject();
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) { return h_.Key(s, n, copy); }
  bool EndObject(rapidjson::SizeType members) {
    open_.pop_back();
    return h_.EndObject(members);
  }
  bool StartArray() {
    if (!Value()) return false;
    open_.push_back(0);
    return h_.StartArray();
  }
  bool EndArray(rapidjson::SizeType elements) {
    open_.pop_back();
    return h_.EndArray(elements);
  }

 private:
  static constexpr uint64_t kObject = UINT64_MAX;  // an open object, not counted

  // Counts one value; false (and error_ set) past a limit. Inlined: it runs for every value.
  [[gnu::always_inline]] bool Value() {
    if (++values_ > limits_.max_values) {
      error_ = "more than " + std::to_string(limits_.max_values) +
               " values, the limit of a profile file";
      return false;
    }
    if (!open_.empty() && open_.back() != kObject &&
        ++open_.back() > limits_.max_array_elements) {
      error_ = "an array of more than " + std::to_string(limits_.max_array_elements) +
               " elements, the limit of a profile file";
      return false;
    }
    return true;
  }

  Handler& h_;
  ReadLimits limits_;
  std::vector<uint64_t> open_;  // per open container: elements so far, or kObject
  uint64_t values_ = 0;
  std::string error_;
};

}  // namespace otpu::lens

#endif  // OTPU_LENS_READ_LIMITS_H_
