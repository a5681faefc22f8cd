// The second decoding layer (STYLE 13): cuts a buffer of records into groups, each a head
// record with its value records (D + 2 O, S [+ R when saturated], U + V × 4 / 1 / 0, H + V × 4,
// P + V × 9, Q + V × 6, G, E). A group cut at either end of the buffer (a ring that wrapped,
// a buffer that filled) is skipped and counted; anything malformed in between is DataLoss.
#ifndef OTPU_LENS_TRACE_TOKENIZER_H_
#define OTPU_LENS_TRACE_TOKENIZER_H_

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "workloads/isa/trace_records.h"
#include "base/status.h"

namespace otpu::lens::decode {

// The record format (SPEC 5) and the events the decoder fills, by their short names.
using ::otpu::trace::Record;
using ::otpu::trace::RecordType;
using ::otpu::trace::RecordLetter;
using ::otpu::trace::TypeOf;
using ::otpu::trace::IsRecordType;
using ::otpu::trace::IsValueType;
using ::otpu::trace::ValueIndexOf;
using ::otpu::trace::ValueOf;
using ::otpu::trace::UnitValueCount;
using ::otpu::trace::Dispatch;
using ::otpu::trace::Operands;
using ::otpu::trace::OperandWords;
using ::otpu::trace::DecodeOperands;
using ::otpu::trace::EncodeOperands;
using ::otpu::trace::Start;
using ::otpu::trace::ReadyOf;
using ::otpu::trace::EncodeReady;
using ::otpu::trace::EncodeValue;
using ::otpu::trace::UnitCounters;
using ::otpu::trace::SlotCycle;
using ::otpu::trace::Window;
using ::otpu::trace::kSaturatedDelay;
using ::otpu::trace::kHaltPorts;
using ::otpu::trace::kWindowPColumns;
using ::otpu::trace::kWindowQColumns;

inline constexpr int kMaxValues = kWindowPColumns;  // the longest group: P + V × 9

// A bounds-checked cursor over records (false when the data runs out).
class Reader {
 public:
  explicit Reader(std::span<const Record> data) : data_(data) {}
  // The next record without consuming it.
  bool Peek(Record* r) const;
  // The next record, consumed.
  bool Read(Record* r);
  size_t position() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }

 private:
  std::span<const Record> data_;
  size_t pos_ = 0;
};

// One head record and its value records.
struct Group {
  size_t index = 0;  // position of the head in the buffer
  Record head = 0;
  std::array<Record, kMaxValues> values{};
  int num_values = 0;
  uint8_t type() const { return TypeOf(head); }
};

struct Tokens {
  std::vector<Group> groups;
  int64_t cut_head = 0;  // value records at the start whose head was overwritten or lost
  int64_t cut_tail = 0;  // 1 when the last group misses some of its values
};

// Value records `head` needs after it (S: 1 when saturated; U: by unit).
int ValuesAfter(Record head);

// Where a Tokenizer delivers each complete group, in order.
class GroupSink {
 public:
  virtual ~GroupSink() = default;
  // An error stops the tokenizer and is returned from its Feed.
  virtual Status Add(const Group& g) = 0;
};

// The resumable form of Tokenize: records arrive in chunks of any size (a drain loop's reads,
// splitting groups anywhere) and each group goes to the sink as soon as its last value record
// is in. The result equals Tokenize over the concatenated chunks, error messages included;
// it holds at most one group, never the records.
class Tokenizer {
 public:
  // `sink` is borrowed and must outlive the tokenizer.
  explicit Tokenizer(GroupSink* sink) : sink_(sink) {}

  // Takes the next `n` records. DataLoss as Tokenize (naming the record's index in the whole
  // stream); after an error the tokenizer takes nothing more and returns it again.
  Status Feed(const Record* records, size_t n);
  // The stream has ended: a group still missing values is the cut tail.
  void Finish();

  int64_t cut_head() const { return cut_head_; }
  int64_t cut_tail() const { return cut_tail_; }
  // Records taken so far.
  size_t records() const { return pos_; }

 private:
  Status Take(Record r);

  GroupSink* sink_;
  size_t pos_ = 0;          // index of the next record in the whole stream
  bool leading_ = true;     // still inside the value records a cut head left
  Group pending_;           // the group being gathered
  int want_ = -1;           // values pending_ needs, -1 when there is none
  int64_t cut_head_ = 0;
  int64_t cut_tail_ = 0;
  Status error_;
};

// Groups the whole buffer. DataLoss names the record index and types when a record is not of
// SPEC 5 or a group is broken away from the buffer's ends.
StatusOr<Tokens> Tokenize(std::span<const Record> records);

}  // namespace otpu::lens::decode

#endif  // OTPU_LENS_TRACE_TOKENIZER_H_
