#include "lens/profile_sax.h"

#include "base/json.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <new>
#include <limits>
#include <string>
#include <string_view>

namespace otpu::lens {
namespace {

constexpr std::array<const char*, kInstrColumns> kColumnNames = {
    "slice",   "idx",   "pc",  "unit",   "name",     "detail", "dispatch", "ready",
    "release", "start", "end", "source", "counters", "work",   "port_b",   "port_a"};

constexpr int kNameColumn = 4;
constexpr int kDetailColumn = 5;
constexpr int kCountersColumn = 12;
// After this many rows the bytes they took predict how many rows the rest of the text holds:
// the row vector is sized once instead of doubling (each doubling moves every row).
constexpr int64_t kSampleRows = 1024;

bool Fits32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

}  // namespace

void* ThrowingAllocator::Malloc(size_t size) {
  if (size == 0) return nullptr;
  void* p = std::malloc(size);
  if (!p) throw std::bad_alloc();
  return p;
}

void* ThrowingAllocator::Realloc(void* original, size_t, size_t new_size) {
  if (new_size == 0) {
    std::free(original);
    return nullptr;
  }
  void* p = std::realloc(original, new_size);
  if (!p) throw std::bad_alloc();
  return p;
}

void ThrowingAllocator::Free(void* p) { std::free(p); }

std::string ProfileSaxHandler::RowPath() const {
  return "profiles[" + std::to_string(rows_.size() - 1) + "].instrs[" + std::to_string(row_) + "]";
}

void ProfileSaxHandler::RowError(const std::string& what) {
  if (row_error_.ok()) row_error_ = DataLoss(RowPath() + ": " + what);
  mode_ = Mode::kSkipRow;
}

void ProfileSaxHandler::ColumnError(const char* want, const char* got) {
  if (column_ >= kInstrColumns) {
    RowError("expected " + std::to_string(kInstrColumns) + " columns, got more");
    return;
  }
  RowError("column " + std::to_string(column_) + " (" + kColumnNames[column_] + "): expected " +
           want + ", got " + got);
}

bool ProfileSaxHandler::NotARow(const char* got) {
  RowError("expected an array of " + std::to_string(kInstrColumns) + " columns, got " + got);
  mode_ = Mode::kForward;  // a scalar row is over already
  ++row_;
  return true;
}

bool ProfileSaxHandler::ColumnStarts(std::string* path) const {
  if (!in_slices_ || profile_ < 0 || slice_ < 0) return false;
  const std::string slice =
      "profiles[" + std::to_string(profile_) + "].slices[" + std::to_string(slice_) + "]";
  if (depth_ == 5 && !in_buckets_ && (key5_ == "busy" || key5_ == "lose")) {
    *path = slice + "." + key5_;
    return true;
  }
  if (depth_ == 6 && in_buckets_) {
    *path = slice + ".buckets." + key6_;
    return true;
  }
  return false;
}

void ProfileSaxHandler::SpillColumn() {
  doc_.StartArray();
  for (int64_t v : column_values_) doc_.Int64(v);
  column_values_.clear();
  mode_ = Mode::kForward;
}

void ProfileSaxHandler::BeginRow() {
  if (in_ && (row_ == 0 || row_ == kSampleRows)) {
    const size_t at = in_->Tell();
    if (row_ == 0) {
      sample_start_ = at;
    } else if (at > sample_start_ && at < text_bytes_) {
      const size_t row_bytes = std::max<size_t>(1, (at - sample_start_) / kSampleRows);
      const size_t more = (text_bytes_ - at) / row_bytes;
      rows_.back().reserve(size_t(kSampleRows) + more + more / 16);
    }
  }
  cur_ = InstrRow{};
  column_ = 0;
  mode_ = Mode::kRow;
}

bool ProfileSaxHandler::Integer(int64_t v) {
  switch (mode_) {
    case Mode::kForward:
      return InRows() ? NotARow("a number") : doc_.Int64(v);
    case Mode::kCounters:
      cur_.counters.push_back({counter_, v});
      return true;
    case Mode::kSkipRow:
      return true;
    case Mode::kColumn:
      column_values_.push_back(v);
      return true;
    case Mode::kRow:
      break;
  }
  bool narrow = column_ == 0 || column_ == 3 || column_ == 11;
  if (narrow && !Fits32(v)) {
    ColumnError("a 32-bit integer", "a number out of range");
    return true;
  }
  switch (column_) {
    case 0:
      cur_.slice = int32_t(v);
      break;
    case 1:
      cur_.idx = v;
      break;
    case 2:
      cur_.pc = v;
      break;
    case 3:
      cur_.unit = int32_t(v);
      break;
    case 6:
      cur_.dispatch = v;
      break;
    case 7:
      cur_.ready = v;
      break;
    case 8:
      cur_.release = v;
      break;
    case 9:
      cur_.start = v;
      break;
    case 10:
      cur_.end = v;
      break;
    case 11:
      cur_.source = int32_t(v);
      break;
    case 13:
      cur_.work = v;
      break;
    case 14:
      cur_.port_b = v;
      break;
    case 15:
      cur_.port_a = v;
      break;
    default:
      ColumnError(column_ == kCountersColumn ? "an object" : "a string", "a number");
      return true;
  }
  ++column_;
  return true;
}

bool ProfileSaxHandler::Uint64(uint64_t u) {
  if (u <= uint64_t(std::numeric_limits<int64_t>::max())) return Integer(int64_t(u));
  if (mode_ == Mode::kColumn) SpillColumn();
  if (mode_ == Mode::kForward && !InRows()) return doc_.Uint64(u);
  if (mode_ == Mode::kRow || mode_ == Mode::kCounters) {
    ColumnError("an integer", "a number out of range");
  } else if (mode_ == Mode::kForward) {
    return NotARow("a number");
  }
  return true;
}

bool ProfileSaxHandler::Double(double d) {
  if (in_) {
    const std::string_view text = in_->NumberText();
    if (!text.empty()) {
      // The grammar was checked by the parser; out of range becomes +-inf or 0.
      char z[kMaxJsonNumberChars + 1];
      text.copy(z, text.size());
      z[text.size()] = '\0';
      d = std::strtod(z, nullptr);
    }
  }
  if (mode_ == Mode::kColumn) {
    if (std::trunc(d) == d && std::fabs(d) < 9.2e18) return Integer(int64_t(d));
    SpillColumn();
  }
  if (mode_ == Mode::kForward && !InRows()) return doc_.Double(d);
  // Other writers may print integers as 1e6 or 12.0; accept those.
  if (std::trunc(d) == d && std::fabs(d) < 9.2e18) return Integer(int64_t(d));
  if (mode_ == Mode::kRow || mode_ == Mode::kCounters) ColumnError("an integer", "a fraction");
  if (mode_ == Mode::kForward) return NotARow("a number");
  return true;
}

bool ProfileSaxHandler::Null() {
  if (mode_ == Mode::kColumn) SpillColumn();
  switch (mode_) {
    case Mode::kForward:
      return InRows() ? NotARow("null") : doc_.Null();
    case Mode::kRow:
      if (column_ == kCountersColumn) {  // no counters
        ++column_;
        return true;
      }
      ColumnError("a value", "null");
      return true;
    case Mode::kCounters:
      ColumnError("integer counters", "null");
      return true;
    case Mode::kSkipRow:
    case Mode::kColumn:
      return true;
  }
  return true;
}

bool ProfileSaxHandler::Bool(bool b) {
  if (mode_ == Mode::kColumn) SpillColumn();
  if (mode_ == Mode::kForward) return InRows() ? NotARow("a boolean") : doc_.Bool(b);
  if (mode_ != Mode::kSkipRow) ColumnError("a number or string", "a boolean");
  return true;
}

bool ProfileSaxHandler::String(const char* str, rapidjson::SizeType length, bool copy) {
  if (mode_ == Mode::kColumn) SpillColumn();
  switch (mode_) {
    case Mode::kForward:
      return InRows() ? NotARow("a string") : doc_.String(str, length, copy);
    case Mode::kRow:
      if (column_ == kNameColumn) {
        cur_.name.assign(str, length);
      } else if (column_ == kDetailColumn) {
        cur_.detail.assign(str, length);
      } else {
        ColumnError(column_ == kCountersColumn ? "an object" : "an integer", "a string");
        return true;
      }
      ++column_;
      return true;
    case Mode::kCounters:
      ColumnError("integer counters", "a string");
      return true;
    case Mode::kSkipRow:
    case Mode::kColumn:
      return true;
  }
  return true;
}

bool ProfileSaxHandler::StartObject() {
  if (mode_ == Mode::kColumn) SpillColumn();
  switch (mode_) {
    case Mode::kForward:
      if (InRows()) {
        RowError("expected an array of " + std::to_string(kInstrColumns) +
                 " columns, got an object");
        break;
      }
      if (depth_ == 2 && in_profiles_) {
        rows_.emplace_back();
        key3_.clear();
        ++profile_;
        slice_ = -1;
      }
      if (depth_ == 4 && in_slices_) {
        ++slice_;
        key5_.clear();
      }
      if (depth_ == 5 && in_slices_ && key5_ == "buckets") in_buckets_ = true;
      ++depth_;
      return doc_.StartObject();
    case Mode::kRow:
      if (column_ == kCountersColumn) {
        mode_ = Mode::kCounters;
      } else {
        ColumnError("a number or string", "an object");
      }
      break;
    case Mode::kCounters:
      ColumnError("integer counters", "an object");
      break;
    case Mode::kSkipRow:
    case Mode::kColumn:
      break;
  }
  ++depth_;
  return true;
}

bool ProfileSaxHandler::Key(const char* str, rapidjson::SizeType length, bool copy) {
  switch (mode_) {
    case Mode::kForward:
      if (depth_ == 1) key1_.assign(str, length);
      if (depth_ == 3) key3_.assign(str, length);
      if (depth_ == 5 && in_slices_) key5_.assign(str, length);
      if (depth_ == 6 && in_buckets_) key6_.assign(str, length);
      return doc_.Key(str, length, copy);
    case Mode::kCounters:
      counter_.assign(str, length);
      return true;
    default:
      return true;
  }
}

bool ProfileSaxHandler::EndObject(rapidjson::SizeType members) {
  --depth_;
  switch (mode_) {
    case Mode::kForward:
      if (depth_ == 2 && in_profiles_) key3_.clear();
      if (depth_ == 5 && in_buckets_) in_buckets_ = false;
      if (depth_ == 4 && in_slices_) key5_.clear();
      return doc_.EndObject(members);
    case Mode::kCounters:
      mode_ = Mode::kRow;
      ++column_;
      return true;
    case Mode::kSkipRow:
      if (depth_ == 4) {
        mode_ = Mode::kForward;
        ++row_;
      }
      return true;
    case Mode::kRow:
    case Mode::kColumn:
      return true;  // cannot happen: rows and columns are arrays
  }
  return true;
}

bool ProfileSaxHandler::StartArray() {
  if (mode_ == Mode::kColumn) SpillColumn();
  switch (mode_) {
    case Mode::kForward:
      if (InRows()) {
        BeginRow();
        break;
      }
      if (ColumnStarts(&column_path_)) {
        // The Document gets the array only if a value turns out not to be an integer.
        mode_ = Mode::kColumn;
        column_values_.clear();
        break;
      }
      if (depth_ == 1 && key1_ == "profiles") in_profiles_ = true;
      if (depth_ == 3 && in_profiles_ && key3_ == "slices") in_slices_ = true;
      if (depth_ == 3 && in_profiles_ && key3_ == "instrs") {
        in_instrs_ = true;
        row_ = 0;
      }
      ++depth_;
      return doc_.StartArray();
    case Mode::kRow:
      ColumnError("a number or string", "an array");
      break;
    case Mode::kCounters:
      ColumnError("integer counters", "an array");
      break;
    case Mode::kSkipRow:
    case Mode::kColumn:
      break;
  }
  ++depth_;
  return true;
}

bool ProfileSaxHandler::EndArray(rapidjson::SizeType elements) {
  --depth_;
  switch (mode_) {
    case Mode::kForward:
      if (depth_ == 3 && in_instrs_) {
        in_instrs_ = false;
        // Reserved for the rest of the text, which held other profiles too: give it back.
        std::vector<InstrRow>& rows = rows_.back();
        if (rows.capacity() > rows.size() + rows.size() / 4) rows.shrink_to_fit();
        return doc_.EndArray(0);  // its rows went to rows_, not to the document
      }
      if (depth_ == 1 && in_profiles_) in_profiles_ = false;
      if (depth_ == 3 && in_slices_) in_slices_ = false;
      return doc_.EndArray(elements);
    case Mode::kColumn:
      mode_ = Mode::kForward;
      columns_[column_path_] = std::move(column_values_);
      column_values_ = {};
      doc_.StartArray();
      return doc_.EndArray(0);  // its values went to columns_
    case Mode::kRow:
      if (column_ != kInstrColumns) {
        RowError("expected " + std::to_string(kInstrColumns) + " columns, got " +
                 std::to_string(column_));
      } else {
        rows_.back().push_back(std::move(cur_));
      }
      mode_ = Mode::kForward;
      ++row_;
      return true;
    case Mode::kSkipRow:
      if (depth_ == 4) {
        mode_ = Mode::kForward;
        ++row_;
      }
      return true;
    case Mode::kCounters:
      return true;  // cannot happen: counters are an object
  }
  return true;
}

}  // namespace otpu::lens
