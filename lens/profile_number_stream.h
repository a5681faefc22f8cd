// RapidJSON's number reader over a profile's text stream. The reader parses numbers itself
// (no kParseNumbersAsStringsFlag: as text, every digit was pushed, copied and converted twice,
// half of a read's instructions); this specialization of its private NumberStream for
// ProfileTextStream adds what RapidJSON 1.1.0 lacks:
// - the number's text stays readable (ProfileTextStream::NumberText), so the handler converts
//   fractions exactly with strtod (RapidJSON's normal precision is not exact, and its full
//   precision reads out of bounds on a fuzzed `0.0000003333333333333332e-0333`);
// - a number longer than kMaxJsonNumberChars ends the text (ProfileTextStream::EndNumber, and
//   at a chunk's end), so no number runs on for more than a chunk;
// - an exponent of three or more digits is shown to RapidJSON only up to its first value of 30
//   or more (the rest is read here and kept in the text): 1.1.0 adds the exponent to the
//   fraction's digit count in an int with no overflow check (CVE-2024-38517), and a
//   positive exponent past 308 would be its error rather than the infinity strtod gives.
// Include it before any GenericReader<UTF8<>, UTF8<>, ThrowingAllocator> parses a
// ProfileTextStream (profile_json_read.cc).
#ifndef OTPU_LENS_PROFILE_NUMBER_STREAM_H_
#define OTPU_LENS_PROFILE_NUMBER_STREAM_H_

#include <rapidjson/reader.h>

#include "lens/profile_sax.h"
#include "lens/profile_text_stream.h"

namespace rapidjson {

template <>
template <>
class GenericReader<UTF8<>, UTF8<>, otpu::lens::ThrowingAllocator>::NumberStream<
    otpu::lens::ProfileTextStream, false, false> {
 public:
  typedef char Ch;

  NumberStream(GenericReader&, otpu::lens::ProfileTextStream& s) : is_(s) { is_.BeginNumber(); }
  ~NumberStream() { is_.EndNumber(); }
  NumberStream(const NumberStream&) = delete;
  NumberStream& operator=(const NumberStream&) = delete;

  RAPIDJSON_FORCEINLINE Ch Peek() const { return is_.Peek(); }
  // Digits of the integer and the fraction.
  RAPIDJSON_FORCEINLINE Ch TakePush() { return is_.Take(); }
  // The sign, '.', 'e', the exponent's sign and its digits.
  RAPIDJSON_FORCEINLINE Ch Take() {
    const Ch c = is_.Take();
    if (c == 'e' || c == 'E') {
      in_exponent_ = true;
    } else if (in_exponent_ && c >= '0' && c <= '9') {
      exponent_ = exponent_ * 10 + (c - '0');
      if (exponent_ >= 30) {
        while (is_.Peek() >= '0' && is_.Peek() <= '9') is_.Take();
      }
    }
    return c;
  }
  RAPIDJSON_FORCEINLINE void Push(char) {}
  size_t Tell() { return is_.Tell(); }
  size_t Length() { return 0; }
  const char* Pop() { return nullptr; }

 private:
  otpu::lens::ProfileTextStream& is_;
  bool in_exponent_ = false;
  int exponent_ = 0;  // the exponent's digits RapidJSON has seen, at most 299
};

}  // namespace rapidjson

#endif  // OTPU_LENS_PROFILE_NUMBER_STREAM_H_
