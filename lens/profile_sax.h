// The SAX half of reading a profile: instruction rows (`profiles[i].instrs[j]`, the bulk of a
// file) go straight into InstrRow structs; every other value goes into a RapidJSON Document,
// which stays small. profile_json_read.cc turns that Document into structs.
#ifndef OTPU_LENS_PROFILE_SAX_H_
#define OTPU_LENS_PROFILE_SAX_H_

#include <rapidjson/document.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lens/profile.h"
#include "base/status.h"

namespace otpu::lens {

// A RapidJSON Reader handler. Strings must outlive the Document (parse in situ). A malformed
// row does not stop the parse: its error is kept (first one only) and reported by the caller
// after `format` and `version` have been checked, which may say why the rows look foreign.
class ProfileSaxHandler {
 public:
  // Values other than instruction rows are forwarded to `doc` (borrowed). `tell` (borrowed,
  // may be null) says how far the parse has got in a text of `text_bytes`: it lets the row
  // vector be sized once instead of growing.
  ProfileSaxHandler(rapidjson::Document* doc, const std::function<size_t()>* tell,
                    size_t text_bytes)
      : doc_(*doc), tell_(tell), text_bytes_(text_bytes) {}

  // Rows of profiles[i].instrs, indexed by i (the profile's position in the array).
  std::vector<std::vector<InstrRow>>& rows() { return rows_; }
  // The first malformed row, naming its key path; OK when none.
  const Status& row_error() const { return row_error_; }

  // RapidJSON handler interface.
  bool Null();
  bool Bool(bool b);
  bool Int(int i) { return Integer(i); }
  bool Uint(unsigned u) { return Integer(u); }
  bool Int64(int64_t i) { return Integer(i); }
  bool Uint64(uint64_t u);
  bool Double(double d);
  bool RawNumber(const char* str, rapidjson::SizeType length, bool copy) { return false; }
  bool String(const char* str, rapidjson::SizeType length, bool copy);
  bool StartObject();
  bool Key(const char* str, rapidjson::SizeType length, bool copy);
  bool EndObject(rapidjson::SizeType members);
  bool StartArray();
  bool EndArray(rapidjson::SizeType elements);

 private:
  enum class Mode { kForward, kRow, kCounters, kSkipRow };

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

  rapidjson::Document& doc_;
  const std::function<size_t()>* tell_;
  size_t text_bytes_;
  size_t sample_start_ = 0;  // text offset of the current profile's first row
  std::vector<std::vector<InstrRow>> rows_;
  Status row_error_;

  Mode mode_ = Mode::kForward;
  int depth_ = 0;             // containers open around the current position
  std::string_view key1_;     // last key of the root object
  std::string_view key3_;     // last key of the current profile object
  bool in_profiles_ = false;  // depth 2 is the root's "profiles" array
  bool in_instrs_ = false;    // depth 4 is the current profile's "instrs" array
  int64_t row_ = 0;           // index of the current row in instrs
  int column_ = 0;            // next column of the current row
  InstrRow cur_;
  std::string_view counter_;  // key of the unit counter being read
};

}  // namespace otpu::lens

#endif  // OTPU_LENS_PROFILE_SAX_H_
