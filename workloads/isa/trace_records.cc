#include "workloads/isa/trace_records.h"

namespace otpu::trace {
namespace {

constexpr Record Head(RecordType t) { return Record(t) << 60; }

}  // namespace

bool IsRecordType(uint8_t t) { return t >= 1 && t <= 11; }

bool IsValueType(uint8_t t) {
  return t == uint8_t(RecordType::kOPERANDS) || t == uint8_t(RecordType::kREADY) ||
         t == uint8_t(RecordType::kVALUE);
}

const char* RecordLetter(uint8_t t) {
  static constexpr const char* kLetters[] = {"?", "D", "S", "G", "E", "U", "P",
                                             "Q", "H", "O", "R", "V"};
  return t < 12 ? kLetters[t] : "?";
}

Record Dispatch::Encode() const {
  return Head(RecordType::kDISPATCH) | Field(slot, 55, 52) | Field(pc, 47, 32) | cycle;
}
Dispatch Dispatch::Decode(Record r) {
  return {uint32_t(Bits(r, 55, 52)), uint32_t(Bits(r, 47, 32)), uint32_t(r)};
}

Record Operands::Encode() const {
  return Head(RecordType::kOPERANDS) | Field(half, 52, 52) | (bits & kOperandHalfMask);
}
Operands Operands::Decode(Record r) { return {uint32_t(Bits(r, 52, 52)), r & kOperandHalfMask}; }

std::array<Record, 2> EncodeOperands(uint8_t op, uint32_t w1, uint32_t w2, uint32_t w3) {
  // 104 bits as two 52-bit halves: low = w1 | w2[19:0], high = w2[31:20] | w3 | op.
  const uint64_t low = uint64_t(w1) | (uint64_t(w2) & 0xFFFFF) << 32;
  const uint64_t high = uint64_t(w2) >> 20 | uint64_t(w3) << 12 | uint64_t(op) << 44;
  return {Operands{0, low}.Encode(), Operands{1, high}.Encode()};
}

OperandWords DecodeOperands(Record half0, Record half1) {
  const uint64_t low = half0 & kOperandHalfMask, high = half1 & kOperandHalfMask;
  OperandWords o;
  o.w1 = uint32_t(low);
  o.w2 = uint32_t(low >> 32) | uint32_t(high & 0xFFF) << 20;
  o.w3 = uint32_t(high >> 12);
  o.op = uint8_t(high >> 44);
  return o;
}

Record Start::Encode() const {
  return Head(RecordType::kSTART) | Field(slot, 55, 52) | Field(unit, 51, 48) |
         Field(delay, 47, 32) | cycle;
}
Start Start::Decode(Record r) {
  return {uint32_t(Bits(r, 55, 52)), uint32_t(Bits(r, 51, 48)), uint32_t(Bits(r, 47, 32)),
          uint32_t(r)};
}

Record SlotCycle::Encode() const { return Head(type) | Field(slot, 55, 52) | cycle; }
SlotCycle SlotCycle::Decode(Record r) {
  return {RecordType(TypeOf(r)), uint32_t(Bits(r, 55, 52)), uint32_t(r)};
}

Record UnitCounters::Encode() const {
  return Head(RecordType::kUNIT) | Field(unit, 51, 48) | cycle;
}
UnitCounters UnitCounters::Decode(Record r) { return {uint32_t(Bits(r, 51, 48)), uint32_t(r)}; }

Record Window::Encode() const { return Head(type) | Field(n, 55, 32) | cycle; }
Window Window::Decode(Record r) {
  return {RecordType(TypeOf(r)), uint32_t(Bits(r, 55, 32)), uint32_t(r)};
}

Record EncodeReady(uint32_t ready) { return Head(RecordType::kREADY) | ready; }
uint32_t ReadyOf(Record r) { return uint32_t(r); }
Record EncodeValue(uint32_t index, uint32_t value) {
  return Head(RecordType::kVALUE) | Field(index, 59, 56) | value;
}
uint32_t ValueIndexOf(Record r) { return uint32_t(Bits(r, 59, 56)); }
uint32_t ValueOf(Record r) { return uint32_t(r); }

int UnitValueCount(uint32_t unit) {
  switch (isa::Unit(unit)) {
    case isa::Unit::kMXU: return kMxuCounters;
    case isa::Unit::kQUANT:
    case isa::Unit::kVPU: return 1;
    default: return 0;
  }
}

}  // namespace otpu::trace
