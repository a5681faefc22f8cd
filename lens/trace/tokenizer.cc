#include "lens/trace/tokenizer.h"

#include <cstdio>
#include <string>

namespace otpu::lens::decode {
namespace {

// The value type `head` expects at position `i` of its values.
uint8_t ExpectedValueType(Record head) {
  switch (RecordType(TypeOf(head))) {
    case RecordType::kDISPATCH: return uint8_t(RecordType::kOPERANDS);
    case RecordType::kSTART: return uint8_t(RecordType::kREADY);
    default: return uint8_t(RecordType::kVALUE);
  }
}

// Whether value `v` is the `i`-th of its group (O halves and V indices count up from 0).
bool InPlace(Record v, int i) {
  if (TypeOf(v) == uint8_t(RecordType::kOPERANDS)) return Operands::Decode(v).half == uint32_t(i);
  if (TypeOf(v) == uint8_t(RecordType::kVALUE)) return ValueIndexOf(v) == uint32_t(i);
  return true;
}

std::string At(size_t i, Record r) {
  return "record " + std::to_string(i) + " (" + RecordLetter(TypeOf(r)) + ")";
}

// DataLoss when record `i` sets a bit its type leaves 0: such a record was damaged on its way
// (a flipped bit reads as another pc, slot or count), so nothing in it can be trusted.
Status CheckReserved(size_t i, Record r) {
  const uint64_t reserved = ::otpu::trace::ReservedBitsOf(r);
  if (reserved == 0) return OkStatus();
  char hex[40];
  std::snprintf(hex, sizeof hex, "0x%016llx", (unsigned long long)reserved);
  return DataLoss(At(i, r) + ": reserved bits " + hex +
                  " are set (SPEC 5: bits not listed for a type are 0)");
}

}  // namespace

bool Reader::Peek(Record* r) const {
  if (pos_ >= data_.size()) return false;
  *r = data_[pos_];
  return true;
}

bool Reader::Read(Record* r) {
  if (!Peek(r)) return false;
  ++pos_;
  return true;
}

int ValuesAfter(Record head) {
  switch (RecordType(TypeOf(head))) {
    case RecordType::kDISPATCH: return 2;
    case RecordType::kSTART: return Start::Decode(head).saturated() ? 1 : 0;
    case RecordType::kUNIT: return UnitValueCount(UnitCounters::Decode(head).unit);
    case RecordType::kHALT: return kHaltPorts;
    case RecordType::kWINDOW_P: return kWindowPColumns;
    case RecordType::kWINDOW_Q: return kWindowQColumns;
    default: return 0;
  }
}

Status Tokenizer::Take(Record r) {
  const size_t at = pos_++;
  if (leading_) {
    // The stream may start inside a group: its value records have lost their head.
    if (IsValueType(TypeOf(r))) {
      RETURN_IF_ERROR(CheckReserved(at, r));
      cut_head_ = 1;
      return OkStatus();
    }
    leading_ = false;
  }
  if (want_ < 0) {
    if (!IsRecordType(TypeOf(r))) {
      return DataLoss(At(at, r) + ": type " + std::to_string(TypeOf(r)) +
                      " is not a trace record (SPEC 5)");
    }
    if (IsValueType(TypeOf(r))) {
      return DataLoss(At(at, r) + ": a value record without its head record");
    }
    RETURN_IF_ERROR(CheckReserved(at, r));
    pending_.index = at;
    pending_.head = r;
    pending_.num_values = 0;
    want_ = ValuesAfter(r);
  } else {
    // Values are checked only once the group is whole: a stream that ends first makes it
    // the cut tail, whatever the records after its head are (as Tokenize, which looks ahead).
    pending_.values[size_t(pending_.num_values++)] = r;
  }
  if (pending_.num_values < want_) return OkStatus();
  for (int i = 0; i < want_; ++i) {
    const Record v = pending_.values[size_t(i)];
    const size_t vat = pending_.index + 1 + size_t(i);
    if (TypeOf(v) != ExpectedValueType(pending_.head) || !InPlace(v, i)) {
      return DataLoss(At(vat, v) + ": value " + std::to_string(i) + " of " +
                      At(pending_.index, pending_.head) + " expected " +
                      RecordLetter(ExpectedValueType(pending_.head)) + " " + std::to_string(i));
    }
    RETURN_IF_ERROR(CheckReserved(vat, v));
  }
  want_ = -1;
  return sink_->Add(pending_);
}

Status Tokenizer::Feed(const Record* records, size_t n) {
  if (!error_.ok()) return error_;
  for (size_t i = 0; i < n; ++i) {
    Status s = Take(records[i]);
    if (!s.ok()) {
      error_ = s;
      return s;
    }
  }
  return OkStatus();
}

void Tokenizer::Finish() {
  if (want_ >= 0) cut_tail_ = 1;  // the stream ends inside this group
  want_ = -1;
}

StatusOr<Tokens> Tokenize(std::span<const Record> records) {
  struct Collect : GroupSink {
    std::vector<Group>* groups;
    Status Add(const Group& g) override {
      groups->push_back(g);
      return OkStatus();
    }
  };
  Tokens out;
  Collect sink;
  sink.groups = &out.groups;
  Tokenizer t(&sink);
  RETURN_IF_ERROR(t.Feed(records.data(), records.size()));
  t.Finish();
  out.cut_head = t.cut_head();
  out.cut_tail = t.cut_tail();
  return out;
}

}  // namespace otpu::lens::decode
