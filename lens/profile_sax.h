// The SAX half of reading a profile: instruction rows (`profiles[i].instrs[j]`) go straight
// into InstrRow structs and the slices' integer columns (`busy`, `lose`, every `buckets`
// column: with the rows, the bulk of a file) into plain vectors, 8 bytes a value; every other
// value goes into a RapidJSON Document (16 bytes a value and more), which stays small.
// profile_json_read.cc turns that Document into structs.
#ifndef OTPU_LENS_PROFILE_SAX_H_
#define OTPU_LENS_PROFILE_SAX_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "lens/profile.h"
#include "lens/profile_text_stream.h"

namespace otpu::lens {

// RapidJSON's CrtAllocator returns null when malloc fails, and RapidJSON then writes through
// it (SIGSEGV under a memory limit); this one throws std::bad_alloc, which Read reports
// naming the file.
struct ThrowingAllocator {
  static const bool kNeedFree = true;
  void* Malloc(size_t size);
  void* Realloc(void* original, size_t original_size, size_t new_size);
  static void Free(void* p);
};

// The Document (and its values) of a profile's non-row parts.
using ProfileDocument =
    rapidjson::GenericDocument<rapidjson::UTF8<>, rapidjson::MemoryPoolAllocator<ThrowingAllocator>,
                               ThrowingAllocator>;

// A RapidJSON Reader handler; strings and keys it is given are copied (the parse is not in
// situ: the text is streamed, profile_text_stream.h). A malformed
// row does not stop the parse: its error is kept (first one only) and reported by the caller
// after `format` and `version` have been checked, which may say why the rows look foreign.
class ProfileSaxHandler {
 public:
  // Values other than instruction rows are forwarded to `doc` (borrowed). `in` (borrowed, may
  // be null) is the text being parsed: how far the parse has got in a text of about
  // `text_bytes` (0: unknown) lets the row vector be sized once instead of growing, and a
  // fraction is converted from its text (profile_number_stream.h).
  ProfileSaxHandler(ProfileDocument* doc, const ProfileTextStream* in, size_t text_bytes)
      : doc_(*doc), in_(in), text_bytes_(text_bytes) {}

  // Rows of profiles[i].instrs, indexed by i (the profile's position in the array).
  std::vector<std::vector<InstrRow>>& rows() { return rows_; }
  // The integer columns read into vectors, by key path ("profiles[0].slices[1].buckets.bm");
  // the Document holds an empty array in their place.
  std::unordered_map<std::string, std::vector<int64_t>>& columns() { return columns_; }
  // The first malformed row, naming its key path; OK when none.
  const Status& row_error() const { return row_error_; }

  // RapidJSON handler interface.
  bool Null();
  bool Bool(bool b);
  bool Int(int i) { return Integer(i); }
  bool Uint(unsigned u) { return Integer(u); }
  bool Int64(int64_t i) { return Integer(i); }
  bool Uint64(uint64_t u);
  // RapidJSON's approximation of a fraction; the value used is strtod's of the number's text
  // when the stream has it (exact; profile_number_stream.h).
  bool Double(double d);
  // Not called: numbers are parsed, not handed over as text (no kParseNumbersAsStringsFlag).
  bool RawNumber(const char*, rapidjson::SizeType, bool) { return false; }
  bool String(const char* str, rapidjson::SizeType length, bool copy);
  bool StartObject();
  bool Key(const char* str, rapidjson::SizeType length, bool copy);
  bool EndObject(rapidjson::SizeType members);
  bool StartArray();
  bool EndArray(rapidjson::SizeType elements);

 private:
  enum class Mode { kForward, kRow, kCounters, kSkipRow, kColumn };

  bool Integer(int64_t v);
  bool InRows() const { return in_instrs_ && depth_ == 4; }
  // Records that the current row is a scalar (`got`) instead of an array, and moves on.
  bool NotARow(const char* got);
  // Starts an instruction row (the `[` was just read).
  void BeginRow();
  // Records the first row error ("expected ...") and skips the rest of the row.
  void RowError(const std::string& what);
  // Error for a value at the current column of the current row.
  void ColumnError(const char* want, const char* got);
  std::string RowPath() const;
  // Whether the array starting now is a slice's integer column, and its key path.
  bool ColumnStarts(std::string* path) const;
  // A value that is not an integer inside a column: the column so far goes to the Document,
  // which reports the value as the reader does for any other array.
  void SpillColumn();

  ProfileDocument& doc_;
  const ProfileTextStream* in_;
  size_t text_bytes_;
  size_t sample_start_ = 0;  // text offset of the current profile's first row
  std::vector<std::vector<InstrRow>> rows_;
  Status row_error_;

  Mode mode_ = Mode::kForward;
  int depth_ = 0;             // containers open around the current position
  std::string key1_;          // last key of the root object
  std::string key3_;          // last key of the current profile object
  bool in_profiles_ = false;  // depth 2 is the root's "profiles" array
  bool in_instrs_ = false;    // depth 4 is the current profile's "instrs" array
  int64_t row_ = 0;           // index of the current row in instrs
  int column_ = 0;            // next column of the current row
  InstrRow cur_;
  std::string counter_;       // key of the unit counter being read

  // Where the slices' columns are: profiles[profile_].slices[slice_] (objects counted: the
  // reader stops at the first element that is not one), key5_ in the slice, key6_ in its
  // buckets.
  int64_t profile_ = -1, slice_ = -1;
  bool in_slices_ = false;    // depth 4 is the current profile's "slices" array
  bool in_buckets_ = false;   // depth 6 is the current slice's "buckets" object
  std::string key5_, key6_;
  std::string column_path_;   // of the column being read
  std::vector<int64_t> column_values_;
  std::unordered_map<std::string, std::vector<int64_t>> columns_;
};

}  // namespace otpu::lens

#endif  // OTPU_LENS_PROFILE_SAX_H_
