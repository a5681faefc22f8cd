// The JSON text of a profile file as a RapidJSON input stream, inflated chunk by chunk while
// the parser reads it: neither the whole text nor a second copy of it is ever held, and the
// text's size is checked as it arrives (read_limits.h). The parser's number reader
// (profile_number_stream.h) marks each number, so that its text stays readable across a
// chunk's end and an overlong one is refused.
#ifndef OTPU_LENS_PROFILE_TEXT_STREAM_H_
#define OTPU_LENS_PROFILE_TEXT_STREAM_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/json.h"
#include "base/status.h"
#include "lens/read_limits.h"

namespace otpu::lens {

class ProfileTextStream {
 public:
  typedef char Ch;  // RapidJSON stream concept

  // Reads `bytes` (borrowed; gzip when they start with 1f 8b, else plain JSON text).
  ProfileTextStream(std::string_view bytes, const ReadLimits& limits);
  ~ProfileTextStream();
  ProfileTextStream(const ProfileTextStream&) = delete;
  ProfileTextStream& operator=(const ProfileTextStream&) = delete;

  // RapidJSON's read interface: the next character, '\0' at the end or after an error.
  [[gnu::always_inline]] Ch Peek() {
    if (cur_ == end_ && !Refill()) return '\0';
    return *cur_;
  }
  [[gnu::always_inline]] Ch Take() {
    const Ch c = Peek();
    if (cur_ != end_) ++cur_;
    return c;
  }
  // Text bytes taken so far.
  size_t Tell() const { return size_t(chunk_offset_ + uint64_t(cur_ - begin_)); }
  // Unused write interface (RapidJSON wants it declared; only in-situ parsing calls it).
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  size_t PutEnd(Ch*) { return 0; }

  // A number starts at the current character / has just ended (the parser's number reader
  // calls these). A number longer than kMaxJsonNumberChars is an error (error()) and ends the
  // text, so the parser stops too.
  void BeginNumber() {
    number_at_ = Tell();
    number_ = cur_;
    in_number_ = true;
  }
  void EndNumber() {
    in_number_ = false;
    if (Tell() - number_at_ > kMaxJsonNumberChars) NumberTooLong();
  }
  // The number's text from its first character to the current one; empty when that is longer
  // than kMaxJsonNumberChars.
  std::string_view NumberText() const {
    const size_t n = Tell() - number_at_;
    return n <= kMaxJsonNumberChars ? std::string_view(number_, n) : std::string_view();
  }

  // The text's size as far as the input tells before reading it (the gzip trailer's size when
  // plausible); 0 when unknown. A hint for sizing, never trusted.
  uint64_t SizeHint() const { return size_hint_; }
  // DataLoss for corrupt gzip, text past the limit or an overlong number; OK otherwise. Takes
  // precedence over the parser's error, which is only the stream's sudden end.
  const Status& error() const { return error_; }

 private:
  struct Inflater;

  // Makes the next chunk current; false at the end or on an error.
  bool Refill();
  // Inflates the next chunk of gzip data into buf_; false at the end or on an error.
  bool InflateChunk(size_t* produced);
  // Checks the new chunk [begin_, end_) for size, cutting it at the limit.
  void CheckChunk();
  // Keeps the number being read readable in one piece: copies its part so far in front of
  // where the next chunk is inflated; an overlong number is an error instead.
  void CarryNumber();
  void NumberTooLong();

  std::string_view in_;
  ReadLimits limits_;
  bool gzip_ = false;
  std::unique_ptr<Inflater> z_;
  size_t in_pos_ = 0;              // next byte of in_ to use
  std::unique_ptr<char[]> buf_;    // carried number, then the inflated chunk (gzip input only)
  const char* begin_ = nullptr;    // current chunk
  const char* cur_ = nullptr;
  const char* end_ = nullptr;
  uint64_t chunk_offset_ = 0;      // text offset of begin_
  uint64_t size_hint_ = 0;
  bool done_ = false;
  Status error_;
  bool in_number_ = false;         // between BeginNumber and EndNumber
  uint64_t number_at_ = 0;         // text offset of the number's first character
  const char* number_ = nullptr;   // its first character, contiguous with the rest
};

}  // namespace otpu::lens

#endif  // OTPU_LENS_PROFILE_TEXT_STREAM_H_
