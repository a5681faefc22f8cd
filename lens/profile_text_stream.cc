#include "lens/profile_text_stream.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstring>

#include "lens/gzip.h"

namespace otpu::lens {
namespace {

// Inflated bytes per chunk: big enough that zlib runs at full speed, small next to any profile.
constexpr size_t kChunkBytes = size_t{256} << 10;
constexpr size_t kTrustedRatio = 16;  // a larger gzip trailer size is more likely damage
// Room before an inflated chunk for the part of a number the previous chunk ended in.
constexpr size_t kCarryBytes = kMaxJsonNumberChars;

}  // namespace

struct ProfileTextStream::Inflater {
  z_stream z{};
  bool ready = false;
  ~Inflater() {
    if (ready) inflateEnd(&z);
  }
};

ProfileTextStream::ProfileTextStream(std::string_view bytes, const ReadLimits& limits)
    : in_(bytes), limits_(limits), gzip_(IsGzip(bytes)) {
  if (!gzip_) {
    size_hint_ = in_.size();
    return;
  }
  if (in_.size() >= 4) {
    const auto* p = reinterpret_cast<const uint8_t*>(in_.data() + in_.size() - 4);
    const uint64_t isize = uint64_t{p[0]} | uint64_t{p[1]} << 8 | uint64_t{p[2]} << 16 |
                           uint64_t{p[3]} << 24;
    if (isize <= kTrustedRatio * in_.size()) size_hint_ = isize;
  }
  buf_.reset(new char[kCarryBytes + kChunkBytes]);
  z_ = std::make_unique<Inflater>();
  if (inflateInit2(&z_->z, 15 + 16) != Z_OK) {  // 15 + 16: a gzip header, not zlib's
    error_ = Internal("gzip: cannot start inflating");
    done_ = true;
    return;
  }
  z_->ready = true;
}

ProfileTextStream::~ProfileTextStream() = default;

bool ProfileTextStream::InflateChunk(size_t* produced) {
  z_stream& z = z_->z;
  *produced = 0;
  while (*produced < kChunkBytes) {
    if (z.avail_in == 0 && in_pos_ < in_.size()) {
      const size_t n = std::min<size_t>(in_.size() - in_pos_, UINT_MAX);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in_.data() + in_pos_));
      z.avail_in = uInt(n);
      in_pos_ += n;
    }
    const size_t member_at = in_pos_ - z.avail_in - z.total_in;  // offset of this member
    if (z.avail_in == 0) {
      // Input used up inside a member: the file was cut (only a member's end may end it).
      error_ = DataLoss("corrupt or truncated gzip data in the member at offset " +
                        std::to_string(member_at));
      return false;
    }
    z.next_out = reinterpret_cast<Bytef*>(buf_.get() + kCarryBytes + *produced);
    z.avail_out = uInt(kChunkBytes - *produced);
    const uInt before = z.avail_out;
    const int r = inflate(&z, Z_NO_FLUSH);
    *produced += before - z.avail_out;
    if (r == Z_STREAM_END) {
      // Another member may follow, as gunzip reads them; anything else is damage.
      const size_t next = in_pos_ - z.avail_in;
      if (next == in_.size()) {
        z.avail_in = 0;
        done_ = true;  // after this chunk
        return *produced > 0;
      }
      if (!IsGzip(in_.substr(next))) {
        error_ = DataLoss("not gzip data at offset " + std::to_string(next) + " (expected 1f 8b)");
        return false;
      }
      inflateReset(&z);
      continue;
    }
    if (r != Z_OK && r != Z_BUF_ERROR) {
      error_ = DataLoss("corrupt or truncated gzip data in the member at offset " +
                        std::to_string(member_at));
      return false;
    }
  }
  return true;
}

bool ProfileTextStream::Refill() {
  if (done_ || !error_.ok()) return false;
  chunk_offset_ += uint64_t(end_ - begin_);
  begin_ = cur_ = end_;  // used up; Tell() stays right until the next chunk is in place
  if (in_number_) {
    CarryNumber();
    if (!error_.ok()) return false;
  }
  if (gzip_) {
    size_t n = 0;
    const bool more = InflateChunk(&n);
    if (!error_.ok() || (!more && n == 0)) {
      begin_ = cur_ = end_ = nullptr;
      done_ = true;
      return false;
    }
    begin_ = cur_ = buf_.get() + kCarryBytes;
    end_ = begin_ + n;
  } else {
    if (in_pos_ == in_.size()) {
      done_ = true;
      begin_ = cur_ = end_ = nullptr;
      return false;
    }
    const size_t n = std::min(kChunkBytes, in_.size() - in_pos_);
    begin_ = cur_ = in_.data() + in_pos_;
    end_ = begin_ + n;
    in_pos_ += n;
  }
  CheckChunk();
  return cur_ != end_;
}

void ProfileTextStream::CheckChunk() {
  const uint64_t n = uint64_t(end_ - begin_);
  if (chunk_offset_ + n > limits_.max_text_bytes) {
    end_ = begin_ + (limits_.max_text_bytes - chunk_offset_);
    error_ = DataLoss("the JSON text is longer than " + std::to_string(limits_.max_text_bytes) +
                      " bytes, the limit of a profile file");
    done_ = true;
  }
}

void ProfileTextStream::CarryNumber() {
  const size_t n = size_t(chunk_offset_ - number_at_);  // its characters so far
  if (n > kMaxJsonNumberChars) {
    NumberTooLong();
    return;
  }
  // Plain text is one piece already; an inflated chunk is overwritten by the next one.
  if (!gzip_) return;
  char* to = buf_.get() + kCarryBytes - n;
  std::memmove(to, number_, n);
  number_ = to;
}

void ProfileTextStream::NumberTooLong() {
  if (!error_.ok()) return;
  error_ = DataLoss("invalid JSON at byte " + std::to_string(number_at_) +
                    ": number longer than " + std::to_string(kMaxJsonNumberChars) +
                    " characters");
  // The text ends here for the parser: nothing after the number is read.
  done_ = true;
  chunk_offset_ = Tell();
  begin_ = cur_ = end_ = nullptr;
}

}  // namespace otpu::lens
