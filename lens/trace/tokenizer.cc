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

StatusOr<Tokens> Tokenize(std::span<const Record> records) {
  Tokens out;
  Reader in(records);
  Record r = 0;
  // The buffer may start inside a group: its value records have lost their head.
  bool cut = false;
  while (in.Peek(&r) && IsValueType(TypeOf(r))) {
    in.Read(&r);
    RETURN_IF_ERROR(CheckReserved(in.position() - 1, r));
    cut = true;
  }
  out.cut_head = cut ? 1 : 0;
  while (in.Read(&r)) {
    const size_t at = in.position() - 1;
    if (!IsRecordType(TypeOf(r))) {
      return DataLoss(At(at, r) + ": type " + std::to_string(TypeOf(r)) +
                      " is not a trace record (SPEC 5)");
    }
    if (IsValueType(TypeOf(r))) {
      return DataLoss(At(at, r) + ": a value record without its head record");
    }
    RETURN_IF_ERROR(CheckReserved(at, r));
    Group g;
    g.index = at;
    g.head = r;
    const int want = ValuesAfter(r);
    if (int64_t(in.remaining()) < want) {
      out.cut_tail = 1;  // the buffer ends inside this group
      break;
    }
    for (int i = 0; i < want; ++i) {
      Record v = 0;
      in.Read(&v);
      if (TypeOf(v) != ExpectedValueType(r) || !InPlace(v, i)) {
        return DataLoss(At(in.position() - 1, v) + ": value " + std::to_string(i) + " of " +
                        At(at, r) + " expected " + RecordLetter(ExpectedValueType(r)) + " " +
                        std::to_string(i));
      }
      RETURN_IF_ERROR(CheckReserved(in.position() - 1, v));
      g.values[size_t(i)] = v;
    }
    g.num_values = want;
    out.groups.push_back(g);
  }
  return out;
}

}  // namespace otpu::lens::decode
