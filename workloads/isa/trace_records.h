// The 64-bit trace record of SPEC 5, in one place: record types come from workloads/isa/defs.h
// (OTPU_RECORDS); field positions, masks and the small accessor structs live here. Bits not
// listed for a type are 0. docs/trace.md has the table for users.
#ifndef OTPU_WORKLOADS_ISA_TRACE_RECORDS_H_
#define OTPU_WORKLOADS_ISA_TRACE_RECORDS_H_

#include <array>
#include <cstdint>

#include "workloads/isa/defs.h"

namespace otpu::trace {

using Record = uint64_t;
using isa::RecordType;

inline constexpr uint32_t kSaturatedDelay = 0xFFFF;  // S: cycle - ready did not fit 16 bits
inline constexpr int kMxuCounters = 4;               // U of the MXU: starve bp frz deny
inline constexpr int kHaltPorts = 4;                 // H: bmxu bdma amxu aq
inline constexpr int kWindowPColumns = 9;            // P: bm bd am aq mx fm fq fv fc
inline constexpr int kWindowQColumns = 6;            // Q: bs as ms mb ff ld
inline constexpr uint32_t kMaxWindowN = 0xFFFFFF;    // P/Q [55:32]
inline constexpr uint64_t kOperandHalfMask = (uint64_t{1} << 52) - 1;

// Bits [hi:lo] of `r`.
constexpr uint64_t Bits(Record r, int hi, int lo) {
  return (r >> lo) & ((uint64_t{1} << (hi - lo + 1)) - 1);
}
// `v` placed at bits [hi:lo] (masked to the field).
constexpr Record Field(uint64_t v, int hi, int lo) {
  return (v & ((uint64_t{1} << (hi - lo + 1)) - 1)) << lo;
}

// The type nibble [63:60]; not necessarily one of RecordType.
constexpr uint8_t TypeOf(Record r) { return uint8_t(r >> 60); }
// Whether `t` names a record type of SPEC 5.
bool IsRecordType(uint8_t t);
// Value records (O, R, V) only follow a head; every other type starts a group.
bool IsValueType(uint8_t t);
// "D", "O", ... for messages; "?" for an unknown type.
const char* RecordLetter(uint8_t t);

// The bits a record of type `t` may set: its type nibble and the payload fields of SPEC 5's
// table (0 for a type that is not of SPEC 5). Every other bit is reserved and must be 0, so a
// record with one set is damaged (a flipped bit on the way from the buffer), never data.
constexpr uint64_t DefinedBits(uint8_t t) {
  constexpr uint64_t kType = uint64_t{0xF} << 60;
  constexpr uint64_t kSlot = uint64_t{0xF} << 52;   // [55:52]
  constexpr uint64_t kUnit = uint64_t{0xF} << 48;   // [51:48]
  constexpr uint64_t kHigh16 = uint64_t{0xFFFF} << 32;  // [47:32]: pc, start delay
  constexpr uint64_t kCycle = 0xFFFFFFFFu;          // [31:0]
  switch (RecordType(t)) {
    case RecordType::kDISPATCH: return kType | kSlot | kHigh16 | kCycle;
    case RecordType::kOPERANDS: return kType | (uint64_t{1} << 52) | kOperandHalfMask;
    case RecordType::kSTART: return kType | kSlot | kUnit | kHigh16 | kCycle;
    case RecordType::kREADY: return kType | kCycle;
    case RecordType::kRELEASE:
    case RecordType::kEND: return kType | kSlot | kCycle;
    case RecordType::kUNIT: return kType | kUnit | kCycle;
    case RecordType::kHALT: return kType | kCycle;
    case RecordType::kWINDOW_P:
    case RecordType::kWINDOW_Q: return kType | (uint64_t{kMaxWindowN} << 32) | kCycle;
    case RecordType::kVALUE: return kType | (uint64_t{0xF} << 56) | kCycle;
    default: return 0;
  }
}
// The reserved bits `r` sets (0 for a well-formed record of a SPEC 5 type).
constexpr uint64_t ReservedBitsOf(Record r) { return r & ~DefinedBits(TypeOf(r)); }

// D: an instruction takes a window slot.
struct Dispatch {
  uint32_t slot = 0, pc = 0, cycle = 0;
  Record Encode() const;
  static Dispatch Decode(Record r);
};
// O: one half of the 104-bit {op[7:0], w3, w2, w1}; half 0 holds bits 51:0.
struct Operands {
  uint32_t half = 0;
  uint64_t bits = 0;  // 52 bits
  Record Encode() const;
  static Operands Decode(Record r);
};
// The two O records of a dispatch, and back.
std::array<Record, 2> EncodeOperands(uint8_t op, uint32_t w1, uint32_t w2, uint32_t w3);
struct OperandWords {
  uint8_t op = 0;
  uint32_t w1 = 0, w2 = 0, w3 = 0;
};
OperandWords DecodeOperands(Record half0, Record half1);

// S: the unit accepts the instruction in `slot`; delay = cycle - ready, kSaturatedDelay when
// it did not fit (an R record with the ready cycle follows).
struct Start {
  uint32_t slot = 0, unit = 0, delay = 0, cycle = 0;
  bool saturated() const { return delay == kSaturatedDelay; }
  Record Encode() const;
  static Start Decode(Record r);
};
// G (MXU release), E (end) and H (halt) share the layout slot + cycle (H: slot 0).
struct SlotCycle {
  RecordType type = RecordType::kEND;
  uint32_t slot = 0, cycle = 0;
  Record Encode() const;
  static SlotCycle Decode(Record r);
};
// U: the unit counters of the instruction whose E came just before.
struct UnitCounters {
  uint32_t unit = 0, cycle = 0;
  Record Encode() const;
  static UnitCounters Decode(Record r);
};
// P / Q: a counter window of n cycles ending at `cycle`.
struct Window {
  RecordType type = RecordType::kWINDOW_P;
  uint32_t n = 0, cycle = 0;
  Record Encode() const;
  static Window Decode(Record r);
};
// R (ready cycle) and V (index, value) carry a 32-bit value.
Record EncodeReady(uint32_t ready);
uint32_t ReadyOf(Record r);
Record EncodeValue(uint32_t index, uint32_t value);
uint32_t ValueIndexOf(Record r);
uint32_t ValueOf(Record r);

// Value records following a U of `unit`: 4 (MXU), 1 (QUANT, VPU), 0 (DMA and the rest).
int UnitValueCount(uint32_t unit);

}  // namespace otpu::trace

#endif  // OTPU_WORKLOADS_ISA_TRACE_RECORDS_H_
